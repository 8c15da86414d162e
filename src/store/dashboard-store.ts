/**
 * The store port's part the dashboard's organization pages read (issue 23): kept apart from store.ts, which re-exports
 * it. Dashboard accounts own their storage now (dashboard-accounts/dashboard-account-store.ts, issue 30).
 */
import type { AccessPurchase, McpTokenRecord } from '../domain/access-purchases.js';

/** Credits charged on one UTC day, per source (the dashboard's usage chart, issue 23). */
export interface DailyUsage {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  quota: number;
  prepaid: number;
  overage: number;
}

/**
 * What the dashboard's organization pages read (issue 23; src/store/kysely/usage-by-day-rows.ts and
 * org-access-rows.ts): daily usage sums, and the organization's standing-access purchases and MCP tokens.
 */
export interface OrganizationActivityStore {
  /** Credits charged with createdAt in [from, to), summed per UTC day and source; days without a charge are absent. Oldest first. */
  usageByDay(orgId: string, from: Date, to: Date): Promise<DailyUsage[]>;
  /** The organization's standing-access purchases (ADR 0029), newest first, at most `limit`. */
  listAccessPurchases(orgId: string, limit: number): Promise<AccessPurchase[]>;
  /** The organization's MCP tokens (hashes and prefixes only), newest first. */
  listMcpTokens(orgId: string): Promise<McpTokenRecord[]>;
}
