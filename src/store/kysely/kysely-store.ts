/**
 * The one Store implementation, written against Kysely so SQLite and PostgreSQL share every query. The
 * backends (src/db/sqlite, src/db/postgres) open the kernel's Database: the handle, and the dialect quirks for what differs.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Store } from '../store.js';
import type { BrandStore, BrandWriteLog, RefreshStore } from '../../brands/brand-store.js';
import type { Database as Db } from '../../db/database.js';
import { migrateToLatest, type ProductMigrations } from '../../db/migrations.js';
import { MIGRATIONS } from './migrations.js';
import type { Database } from './schema.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

export interface KyselyStoreOptions {
  /** The brands product's store (brands/store/, built by main/product-stores.ts): the brand members delegate to it. */
  brands: BrandStore & BrandWriteLog & RefreshStore;
  migrations?: readonly ProductMigrations[];
}

export class KyselyStore implements Store {
  private readonly db: Kysely<Database>;
  private readonly quirks: DialectQuirks;
  private readonly brands: BrandStore & BrandWriteLog & RefreshStore;
  private readonly migrations: readonly ProductMigrations[];

  /**
   * `brands` answers the brand members; `migrations` are what `migrate()` runs (main/'s product list; the store's own
   * migrations alone when absent).
   */
  constructor(private readonly database: Db, options: KyselyStoreOptions) {
    this.brands = options.brands;
    this.migrations = options.migrations ?? [MIGRATIONS];
    this.db = database.tables<Database>();
    this.quirks = database.quirks;
  }

  // ---- brands: the brands product's store (brands/store/kysely-brand-store.ts), until Store goes (issue 30) ----

  getBrand: Store['getBrand'] = (id) => this.brands.getBrand(id);
  findBrandByIdentifier: Store['findBrandByIdentifier'] = (ref) => this.brands.findBrandByIdentifier(ref);
  saveBrand: Store['saveBrand'] = (stored, identifiers, options) => this.brands.saveBrand(stored, identifiers, options);
  insertBrands: Store['insertBrands'] = (brands) => this.brands.insertBrands(brands);
  setBrandStatus: Store['setBrandStatus'] = (id, status, at) => this.brands.setBrandStatus(id, status, at);
  listIdentifiers: Store['listIdentifiers'] = (brandId) => this.brands.listIdentifiers(brandId);

  // ---- crawl failure memory (brands/store/crawl-failure-memory.ts) ----

  getCrawlFailure: Store['getCrawlFailure'] = (domain) => this.brands.getCrawlFailure(domain);
  recordCrawlFailure: Store['recordCrawlFailure'] = (failure) => this.brands.recordCrawlFailure(failure);
  clearCrawlFailures: Store['clearCrawlFailures'] = (domains) => this.brands.clearCrawlFailures(domains);
  pruneCrawlFailures: Store['pruneCrawlFailures'] = (before) => this.brands.pruneCrawlFailures(before);

  // ---- refresh, popularity, analysis cache, mark signatures (brands/store/refresh-rows.ts, migration 0014) ----

  addBrandLookups: Store['addBrandLookups'] = (counts) => this.brands.addBrandLookups(counts);
  brandLookups: Store['brandLookups'] = (brandId) => this.brands.brandLookups(brandId);
  saveMarkSignatures: Store['saveMarkSignatures'] = (marks, at) => this.brands.saveMarkSignatures(marks, at);
  markSignatures: Store['markSignatures'] = (keys) => this.brands.markSignatures(keys);
  loadAnalyses: Store['loadAnalyses'] = (domain, at) => this.brands.loadAnalyses(domain, at);
  saveAnalyses: Store['saveAnalyses'] = (domain, entries, at, maxRows) => this.brands.saveAnalyses(domain, entries, at, maxRows);
  analysisCacheSize: Store['analysisCacheSize'] = () => this.brands.analysisCacheSize();
  dueBrands: Store['dueBrands'] = (staleBefore, limit, failedSince) => this.brands.dueBrands(staleBefore, limit, failedSince);
  refreshCounts: Store['refreshCounts'] = (staleBefore) => this.brands.refreshCounts(staleBefore);
  acquireRefreshLease: Store['acquireRefreshLease'] = (name, holder, leaseMs, now) => this.brands.acquireRefreshLease(name, holder, leaseMs, now);
  releaseRefreshLease: Store['releaseRefreshLease'] = (name, holder, now) => this.brands.releaseRefreshLease(name, holder, now);
  recordRefreshRun: Store['recordRefreshRun'] = (name, run) => this.brands.recordRefreshRun(name, run);
  refreshState: Store['refreshState'] = (name) => this.brands.refreshState(name);

  // ---- brand write log (brands/store/brand-write-log.ts) ----

  latestBrandWrite: Store['latestBrandWrite'] = () => this.brands.latestBrandWrite();
  brandWritesAfter: Store['brandWritesAfter'] = (after, limit) => this.brands.brandWritesAfter(after, limit);

  // ---- lifecycle ----

  /** The migrations the store was given (main/'s product list; tests migrate a store through this). */
  async migrate(): Promise<void> {
    await migrateToLatest(this.database, this.migrations);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** Closes the Database, which the queue may share: close the store last. Idempotent. */
  async close(): Promise<void> {
    await this.database.close();
  }
}
