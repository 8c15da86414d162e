/** Billing periods are calendar months in UTC: [first instant of the month, first instant of the next). */
export interface BillingPeriod {
  start: Date;
  end: Date;
  /** `YYYY-MM`, a stable key for per-period state. */
  key: string;
}

export function billingPeriod(at: Date): BillingPeriod {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  const key = `${start.getUTCFullYear()}-${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
  return { start, end, key };
}
