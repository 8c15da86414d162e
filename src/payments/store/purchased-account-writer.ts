/**
 * The billing rows a standing-access purchase writes inside its own transaction (access-rows.ts): billing owns the
 * organizations, API keys and credit grants tables, so billing's storage supplies this writer and main/ hands it to
 * the access store; standing access never writes another product's tables itself.
 */
import type { ApiKeyRecord, CreditGrant, NewOrganization } from '../../domain/accounts.js';
import type { DbTransaction } from '../../db/database.js';

export interface PurchasedAccountWriter {
  /** Inserts the purchase's new organization and its API key, in `trx`. */
  createAccount(trx: DbTransaction<unknown>, org: NewOrganization, apiKey: ApiKeyRecord): Promise<void>;
  /** Inserts the purchase's credit grant, in `trx` (numbered after every grant written before it). */
  grantCredits(trx: DbTransaction<unknown>, grant: CreditGrant): Promise<void>;
}
