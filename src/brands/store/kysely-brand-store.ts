/**
 * The brands product's store over the kernel's Database (SQLite or PostgreSQL; issue 30, moved out of
 * store/kysely/kysely-store.ts): brand records and identifiers, the save and its hooks, bulk inserts, the crawl
 * failure memory, the brand write log, and scheduled refresh with popularity, the analysis cache and mark signatures.
 */
import type { Kysely } from 'kysely';
import type { BrandSavedEvent } from '../../domain/brand-changes.js';
import type { Database, DbTransaction } from '../../db/database.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import { toMillis } from '../../db/column-codec.js';
import type { BrandStatus, BrandStore, BrandWrite, BrandWriteLog, CrawlFailure, IdentifierRef, RefreshStore, SaveBrandOptions, StoredBrand } from '../brand-store.js';
import type { BrandSaveHook } from '../brand-save-hooks.js';
import { decideBrandSave, markKeysToCompare } from '../brand-save-decision.js';
import { brandToRow, previousBrandForSave, rowToBrand } from './brand-rows.js';
import * as writes from './brand-write-log.js';
import * as crawlFailures from './crawl-failure-memory.js';
import * as refresh from './refresh-rows.js';
import * as bulk from './bulk-brand-rows.js';
import type { BulkBrand } from './bulk-brand-rows.js';
import type { BrandTables, RefreshJoinedTables } from './brand-tables.js';

/**
 * The brand event log's write in a save (ADR 0010: the `brand.saved` event and its deliveries, in the save's
 * transaction). Its SQL is the events' (store/kysely/brand-event-log.ts, given by main/product-stores.ts) until the
 * event becomes a brand save hook (issue 30 item 3).
 */
export interface BrandSaveEvents {
  appendBrandSavedEvent(trx: DbTransaction<unknown>, event: BrandSavedEvent): Promise<void>;
}

export interface KyselyBrandStoreOptions {
  /** Kept by reference: main/ may register a hook that needs services built later (main/product-stores.ts). */
  saveHooks?: readonly BrandSaveHook[];
  /** Absent: saves write no brand event (suites that read only the brands' own rows). */
  events?: BrandSaveEvents;
}

/** Identifiers deduplicated by (kind, value): PostgreSQL refuses to upsert the same row twice in one statement. */
function uniqueIdentifiers(identifiers: IdentifierRef[]): IdentifierRef[] {
  const byKey = new Map(identifiers.map((ref) => [`${ref.kind}\u0000${ref.value}`, ref]));
  return [...byKey.values()];
}

export class KyselyBrandStore implements BrandStore, BrandWriteLog, RefreshStore {
  private readonly db: Kysely<BrandTables>;
  private readonly quirks: DialectQuirks;
  private readonly saveHooks: readonly BrandSaveHook[];
  private readonly events: BrandSaveEvents | undefined;

  /** `saveHooks` run in every brand save's transaction, in order. */
  constructor(database: Database, options: KyselyBrandStoreOptions = {}) {
    this.db = database.tables<BrandTables>();
    this.quirks = database.quirks;
    this.saveHooks = options.saveHooks ?? [];
    this.events = options.events;
  }

  /** The refresh reads that join other products' tables (brand-tables.ts: RefreshJoinedTables). */
  private get joined(): Kysely<BrandTables & RefreshJoinedTables> {
    return this.db as unknown as Kysely<BrandTables & RefreshJoinedTables>;
  }

  // ---- brands ----

  async getBrand(id: string): Promise<StoredBrand | null> {
    const row = await this.db.selectFrom('brands').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : rowToBrand(row);
  }

  async findBrandByIdentifier(ref: IdentifierRef): Promise<StoredBrand | null> {
    const row = await this.db
      .selectFrom('brand_identifiers as i')
      .innerJoin('brands as b', 'b.id', 'i.brand_id')
      .selectAll('b')
      .where('i.kind', '=', ref.kind)
      .where('i.value', '=', ref.value)
      .executeTakeFirst();
    return row === undefined ? null : rowToBrand(row);
  }

