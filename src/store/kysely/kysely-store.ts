/**
 * The one Store implementation, written against Kysely so SQLite and PostgreSQL share every query. The
 * backends (src/db/sqlite, src/db/postgres) open the kernel's Database: the handle, and the dialect quirks for what differs.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { ApiKeyRecord, CreditGrant, NewOrganization, Organization, OrganizationPatch, UsageEntry, UsageNotice, UsageSummary } from '../../domain/accounts.js';
import type { BrandSavedEvent } from '../../domain/brand-changes.js';
import type { BrandStatus, BrandWrite, CrawlFailure, IdentifierRef, SaveBrandOptions, Store, StoredBrand } from '../store.js';
import type { ReferenceData } from '../../refdata/reference-data.js';
import * as events from './brand-event-log.js';
import { decideBrandSave, markKeysToCompare } from '../../brands/brand-save-decision.js';
import * as writes from './brand-write-log.js';
import * as crawlFailures from './crawl-failure-memory.js';
import * as refresh from './refresh-rows.js';
import * as payments from './payment-rows.js';
import * as access from './access-rows.js';
import type { AccessDelivery, AccessPurchase, AccessPurchaseCompletion, AgentPayer, CardCharge, CardChargeResult, CardTokenRecord, McpTokenRecord } from '../../domain/access-purchases.js';
import * as webhookDeliveries from './webhook-delivery-rows.js';
import * as clientIds from './client-id-rows.js';
import * as search from './search-rows.js';
import * as dashboardAccounts from './dashboard-account-rows.js';
import type { DashboardAccountStore } from '../store.js';
import * as creditLeases from './credit-lease-rows.js';
import type { CreditLeaseDebit } from '../credit-lease-store.js';
import * as bulk from './bulk-brand-rows.js';
import type { BulkBrand } from './bulk-brand-rows.js';
import * as orgAccess from './org-access-rows.js';
import { usageByDay } from './usage-by-day-rows.js';
import type { DailyUsage } from '../store.js';
import type { ClientIdRecord, ClientIdUsageEntry } from '../../domain/client-id-record.js';
import type { ClientIdProduct } from '../../domain/client-ids.js';
import type { SearchCandidateQuery, SearchNameRow } from '../store.js';
import * as webhookAdmin from './webhook-admin-rows.js';
import type { DisabledWebhook, WebhookAttemptRecord, WebhookDeliveryToSend, WebhookFanOut } from '../store.js';
import type { JobQueue } from '../../jobs/queue.js';
import { SqlJobQueue } from '../../jobs/sql/sql-job-queue.js';
import type { LedgerTransfer, PaymentClaim, PaymentQuery, PaymentRecord, PaymentTotal, StoredPaymentClaim } from '../../domain/payments.js';
import { assertSafeInteger, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { Database as Db } from '../../db/database.js';
import { migrateToLatest, type ProductMigrations } from '../../db/migrations.js';
import { MIGRATIONS } from './migrations.js';
import { KyselyReferenceData } from './reference-data-tables.js';
import {
  apiKeyToRow,
  brandToRow,
  contactsToColumn,
  creditGrantToRow,
  NEXT_CREDIT_GRANT_SEQ,
  organizationToRow,
  rowToApiKey,
  rowToBrand,
  rowToCreditGrant,
  rowToOrganization,
  usageToRow,
} from './row-mapping.js';
import type { Database, OrganizationsTable } from './schema.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import type { BrandSaveHook } from '../../brands/brand-save-hooks.js';

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

export interface KyselyStoreOptions {
  /** Kept by reference: main/ may register a hook that needs services built later (product-stores.ts). */
  saveHooks?: readonly BrandSaveHook[];
  migrations?: readonly ProductMigrations[];
  /** Webhook deliveries are enqueued here, in the transaction that inserts them; the queue on `database` by default. */
  jobs?: Pick<JobQueue, 'enqueue' | 'makeDue' | 'complete' | 'fail'>;
}

export class KyselyStore implements Store {
  private readonly db: Kysely<Database>;
  private readonly quirks: DialectQuirks;
  readonly #refdata: KyselyReferenceData;
  private readonly saveHooks: readonly BrandSaveHook[];
  private readonly migrations: readonly ProductMigrations[];
  private readonly jobs: Pick<JobQueue, 'enqueue' | 'makeDue' | 'complete' | 'fail'>;

