/**
 * Daily usage sums for KyselyBillingStore (both dialects; issue 23): the dashboard's usage chart reads credits charged per
 * UTC day and source from the append-only ledger. Days are whole multiples of 86,400,000 ms since the epoch, so
 * integer division of `created_at` (milliseconds) names the UTC day on SQLite and PostgreSQL alike.
 */
import { sql, type Kysely } from 'kysely';
import type { UsageSource } from '../../domain/accounts.js';
import type { DailyUsage } from '../organization-activity-store.js';
import { toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { BillingTables } from './billing-tables.js';

const DAY_MS = 86_400_000;

interface DaySourceRow {
  day: number | string | bigint;
  source: UsageSource;
  credits: number | string | bigint | null;
}

export async function usageByDay(db: Kysely<BillingTables>, orgId: string, from: Date, to: Date): Promise<DailyUsage[]> {
  const rows = await sql<DaySourceRow>`select created_at / ${sql.lit(DAY_MS)} as day, source, sum(credits) as credits
    from usage_ledger where org_id = ${orgId} and created_at >= ${toMillis(from)} and created_at < ${toMillis(to)}
    group by created_at / ${sql.lit(DAY_MS)}, source order by day`.execute(db);
  const byDay = new Map<number, DailyUsage>();
  for (const row of rows.rows) {
    const day = toSafeInteger(row.day);
    let entry = byDay.get(day);
    if (!entry) byDay.set(day, (entry = { day: new Date(day * DAY_MS).toISOString().slice(0, 10), quota: 0, prepaid: 0, overage: 0 }));
    entry[row.source] += row.credits === null ? 0 : toSafeInteger(row.credits);
  }
  return [...byDay.values()];
}