  /**
   * Keeps the first `createdAt` of a brand saved again: it records when the brand entered the store. The
   * `brand.saved` event is diffed against the record read under the write lock and written before the
   * identifiers, so any failure of the transaction takes the event with it. The brand write log entry comes last:
   * on PostgreSQL it holds a lock that serializes all saves until commit (brand-write-log.ts).
   */
  async saveBrand(stored: StoredBrand, identifiers: IdentifierRef[], options: SaveBrandOptions = {}): Promise<BrandSavedEvent> {
    const row = brandToRow(stored);
    const refs = uniqueIdentifiers(identifiers);
    return this.quirks.writeTransaction(this.db, async (trx) => {
      const previous = await previousBrandForSave(trx, this.quirks, row.id);
      await trx
        .insertInto('brands')
        .values(row)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            domain: eb.ref('excluded.domain'),
            status: eb.ref('excluded.status'),
            record: eb.ref('excluded.record'),
            crawled_at: eb.ref('excluded.crawled_at'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
      const marks = await refresh.readMarkSignatures(trx, markKeysToCompare(previous, stored));
      const event = decideBrandSave(previous, stored, marks, new Date());
      await this.events?.appendBrandSavedEvent(trx as Kysely<unknown>, event);
      if (refs.length > 0) {
        await trx
          .insertInto('brand_identifiers')
          .values(refs.map((ref) => ({ kind: ref.kind, value: ref.value, brand_id: row.id })))
          .onConflict((oc) => oc.columns(['kind', 'value']).doUpdateSet((eb) => ({ brand_id: eb.ref('excluded.brand_id') })))
          .execute();
      }
      // The products kept in step with the record (palette, context and logo evidence, the search index, the palette
      // render job) write in this transaction, through the hooks main/ registered (brands/brand-save-hooks.ts), before
      // the write log's lock is taken.
      const save = { previous, next: stored, identifiers: refs, options, at: event.occurredAt };
      for (const hook of this.saveHooks) await hook.onBrandSaved(trx as Kysely<unknown>, save);
      // Caches key brands by domain too: a domain moved here from another brand must be dropped from them.
      const domains = [...new Set([row.domain, ...refs.filter((ref) => ref.kind === 'domain').map((ref) => ref.value)])];
      await writes.appendBrandWrite(trx, this.quirks, row.id, domains, toMillis(event.occurredAt));
      return event;
    });
  }

  insertBrands(brands: readonly BulkBrand[]): Promise<number> {
    return bulk.insertBrands(this.db, this.quirks, brands, this.saveHooks);
  }

  async setBrandStatus(id: string, status: BrandStatus, at: Date): Promise<boolean> {
    return this.quirks.writeTransaction(this.db, async (trx) => {
      const result = await trx.updateTable('brands').set({ status, updated_at: toMillis(at) }).where('id', '=', id).executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      for (const hook of this.saveHooks) await hook.onBrandStatus?.(trx as Kysely<unknown>, id, status);
      await writes.appendBrandWrite(trx, this.quirks, id, [], Date.now());
      return true;
    });
  }

  async listIdentifiers(brandId: string): Promise<IdentifierRef[]> {
    return this.db
      .selectFrom('brand_identifiers')
      .select(['kind', 'value'])
      .where('brand_id', '=', brandId)
      .orderBy('kind')
      .orderBy('value')
      .execute();
  }

  // ---- crawl failure memory (crawl-failure-memory.ts) ----

  getCrawlFailure(domain: string): Promise<CrawlFailure | null> {
    return crawlFailures.getCrawlFailure(this.db, domain);
  }

  recordCrawlFailure(failure: Omit<CrawlFailure, 'strikes'>): Promise<CrawlFailure> {
    return crawlFailures.recordCrawlFailure(this.db, failure);
  }

  clearCrawlFailures(domains: readonly string[]): Promise<void> {
    return crawlFailures.clearCrawlFailures(this.db, domains);
  }

  pruneCrawlFailures(before: Date): Promise<number> {
    return crawlFailures.pruneCrawlFailures(this.db, before);
  }

  // ---- refresh, popularity, analysis cache, mark signatures (refresh-rows.ts, migration 0014) ----

  addBrandLookups: RefreshStore['addBrandLookups'] = (counts) => refresh.addBrandLookups(this.db, counts);
  brandLookups: RefreshStore['brandLookups'] = (brandId) => refresh.brandLookups(this.db, brandId);
  saveMarkSignatures: RefreshStore['saveMarkSignatures'] = (marks, at) => refresh.saveMarkSignatures(this.db, marks, at);
  markSignatures: RefreshStore['markSignatures'] = (keys) => refresh.readMarkSignatures(this.db, keys);
  loadAnalyses: RefreshStore['loadAnalyses'] = (domain, at) => refresh.loadAnalyses(this.db, domain, at);
  saveAnalyses: RefreshStore['saveAnalyses'] = (domain, entries, at, maxRows) => refresh.saveAnalyses(this.db, domain, entries, at, maxRows);
  analysisCacheSize: RefreshStore['analysisCacheSize'] = () => refresh.analysisCacheSize(this.db);
  dueBrands: RefreshStore['dueBrands'] = (staleBefore, limit, failedSince) => refresh.dueBrands(this.joined, staleBefore, limit, failedSince);
  refreshCounts: RefreshStore['refreshCounts'] = (staleBefore) => refresh.refreshCounts(this.joined, staleBefore);
  acquireRefreshLease: RefreshStore['acquireRefreshLease'] = (name, holder, leaseMs, now) => refresh.acquireRefreshLease(this.db, name, holder, leaseMs, now);
  releaseRefreshLease: RefreshStore['releaseRefreshLease'] = (name, holder, now) => refresh.releaseRefreshLease(this.db, name, holder, now);
  recordRefreshRun: RefreshStore['recordRefreshRun'] = (name, run) => refresh.recordRefreshRun(this.db, name, run);
  refreshState: RefreshStore['refreshState'] = (name) => refresh.readRefreshState(this.db, name);

  // ---- brand write log (brand-write-log.ts) ----

  latestBrandWrite(): Promise<number> {
    return writes.latestBrandWrite(this.db);
  }

  brandWritesAfter(after: number, limit: number): Promise<BrandWrite[]> {
    return writes.brandWritesAfter(this.db, after, limit);
  }
}