  /**
   * `saveHooks` run in every brand save's transaction, in order; `migrations` are what `migrate()` runs (main/'s
   * product list; the store's own migrations alone when absent).
   */
  constructor(private readonly database: Db, options: KyselyStoreOptions = {}) {
    this.saveHooks = options.saveHooks ?? [];
    this.migrations = options.migrations ?? [MIGRATIONS];
    this.jobs = options.jobs ?? new SqlJobQueue(database);
    this.db = database.tables<Database>();
    this.quirks = database.quirks;
    this.#refdata = new KyselyReferenceData(this.db, this.quirks);
  }

  // ---- dashboard accounts (dashboard-account-rows.ts, migration 0021) ----

  createDashboardUser: DashboardAccountStore['createDashboardUser'] = (user) => dashboardAccounts.createDashboardUser(this.db, user);
  findDashboardUserByEmail: DashboardAccountStore['findDashboardUserByEmail'] = (email) => dashboardAccounts.findDashboardUserByEmail(this.db, email);
  getDashboardUser: DashboardAccountStore['getDashboardUser'] = (id) => dashboardAccounts.getDashboardUser(this.db, id);
  deleteDashboardUser: DashboardAccountStore['deleteDashboardUser'] = (id) => dashboardAccounts.deleteDashboardUser(this.db, this.quirks, id);
  setDashboardMembership: DashboardAccountStore['setDashboardMembership'] = (m) => dashboardAccounts.setDashboardMembership(this.db, m);
  removeDashboardMembership: DashboardAccountStore['removeDashboardMembership'] = (u, o) => dashboardAccounts.removeDashboardMembership(this.db, u, o);
  dashboardMembership: DashboardAccountStore['dashboardMembership'] = (u, o) => dashboardAccounts.dashboardMembership(this.db, u, o);
  dashboardMemberships: DashboardAccountStore['dashboardMemberships'] = (u) => dashboardAccounts.dashboardMemberships(this.db, u);
  listDashboardMembers: DashboardAccountStore['listDashboardMembers'] = (o) => dashboardAccounts.listDashboardMembers(this.db, o);
  insertSignInToken: DashboardAccountStore['insertSignInToken'] = (t) => dashboardAccounts.insertSignInToken(this.db, t);
  findSignInTokenByLinkHash: DashboardAccountStore['findSignInTokenByLinkHash'] = (h) => dashboardAccounts.findSignInTokenByLinkHash(this.db, h);
  latestSignInToken: DashboardAccountStore['latestSignInToken'] = (u, now) => dashboardAccounts.latestSignInToken(this.db, u, now);
  useSignInToken: DashboardAccountStore['useSignInToken'] = (id, at) => dashboardAccounts.useSignInToken(this.db, id, at);
  addFailedSignInCode: DashboardAccountStore['addFailedSignInCode'] = (id) => dashboardAccounts.addFailedSignInCode(this.db, this.quirks, id);
  countSignInRequests: DashboardAccountStore['countSignInRequests'] = (keys, at, since) => dashboardAccounts.countSignInRequests(this.db, keys, at, since);
  forgetSignInRequests: DashboardAccountStore['forgetSignInRequests'] = (keys) => dashboardAccounts.forgetSignInRequests(this.db, keys);
  insertDashboardSession: DashboardAccountStore['insertDashboardSession'] = (s) => dashboardAccounts.insertDashboardSession(this.db, s);
  getDashboardSession: DashboardAccountStore['getDashboardSession'] = (id) => dashboardAccounts.getDashboardSession(this.db, id);
  touchDashboardSession: DashboardAccountStore['touchDashboardSession'] = (id, at) => dashboardAccounts.touchDashboardSession(this.db, id, at);
  listDashboardSessions: DashboardAccountStore['listDashboardSessions'] = (u, now) => dashboardAccounts.listDashboardSessions(this.db, u, now);
  revokeDashboardSessions: DashboardAccountStore['revokeDashboardSessions'] = (u, at, scope) => dashboardAccounts.revokeDashboardSessions(this.db, u, at, scope);
  dashboardSecret: DashboardAccountStore['dashboardSecret'] = (name, candidate, at) => dashboardAccounts.dashboardSecret(this.db, name, candidate, at);

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
   * `brand.saved` event is diffed against the record read under the write lock and written by the events' save hook
   * in this transaction, so any failure of the transaction takes the event with it. The brand write log entry comes last:
   * on PostgreSQL it holds a lock that serializes all saves until commit (brand-write-log.ts).
   */
  async saveBrand(stored: StoredBrand, identifiers: IdentifierRef[], options: SaveBrandOptions = {}): Promise<BrandSavedEvent> {
    const row = brandToRow(stored);
    const refs = uniqueIdentifiers(identifiers);
    return this.quirks.writeTransaction(this.db, async (trx) => {
      const previous = await events.previousBrandForSave(trx, this.quirks, row.id);
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
      if (refs.length > 0) {
        await trx
          .insertInto('brand_identifiers')
          .values(refs.map((ref) => ({ kind: ref.kind, value: ref.value, brand_id: row.id })))
          .onConflict((oc) => oc.columns(['kind', 'value']).doUpdateSet((eb) => ({ brand_id: eb.ref('excluded.brand_id') })))
          .execute();
      }
      // The products kept in step with the record (palette, context and logo evidence, the search index, the palette
      // render job, the brand.saved event and its deliveries) write in this transaction, through the hooks main/ registered (brands/brand-save-hooks.ts), before
      // the write log's lock is taken.
      const save = { previous, next: stored, identifiers: refs, options, at: event.occurredAt, event };
      for (const hook of this.saveHooks) await hook.onBrandSaved(trx as Kysely<unknown>, save);
      // Caches key brands by domain too: a domain moved here from another brand must be dropped from them.
      const domains = [...new Set([row.domain, ...refs.filter((ref) => ref.kind === 'domain').map((ref) => ref.value)])];
      await writes.appendBrandWrite(trx, this.quirks, row.id, domains, toMillis(event.occurredAt));
      return event;
    });
  }

