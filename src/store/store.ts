/**
 * The persistence port. Features and the HTTP layer depend on this file only; `store/kysely` implements it over the
 * kernel's Database (src/db/: SQLite or PostgreSQL), and one contract suite (test/store/store.contract.ts) proves both.
 * Every method is atomic on its own: a method that writes several rows writes all or none.
 */
// Billing's port moved to billing/billing-store.ts (issue 30); re-exported while webhook code still imports it from here.
export type { AccountStore } from '../billing/billing-store.js';

export interface Store {
  /** Applies pending migrations. Idempotent. */
  migrate(): Promise<void>;
  /** Cheap round trip used by readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
