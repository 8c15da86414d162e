/**
 * The store port's part the dashboard's organization pages read (issue 23): kept apart from store.ts, which re-exports
 * it. Dashboard accounts own their storage now (dashboard-accounts/dashboard-account-store.ts, issue 30).
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
 * What the dashboard's organization pages read (issue 23; src/store/kysely/usage-by-day-rows.ts): daily usage sums.
 * Standing-access purchases and MCP tokens are payments' (payments/access-store.ts).
 */
export interface OrganizationActivityStore {
  /** Credits charged with createdAt in [from, to), summed per UTC day and source; days without a charge are absent. Oldest first. */
  usageByDay(orgId: string, from: Date, to: Date): Promise<DailyUsage[]>;
}