  insertBrands(brands: readonly BulkBrand[]): Promise<number> {
    return bulk.insertBrands(this.db, this.quirks, brands);
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

  // ---- client IDs (client-id-rows.ts, ADR 0033) ----

  createClientId(record: ClientIdRecord): Promise<void> {
    return clientIds.createClientId(this.db, record);
  }

  getClientId(id: string): Promise<ClientIdRecord | null> {
    return clientIds.getClientId(this.db, id);
  }

  listClientIds(orgId: string): Promise<ClientIdRecord[]> {
    return clientIds.listClientIds(this.db, orgId);
  }

  revokeClientId(id: string, at: Date): Promise<boolean> {
    return clientIds.revokeClientId(this.db, id, at);
  }

  setClientIdReferrers(id: string, referrers: readonly string[], requireReferrer: boolean): Promise<boolean> {
    return clientIds.setClientIdReferrers(this.db, id, referrers, requireReferrer);
  }

  addClientIdUsage(entries: readonly ClientIdUsageEntry[]): Promise<void> {
    return clientIds.addClientIdUsage(this.db, this.quirks, entries);
  }

  clientIdUsage(orgId: string, product: ClientIdProduct, period: string): Promise<number> {
    return clientIds.clientIdUsage(this.db, orgId, product, period);
  }

  // ---- the dashboard's organization pages (usage-by-day-rows.ts, org-access-rows.ts; issue 23) ----

  usageByDay(orgId: string, from: Date, to: Date): Promise<DailyUsage[]> {
    return usageByDay(this.db, orgId, from, to);
  }

  listAccessPurchases(orgId: string, limit: number): Promise<AccessPurchase[]> {
    return orgAccess.listAccessPurchases(this.db, orgId, limit);
  }

  listMcpTokens(orgId: string): Promise<McpTokenRecord[]> {
    return orgAccess.listMcpTokens(this.db, orgId);
  }

  // ---- search by name (search-rows.ts, ADR 0033) ----

  searchNameCandidates(query: SearchCandidateQuery): Promise<SearchNameRow[]> {
    return search.searchNameCandidates(this.db, this.quirks, query);
  }

  async similarNameCandidates(norm: string, limit: number): Promise<SearchNameRow[]> {
    return search.similarNameCandidates(this.db, this.quirks, norm, limit);
  }

  searchLookups(brandIds: readonly string[]): Promise<Map<string, number>> {
    return search.brandLookups(this.db, brandIds);
  }

  syncSearchReferenceNames(force = false): Promise<boolean> {
    return search.syncReferenceNames(this.db, (fn) => this.quirks.writeTransaction(this.db, fn), force);
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

  // ---- standing access (access-rows.ts, ADR 0029) ----

  completeAccessPurchase(completion: AccessPurchaseCompletion): Promise<AccessPurchase | null> {
    return access.completeAccessPurchase(this.db, this.quirks, completion);
  }

  findAccessPurchase(paymentKey: string): Promise<AccessPurchase | null> {
    return access.findAccessPurchase(this.db, paymentKey);
  }

  takeAccessDelivery(paymentKey: string, at: Date, paidSince: Date, accept: (sealed: string | null) => boolean): Promise<AccessDelivery | null> {
    return access.takeAccessDelivery(this.db, this.quirks, paymentKey, at, paidSince, accept);
  }

  wipeAccessSeals(before: Date): Promise<number> {
    return access.wipeAccessSeals(this.db, before);
  }

  agentOfApiKey(apiKeyId: string): Promise<AgentPayer | null> {
    return access.agentOfApiKey(this.db, apiKeyId);
  }

  findMcpTokenByHash(tokenHash: string): Promise<McpTokenRecord | null> {
    return access.findMcpTokenByHash(this.db, tokenHash);
  }

  issueCardToken(token: CardTokenRecord): Promise<void> {
    return access.issueCardToken(this.db, token);
  }

  chargeCardToken(charge: CardCharge): Promise<CardChargeResult> {
    return access.chargeCardToken(this.db, this.quirks, charge);
  }

  cardTokenCharge(tokenHash: string): Promise<string | null> {
    return access.cardTokenCharge(this.db, tokenHash);
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
    return payments.recordPayment(this.db, this.quirks, payment);
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
    return payments.creditLedger(this.db, this.quirks, network, asset, address, amount);
  }

  ledgerAuthorization(network: string, asset: string, authorizer: string, nonce: string): Promise<string | null> {
    return payments.ledgerAuthorization(this.db, network, asset, authorizer, nonce);
  }

  ledgerTransfer(transfer: LedgerTransfer): Promise<void> {
    return payments.ledgerTransfer(this.db, this.quirks, transfer);
  }

  // ---- webhook outbox (webhook-delivery-rows.ts, ADR 0031) ----

  fanOutWebhookEvent(fanOut: WebhookFanOut): Promise<number> {
    return webhookDeliveries.fanOutWebhookEvent(this.db, this.quirks, this.jobs, fanOut);
  }

  webhookDeliveryToSend(deliveryId: string): Promise<WebhookDeliveryToSend | null> {
    return webhookDeliveries.webhookDeliveryToSend(this.db, deliveryId);
  }

  recordWebhookAttempt(record: WebhookAttemptRecord): Promise<boolean> {
    return webhookDeliveries.recordWebhookAttempt(this.db, this.quirks, this.jobs, record);
  }

  postponeWebhookDelivery(deliveryId: string, until: Date): Promise<void> {
    return webhookDeliveries.postponeWebhookDelivery(this.db, deliveryId, until);
  }

  disableFailingWebhooks(failingSince: Date, now: Date): Promise<DisabledWebhook[]> {
    return webhookDeliveries.disableFailingWebhooks(this.db, failingSince, now);
  }

  claimAbandonNotice(webhookId: string, now: Date, minIntervalMs: number): Promise<boolean> {
    return webhookDeliveries.claimAbandonNotice(this.db, webhookId, now, minIntervalMs);
  }

  // ---- webhook management (webhook-admin-rows.ts; GraphQL and `brandbase webhooks`) ----

  insertWebhook: Store['insertWebhook'] = (webhook) => webhookAdmin.insertWebhook(this.db, webhook);
  getWebhook: Store['getWebhook'] = (orgId, id) => webhookAdmin.getWebhook(this.db, orgId, id);
  listWebhooks: Store['listWebhooks'] = (orgId, after, limit) => webhookAdmin.listWebhooks(this.db, orgId, after, limit);
  updateWebhook: Store['updateWebhook'] = (orgId, id, patch, at) => webhookAdmin.updateWebhook(this.db, this.jobs, orgId, id, patch, at);
  rotateWebhookSecret: Store['rotateWebhookSecret'] = (orgId, id, rotation, at) => webhookAdmin.rotateWebhookSecret(this.db, orgId, id, rotation, at);
  deleteWebhook: Store['deleteWebhook'] = (orgId, id) => webhookAdmin.deleteWebhook(this.db, this.quirks, orgId, id);
  addWebhookSubscriptions: Store['addWebhookSubscriptions'] = (orgId, webhookId, domains, at) =>
    webhookAdmin.addWebhookSubscriptions(this.db, this.quirks, orgId, webhookId, domains, at);
  removeWebhookSubscriptions: Store['removeWebhookSubscriptions'] = (orgId, webhookId, domains) =>
    webhookAdmin.removeWebhookSubscriptions(this.db, this.quirks, orgId, webhookId, domains);
  listWebhookSubscriptions: Store['listWebhookSubscriptions'] = (orgId, webhookId, after, limit) =>
    webhookAdmin.listWebhookSubscriptions(this.db, orgId, webhookId, after, limit);
  insertWebhookDelivery: Store['insertWebhookDelivery'] = (delivery) => webhookAdmin.insertWebhookDelivery(this.db, this.quirks, this.jobs, delivery);
  listWebhookDeliveries: Store['listWebhookDeliveries'] = (orgId, webhookId, query) => webhookAdmin.listWebhookDeliveries(this.db, orgId, webhookId, query);
  listWebhookAttempts: Store['listWebhookAttempts'] = (deliveryIds) => webhookAdmin.listWebhookAttempts(this.db, deliveryIds);

  // ---- refresh, popularity, analysis cache, mark signatures (refresh-rows.ts, migration 0014) ----

  addBrandLookups: Store['addBrandLookups'] = (counts) => refresh.addBrandLookups(this.db, counts);
  brandLookups: Store['brandLookups'] = (brandId) => refresh.brandLookups(this.db, brandId);
  saveMarkSignatures: Store['saveMarkSignatures'] = (marks, at) => refresh.saveMarkSignatures(this.db, marks, at);
  markSignatures: Store['markSignatures'] = (keys) => refresh.readMarkSignatures(this.db, keys);
  loadAnalyses: Store['loadAnalyses'] = (domain, at) => refresh.loadAnalyses(this.db, domain, at);
  saveAnalyses: Store['saveAnalyses'] = (domain, entries, at, maxRows) => refresh.saveAnalyses(this.db, domain, entries, at, maxRows);
  analysisCacheSize: Store['analysisCacheSize'] = () => refresh.analysisCacheSize(this.db);
  dueBrands: Store['dueBrands'] = (staleBefore, limit, failedSince) => refresh.dueBrands(this.db, staleBefore, limit, failedSince);
  refreshCounts: Store['refreshCounts'] = (staleBefore) => refresh.refreshCounts(this.db, staleBefore);
  acquireRefreshLease: Store['acquireRefreshLease'] = (name, holder, leaseMs, now) => refresh.acquireRefreshLease(this.db, name, holder, leaseMs, now);
  releaseRefreshLease: Store['releaseRefreshLease'] = (name, holder, now) => refresh.releaseRefreshLease(this.db, name, holder, now);
  recordRefreshRun: Store['recordRefreshRun'] = (name, run) => refresh.recordRefreshRun(this.db, name, run);
  refreshState: Store['refreshState'] = (name) => refresh.readRefreshState(this.db, name);


  // ---- brand write log (brand-write-log.ts) ----

  latestBrandWrite(): Promise<number> {
    return writes.latestBrandWrite(this.db);
  }

  brandWritesAfter(after: number, limit: number): Promise<BrandWrite[]> {
    return writes.brandWritesAfter(this.db, after, limit);
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

  async appendUsage(entries: readonly UsageEntry[], debits: readonly CreditLeaseDebit[] = []): Promise<void> {
    if (entries.length === 0 && debits.length === 0) return;
    const rows = entries.map(usageToRow);
    await this.quirks.writeTransaction(this.db, async (trx) => {
      // Chunks keep each statement well under SQLite's bound-parameter limit.
      for (let i = 0; i < rows.length; i += 500) await trx.insertInto('usage_ledger').values(rows.slice(i, i + 500)).execute();
      await creditLeases.debitCreditLeases(trx, debits);
    });
  }

  // ---- credit leases (credit-lease-rows.ts, ADR 0040) ----

  acquireCreditLease: Store['acquireCreditLease'] = (grant) => creditLeases.acquireCreditLease(this.db, this.quirks, grant);
  renewCreditLease: Store['renewCreditLease'] = (leaseId, now, expiresAt) => creditLeases.renewCreditLease(this.db, leaseId, now, expiresAt);
  releaseCreditLease: Store['releaseCreditLease'] = (leaseId, keep) => creditLeases.releaseCreditLease(this.db, leaseId, keep);
  leasedCredits: Store['leasedCredits'] = (orgId, period, now) => creditLeases.leasedCredits(this.db, orgId, period, now);

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
    await this.db.insertInto('credit_grants').values({ ...creditGrantToRow(grant), seq: NEXT_CREDIT_GRANT_SEQ }).execute();
  }

  async listCreditGrants(orgId: string): Promise<CreditGrant[]> {
    const rows = await this.db.selectFrom('credit_grants').selectAll().where('org_id', '=', orgId).orderBy('created_at').orderBy('seq').orderBy('id').execute();
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
