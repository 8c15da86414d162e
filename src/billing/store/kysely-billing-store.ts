/**
 * The billing product's storage over the database kernel (both dialects; issue 30, moved out of
 * store/kysely/kysely-store.ts): organizations and API keys, the usage ledger, prepaid credits and usage warnings,
 * credit leases (credit-lease-rows.ts), client IDs (client-id-rows.ts) and daily usage (usage-by-day-rows.ts). One
 * instance per Database, built by main/product-stores.ts, which also hands `purchasedAccounts` to the access store.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import { assertSafeInteger, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { ApiKeyRecord, CreditGrant, NewOrganization, Organization, OrganizationPatch, UsageEntry, UsageNotice, UsageSummary } from '../../domain/accounts.js';
import type { ClientIdRecord, ClientIdUsageEntry } from '../../domain/client-id-record.js';
import type { ClientIdProduct } from '../../domain/client-ids.js';
import type { BillingStore, DailyUsage } from '../billing-store.js';
import type { CreditLeaseDebit } from '../credit-lease-store.js';
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
} from './billing-row-mapping.js';
import type { BillingTables, OrganizationsTable } from './billing-tables.js';
import * as clientIds from './client-id-rows.js';
import * as creditLeases from './credit-lease-rows.js';
import { purchasedAccountRows } from './purchased-account-rows.js';
import { usageByDay } from './usage-by-day-rows.js';

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

export class KyselyBillingStore implements BillingStore {
  /**
   * What a standing-access purchase writes of billing's rows in its own transaction (a PurchasedAccountWriter,
   * payments/store/purchased-account-writer.ts): billing's storage writes billing's tables, main/ hands it over.
   */
  readonly purchasedAccounts = purchasedAccountRows;
  private readonly db: Kysely<BillingTables>;
  private readonly quirks: DialectQuirks;

  constructor(database: Database) {
    this.db = database.tables<BillingTables>();
    this.quirks = database.quirks;
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

  // ---- credit leases (credit-lease-rows.ts, ADR 0040) ----

  acquireCreditLease: BillingStore['acquireCreditLease'] = (grant) => creditLeases.acquireCreditLease(this.db, this.quirks, grant);
  renewCreditLease: BillingStore['renewCreditLease'] = (leaseId, now, expiresAt) => creditLeases.renewCreditLease(this.db, leaseId, now, expiresAt);
  releaseCreditLease: BillingStore['releaseCreditLease'] = (leaseId, keep) => creditLeases.releaseCreditLease(this.db, leaseId, keep);
  leasedCredits: BillingStore['leasedCredits'] = (orgId, period, now) => creditLeases.leasedCredits(this.db, orgId, period, now);

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
}
