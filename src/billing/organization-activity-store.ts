/**
 * The part of billing's storage port (billing-store.ts) the dashboard's organization pages read (issue 23): daily sums
 * of the usage ledger. Dashboard accounts own their storage (dashboard-accounts/dashboard-account-store.ts, issue 30).
 */

/** Credits charged on one UTC day, per source (the dashboard's usage chart, issue 23). */
export interface DailyUsage {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  quota: number;
  prepaid: number;
  overage: number;
}

/**
 * What the dashboard's organization pages read (issue 23; billing/store/usage-by-day-rows.ts): daily usage sums.
 * Standing-access purchases and MCP tokens are payments' (payments/access-store.ts).
 */
export interface OrganizationActivityStore {
  /** Credits charged with createdAt in [from, to), summed per UTC day and source; days without a charge are absent. Oldest first. */
  usageByDay(orgId: string, from: Date, to: Date): Promise<DailyUsage[]>;
}
