/**
 * The one Store implementation, written against Kysely so SQLite and PostgreSQL share every query. The
 * backends (src/db/sqlite, src/db/postgres) open the kernel's Database: the handle, and the dialect quirks for what differs.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { ApiKeyRecord, CreditGrant, NewOrganization, Organization, OrganizationPatch, UsageEntry, UsageNotice, UsageSummary } from '../../domain/accounts.js';
import type { Store } from '../store.js';
import * as webhookDeliveries from './webhook-delivery-rows.js';
import * as clientIds from './client-id-rows.js';
import * as creditLeases from './credit-lease-rows.js';
import type { CreditLeaseDebit } from '../credit-lease-store.js';
import { usageByDay } from './usage-by-day-rows.js';
import type { DailyUsage } from '../store.js';
import type { ClientIdRecord, ClientIdUsageEntry } from '../../domain/client-id-record.js';
import type { ClientIdProduct } from '../../domain/client-ids.js';
import * as webhookAdmin from './webhook-admin-rows.js';
import type { DisabledWebhook, WebhookAttemptRecord, WebhookDeliveryToSend, WebhookFanOut } from '../store.js';
import type { JobQueue } from '../../jobs/queue.js';
import { SqlJobQueue } from '../../jobs/sql/sql-job-queue.js';
import { assertSafeInteger, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { Database as Db } from '../../db/database.js';
import { migrateToLatest, type ProductMigrations } from '../../db/migrations.js';
import { MIGRATIONS } from './migrations.js';
import {
  apiKeyToRow,
  contactsToColumn,
  creditGrantToRow,
  NEXT_CREDIT_GRANT_SEQ,
  organizationToRow,
  rowToApiKey,
  rowToCreditGrant,
  rowToOrganization,
  usageToRow,
} from './row-mapping.js';
import type { Database, OrganizationsTable } from './schema.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

/** An aggregate as drivers return it: number (SQLite), text (PostgreSQL numeric) or bigint. */
type Aggregate = number | string | bigint | null;

/** The prepaid balance of organization `o`: grants minus prepaid charges, over all time. */
const PREPAID_BALANCE = sql<Aggregate>`(select coalesce(sum(g.credits), 0) from credit_grants g where g.org_id = o.id)
  - (select coalesce(sum(u.credits), 0) from usage_ledger u where u.org_id = o.id and u.source = 'prepaid')`;

function aggregate(value: Aggregate): number {
  return value === null ? 0 : toSafeInteger(value);
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
  migrations?: readonly ProductMigrations[];
  /** Webhook deliveries are enqueued here, in the transaction that inserts them; the queue on `database` by default. */
  jobs?: Pick<JobQueue, 'enqueue' | 'makeDue' | 'complete' | 'fail'>;
}

export class KyselyStore implements Store {
  private readonly db: Kysely<Database>;
  private readonly quirks: DialectQuirks;
  private readonly migrations: readonly ProductMigrations[];
  private readonly jobs: Pick<JobQueue, 'enqueue' | 'makeDue' | 'complete' | 'fail'>;

  /**
   * `migrations` are what `migrate()` runs (main/'s product list; the store's own migrations alone when absent).
   */
  constructor(private readonly database: Db, options: KyselyStoreOptions) {
    this.migrations = options.migrations ?? [MIGRATIONS];
    this.jobs = options.jobs ?? new SqlJobQueue(database);
    this.db = database.tables<Database>();
    this.quirks = database.quirks;
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

  // ---- the dashboard's organization pages (usage-by-day-rows.ts; issue 23) ----

  usageByDay(orgId: string, from: Date, to: Date): Promise<DailyUsage[]> {
    return usageByDay(this.db, orgId, from, to);
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

  /** The kernel's round trip (Database.ping); main/ pings through Backends, which needs no Store. */
  ping(): Promise<void> {
    return this.database.ping();
  }

  /** Closes the Database, which the queue may share: close the store last. Idempotent. */
  async close(): Promise<void> {
    await this.database.close();
  }
}
