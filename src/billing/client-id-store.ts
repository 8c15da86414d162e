/**
 * Client IDs' storage port (billing's; ADR 0033). Implemented for now by the store facade (store/kysely/client-id-rows.ts)
 * until the client-ID rows move into billing/store/.
 */
import type { ClientIdRecord, ClientIdUsageEntry } from '../domain/client-id-record.js';
import type { ClientIdProduct } from '../domain/client-ids.js';

/** Client IDs (migration 0017, ADR 0033): publishable credentials for search and the logo CDN. */
export interface ClientIdStore {
  createClientId(record: ClientIdRecord): Promise<void>;
  getClientId(id: string): Promise<ClientIdRecord | null>;
  listClientIds(orgId: string): Promise<ClientIdRecord[]>;
  /** False when the ID does not exist; revoking twice keeps the first revocation time. */
  revokeClientId(id: string, at: Date): Promise<boolean>;
  /** Replaces the allowed referrer hosts and the require-a-referrer flag; false when the ID does not exist. */
  setClientIdReferrers(id: string, referrers: readonly string[], requireReferrer: boolean): Promise<boolean>;
  /** Adds request counts (grouped by the caller) in one transaction. */
  addClientIdUsage(entries: readonly ClientIdUsageEntry[]): Promise<void>;
  /** Requests counted for the organization's client IDs, one product, one billing period (`YYYY-MM`). */
  clientIdUsage(orgId: string, product: ClientIdProduct, period: string): Promise<number>;
}
