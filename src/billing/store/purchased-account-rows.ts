/**
 * The accounts part of a standing-access purchase (payments/store/purchased-account-writer.ts): the organization,
 * its API key and the credit grant, written in the purchase's transaction. Billing's tables, so billing's storage
 * writes them; main/product-stores.ts hands this writer (KyselyBillingStore.purchasedAccounts) to the access store.
 */
import type { Kysely } from 'kysely';
import type { ApiKeyRecord, CreditGrant, NewOrganization } from '../../domain/accounts.js';
import { apiKeyToRow, creditGrantToRow, NEXT_CREDIT_GRANT_SEQ, organizationToRow } from './billing-row-mapping.js';
import type { BillingTables } from './billing-tables.js';

/** A PurchasedAccountWriter (payments/store/purchased-account-writer.ts; not imported: payments' storage is its own). */
export const purchasedAccountRows = {
  async createAccount(trx: Kysely<unknown>, org: NewOrganization, apiKey: ApiKeyRecord): Promise<void> {
    const db = trx as Kysely<BillingTables>;
    await db.insertInto('organizations').values(organizationToRow(org)).execute();
    await db.insertInto('api_keys').values(apiKeyToRow(apiKey)).execute();
  },
  async grantCredits(trx: Kysely<unknown>, grant: CreditGrant): Promise<void> {
    await (trx as Kysely<BillingTables>).insertInto('credit_grants').values({ ...creditGrantToRow(grant), seq: NEXT_CREDIT_GRANT_SEQ }).execute();
  },
};
