/**
 * The one Store implementation, written against Kysely so SQLite and PostgreSQL share every query. The
 * backends (store/sqlite, store/postgres) only build the Kysely instance and pick the dialect.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { ApiKeyRecord, CreditGrant, NewOrganization, Organization, OrganizationPatch, UsageEntry, UsageNotice, UsageSummary } from '../../domain/accounts.js';
import type { BrandSavedEvent } from '../../domain/brand-changes.js';
import type { BrandStatus, BrandWrite, ClaimedBrandEvent, CrawlFailure, IdentifierRef, Store, StoredBrand, StoredPalette } from '../store.js';
import type { ReferenceData } from '../../refdata/reference-data.js';
import * as events from './brand-event-log.js';
import * as writes from './brand-write-log.js';
import * as crawlFailures from './crawl-failure-memory.js';
import * as palettes from './palette-rows.js';
import * as payments from './payment-rows.js';
import type { LedgerTransfer, PaymentClaim, PaymentQuery, PaymentRecord, PaymentTotal, StoredPaymentClaim } from '../../domain/payments.js';
import type { Palette, PaletteEvidence } from '../../domain/palette.js';
import { assertSafeInteger, toMillis, toSafeInteger } from './column-codec.js';
import { migrateToLatest } from './migrations.js';
import { KyselyReferenceData } from './reference-data-tables.js';
import {
  apiKeyToRow,
  brandToRow,
  contactsToColumn,
  creditGrantToRow,
  organizationToRow,
  rowToApiKey,
  rowToBrand,
  rowToCreditGrant,
  rowToOrganization,
  usageToRow,
} from './row-mapping.js';
import type { Database, OrganizationsTable } from './schema.js';
import { writeTransaction } from './write-transaction.js';
import type { SqlDialect } from './write-transaction.js';

export interface KyselyStoreOptions {
  dialect: SqlDialect;
  /** PostgreSQL schema that holds Kysely's migration tables (per-schema isolation); unset for the default. */
  migrationTableSchema?: string;
}

/** An aggregate as drivers return it: number (SQLite), text (PostgreSQL numeric) or bigint. */
type Aggregate = number | string | bigint | null;

/** The prepaid balance of organization `o`: grants minus prepaid charges, over all time. */
const PREPAID_BALANCE = sql<Aggregate>`(select coalesce(sum(g.credits), 0) from credit_grants g where g.org_id = o.id)
  - (select coalesce(sum(u.credits), 0) from usage_ledger u where u.org_id = o.id and u.source = 'prepaid')`;

function aggregate(value: Aggregate): number {
  return value === null ? 0 : toSafeInteger(value);
}

/** Identifiers deduplicated by (kind, value): PostgreSQL refuses to upsert the same row twice in one statement. */
function uniqueIdentifiers(identifiers: IdentifierRef[]): IdentifierRef[] {
  const byKey = new Map(identifiers.map((ref) => [`${ref.kind}\u0000${ref.value}`, ref]));
  return [...byKey.values()];
}

function organizationPatchToRow(patch: OrganizationPatch): Partial<OrganizationsTable> {
  const row: Partial<OrganizationsTable> = {};
  if (patch.name !== undefined) row.name = patch.name;
  if (patch.plan !== undefined) row.plan = patch.plan;
  if (patch.quota !== undefined) {
    assertSafeInteger(patch.quota, 'quota');
    row.quota = patch.quota;
  }
  if (patch.spendingLimitCents !== undefined) {
    if (patch.spendingLimitCents !== null) assertSafeInteger(patch.spendingLimitCents, 'spendingLimitCents');
    row.spending_limit_cents = patch.spendingLimitCents;
  }
  if (patch.rateLimitPerMinute !== undefined) {
    if (patch.rateLimitPerMinute !== null) assertSafeInteger(patch.rateLimitPerMinute, 'rateLimitPerMinute');
    row.rate_limit_per_minute = patch.rateLimitPerMinute;
  }
  if (patch.billingContacts !== undefined) row.billing_contacts = contactsToColumn(patch.billingContacts);
  return row;
}

export class KyselyStore implements Store {
  #closed = false;
  readonly #refdata: KyselyReferenceData;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly opts: KyselyStoreOptions,
  ) {
    this.#refdata = new KyselyReferenceData(db, opts.dialect);
  }

  // ---- reference data (reference-data-tables.ts) ----

  listingsByTicker: ReferenceData['listingsByTicker'] = (t) => this.#refdata.listingsByTicker(t);
  listingByTickerAndMic: ReferenceData['listingByTickerAndMic'] = (t, mic) => this.#refdata.listingByTickerAndMic(t, mic);
  listingsByIsin: ReferenceData['listingsByIsin'] = (isin) => this.#refdata.listingsByIsin(isin);
  etfsByTicker: ReferenceData['etfsByTicker'] = (t) => this.#refdata.etfsByTicker(t);
  etfByTickerAndMic: ReferenceData['etfByTickerAndMic'] = (t, mic) => this.#refdata.etfByTickerAndMic(t, mic);
  etfsByIsin: ReferenceData['etfsByIsin'] = (isin) => this.#refdata.etfsByIsin(isin);
  cryptoBySymbol: ReferenceData['cryptoBySymbol'] = (s) => this.#refdata.cryptoBySymbol(s);
  leiByIsin: ReferenceData['leiByIsin'] = (isin) => this.#refdata.leiByIsin(isin);
  domainByLei: ReferenceData['domainByLei'] = (lei) => this.#refdata.domainByLei(lei);
  upsertListings: ReferenceData['upsertListings'] = (rows) => this.#refdata.upsertListings(rows);
  upsertEtfs: ReferenceData['upsertEtfs'] = (rows) => this.#refdata.upsertEtfs(rows);
  upsertCryptoAssets: ReferenceData['upsertCryptoAssets'] = (rows) => this.#refdata.upsertCryptoAssets(rows);
  upsertIsinLeis: ReferenceData['upsertIsinLeis'] = (rows) => this.#refdata.upsertIsinLeis(rows);
  upsertLeiDomains: ReferenceData['upsertLeiDomains'] = (rows) => this.#refdata.upsertLeiDomains(rows);
  insertIntoEmpty: ReferenceData['insertIntoEmpty'] = (batch) => this.#refdata.insertIntoEmpty(batch);
  recordReferenceImport: ReferenceData['recordReferenceImport'] = (record) => this.#refdata.recordReferenceImport(record);
  referenceStatus: ReferenceData['referenceStatus'] = () => this.#refdata.referenceStatus();
  hasReferenceImports: ReferenceData['hasReferenceImports'] = () => this.#refdata.hasReferenceImports();

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
  async saveBrand(stored: StoredBrand, identifiers: IdentifierRef[]): Promise<BrandSavedEvent> {
    const row = brandToRow(stored);
    const refs = uniqueIdentifiers(identifiers);
    return writeTransaction(this.db, this.opts.dialect, async (trx) => {
      const previous = await events.previousBrandForSave(trx, this.opts.dialect, row.id);
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
      const event = await events.appendBrandSavedEvent(trx, previous, stored.brand, new Date());
      if (refs.length > 0) {
        await trx
          .insertInto('brand_identifiers')
          .values(refs.map((ref) => ({ kind: ref.kind, value: ref.value, brand_id: row.id })))
          .onConflict((oc) => oc.columns(['kind', 'value']).doUpdateSet((eb) => ({ brand_id: eb.ref('excluded.brand_id') })))
          .execute();
      }
      // Caches key brands by domain too: a domain moved here from another brand must be dropped from them.
      const domains = [...new Set([row.domain, ...refs.filter((ref) => ref.kind === 'domain').map((ref) => ref.value)])];
      await writes.appendBrandWrite(trx, this.opts.dialect, row.id, domains, toMillis(event.occurredAt));
      return event;
    });
  }

  async setBrandStatus(id: string, status: BrandStatus, at: Date): Promise<boolean> {
    return writeTransaction(this.db, this.opts.dialect, async (trx) => {
      const result = await trx.updateTable('brands').set({ status, updated_at: toMillis(at) }).where('id', '=', id).executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await writes.appendBrandWrite(trx, this.opts.dialect, id, [], Date.now());
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

  // ---- payments (payment-rows.ts, ADR 0028) ----

  claimPayment(claim: PaymentClaim): Promise<boolean> {
    return payments.claimPayment(this.db, claim);
  }

  findPaymentClaim(key: string): Promise<StoredPaymentClaim | null> {
    return payments.findPaymentClaim(this.db, key);
  }

  releasePaymentClaim(key: string): Promise<void> {
    return payments.releasePaymentClaim(this.db, key);
  }

  recordPayment(payment: PaymentRecord): Promise<boolean> {
    return payments.recordPayment(this.db, this.opts.dialect, payment);
  }

  unsettledPaymentClaims(before: Date): Promise<PaymentClaim[]> {
    return payments.unsettledPaymentClaims(this.db, before);
  }

  listPayments(query: PaymentQuery): Promise<PaymentRecord[]> {
    return payments.listPayments(this.db, query);
  }

  summarizePayments(query: Omit<PaymentQuery, 'limit'>): Promise<PaymentTotal[]> {
    return payments.summarizePayments(this.db, query);
  }

  ledgerBalance(network: string, asset: string, address: string): Promise<bigint> {
    return payments.ledgerBalance(this.db, network, asset, address);
  }

  creditLedger(network: string, asset: string, address: string, amount: bigint): Promise<bigint> {
    return payments.creditLedger(this.db, this.opts.dialect, network, asset, address, amount);
  }

  ledgerAuthorization(network: string, asset: string, authorizer: string, nonce: string): Promise<string | null> {
    return payments.ledgerAuthorization(this.db, network, asset, authorizer, nonce);
  }

  ledgerTransfer(transfer: LedgerTransfer): Promise<void> {
    return payments.ledgerTransfer(this.db, this.opts.dialect, transfer);
  }

  // ---- palettes (palette-rows.ts) ----

  savePaletteEvidence(brandId: string, evidence: PaletteEvidence, observedAt: Date): Promise<void> {
    return palettes.savePaletteEvidence(this.db, brandId, evidence, observedAt);
  }

  getStoredPalette(brandId: string): Promise<StoredPalette | null> {
    return palettes.getStoredPalette(this.db, brandId);
  }

  savePalette(brandId: string, palette: Palette, observedAt: Date, builtAt: Date): Promise<boolean> {
    return palettes.savePalette(this.db, brandId, palette, observedAt, builtAt);
  }

  // ---- brand write log (brand-write-log.ts) ----

  latestBrandWrite(): Promise<number> {
    return writes.latestBrandWrite(this.db);
  }

  brandWritesAfter(after: number, limit: number): Promise<BrandWrite[]> {
    return writes.brandWritesAfter(this.db, after, limit);
  }

  // ---- brand events (brand-event-log.ts) ----

  async subscribeBrandEvents(consumer: string, at: Date): Promise<void> {
    await events.subscribeBrandEvents(this.db, consumer, at);
  }

  async claimBrandEvent(consumer: string, leaseMs: number, now: Date = new Date()): Promise<ClaimedBrandEvent | null> {
    return events.claimBrandEvent(this.db, this.opts.dialect, consumer, leaseMs, now);
  }

  async completeBrandEvent(consumer: string, eventId: string): Promise<void> {
    await events.completeBrandEvent(this.db, consumer, eventId);
  }

  async retryBrandEvent(consumer: string, eventId: string, error: string, retryAt: Date | null): Promise<void> {
    await events.retryBrandEvent(this.db, consumer, eventId, error, retryAt);
  }

  // ---- organizations and API keys ----

  async createOrganization(org: NewOrganization): Promise<Organization> {
    const row = organizationToRow(org);
    await this.db.insertInto('organizations').values(row).execute();
    return rowToOrganization({ ...row, prepaid_credits: 0 });
  }

  private selectOrganizations() {
    return this.db.selectFrom('organizations as o').selectAll('o').select(PREPAID_BALANCE.as('prepaid_credits'));
  }

  async getOrganization(id: string): Promise<Organization | null> {
    const row = await this.selectOrganizations().where('o.id', '=', id).executeTakeFirst();
    return row === undefined ? null : rowToOrganization(row);
  }

  async listOrganizations(): Promise<Organization[]> {
    const rows = await this.selectOrganizations().orderBy('o.created_at').orderBy('o.id').execute();
    return rows.map(rowToOrganization);
  }

  async updateOrganization(id: string, patch: OrganizationPatch): Promise<Organization | null> {
    const set = organizationPatchToRow(patch);
    if (Object.keys(set).length > 0) await this.db.updateTable('organizations').set(set).where('id', '=', id).execute();
    return this.getOrganization(id);
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    await this.db.insertInto('api_keys').values(apiKeyToRow(key)).execute();
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | null> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : rowToApiKey(row);
  }

  async findApiKeyBySecretHash(secretHash: string): Promise<ApiKeyRecord | null> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('secret_hash', '=', secretHash).executeTakeFirst();
    return row === undefined ? null : rowToApiKey(row);
  }

  async listApiKeys(orgId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().where('org_id', '=', orgId).orderBy('created_at').orderBy('id').execute();
    return rows.map(rowToApiKey);
  }

  async revokeApiKey(id: string, at: Date): Promise<boolean> {
    // coalesce keeps the first revocation time; the row still counts as matched, so a second revoke returns true.
    const result = await this.db
      .updateTable('api_keys')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(toMillis(at))) }))
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  // ---- usage ledger ----

  async appendUsage(entries: readonly UsageEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(usageToRow);
    await writeTransaction(this.db, this.opts.dialect, async (trx) => {
      // Chunks keep each statement well under SQLite's bound-parameter limit.
      for (let i = 0; i < rows.length; i += 500) await trx.insertInto('usage_ledger').values(rows.slice(i, i + 500)).execute();
    });
  }

  async sumUsage(orgId: string, from: Date, to: Date): Promise<number> {
    const row = await this.db
      .selectFrom('usage_ledger')
      .select((eb) => eb.fn.sum<number | string | bigint | null>('credits').as('total'))
      .where('org_id', '=', orgId)
      .where('created_at', '>=', toMillis(from))
      .where('created_at', '<', toMillis(to))
      .executeTakeFirstOrThrow();
    return row.total === null ? 0 : toSafeInteger(row.total);
  }

  /** One statement, so PostgreSQL answers from one snapshot: the sums and the balance agree with each other. */
  async summarizeUsage(orgId: string, from: Date, to: Date): Promise<UsageSummary> {
    const start = toMillis(from);
    const end = toMillis(to);
    const inRange = (source: string) =>
      sql<Aggregate>`(select coalesce(sum(credits), 0) from usage_ledger where org_id = ${orgId} and source = ${source} and created_at >= ${start} and created_at < ${end})`;
    const { rows } = await sql<{ quota: Aggregate; prepaid: Aggregate; overage: Aggregate; balance: Aggregate }>`select
        ${inRange('quota')} as quota, ${inRange('prepaid')} as prepaid, ${inRange('overage')} as overage,
        (select coalesce(sum(credits), 0) from credit_grants where org_id = ${orgId})
          - (select coalesce(sum(credits), 0) from usage_ledger where org_id = ${orgId} and source = 'prepaid') as balance`.execute(this.db);
    const row = rows[0];
    if (!row) throw new Error('summarizeUsage: no row');
    return { quota: aggregate(row.quota), prepaid: aggregate(row.prepaid), overage: aggregate(row.overage), prepaidBalance: aggregate(row.balance) };
  }

  // ---- prepaid credits and usage warnings ----

  async addCreditGrant(grant: CreditGrant): Promise<void> {
    await this.db.insertInto('credit_grants').values(creditGrantToRow(grant)).execute();
  }

  async listCreditGrants(orgId: string): Promise<CreditGrant[]> {
    const rows = await this.db.selectFrom('credit_grants').selectAll().where('org_id', '=', orgId).orderBy('created_at').orderBy('id').execute();
    return rows.map(rowToCreditGrant);
  }

  async claimUsageNotice(notice: UsageNotice): Promise<boolean> {
    const inserted = await this.db
      .insertInto('usage_notices')
      .values({ org_id: notice.orgId, period: notice.period, threshold: notice.threshold, created_at: toMillis(notice.createdAt) })
      .onConflict((oc) => oc.columns(['org_id', 'period', 'threshold']).doNothing())
      .returning('org_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async releaseUsageNotice(orgId: string, period: string, threshold: number): Promise<void> {
    await this.db.deleteFrom('usage_notices').where('org_id', '=', orgId).where('period', '=', period).where('threshold', '=', threshold).execute();
  }

  // ---- lifecycle ----

  async migrate(): Promise<void> {
    await migrateToLatest(this.db, this.opts.migrationTableSchema === undefined ? {} : { migrationTableSchema: this.opts.migrationTableSchema });
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** Destroys the Kysely instance, which the queue may share: close the store last. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.db.destroy();
  }
}
