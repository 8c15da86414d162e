/**
 * The crawl failure memory of the brands store (both dialects; ADR 0016): one row per domain whose last crawl
 * failed. Recording is one upsert that adds a strike, so failures recorded by two processes at once both count.
 */
import type { Kysely } from 'kysely';
import { isCrawlFailureReason } from '../../domain/crawl-failures.js';
import type { CrawlFailure } from '../brand-store.js';
import { fromMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { BrandTables as Database, CrawlFailuresTable } from './brand-tables.js';

/** Messages are for logs and operators; a site can make them long (an error echoing a URL). */
const MAX_MESSAGE_LENGTH = 1000;

function rowToFailure(row: CrawlFailuresTable): CrawlFailure {
  return {
    domain: row.domain,
    // A reason this version does not know (written by a newer one) still reads as a failure.
    reason: isCrawlFailureReason(row.reason) ? row.reason : 'crawl_error',
    message: row.message,
    strikes: toSafeInteger(row.strikes),
    failedAt: fromMillis(row.failed_at),
  };
}

export async function getCrawlFailure(db: Kysely<Database>, domain: string): Promise<CrawlFailure | null> {
  const row = await db.selectFrom('crawl_failures').selectAll().where('domain', '=', domain).executeTakeFirst();
  return row === undefined ? null : rowToFailure(row);
}

export async function recordCrawlFailure(db: Kysely<Database>, failure: Omit<CrawlFailure, 'strikes'>): Promise<CrawlFailure> {
  const row = await db
    .insertInto('crawl_failures')
    .values({ domain: failure.domain, reason: failure.reason, message: failure.message.slice(0, MAX_MESSAGE_LENGTH), strikes: 1, failed_at: toMillis(failure.failedAt) })
    .onConflict((oc) =>
      oc.column('domain').doUpdateSet((eb) => ({
        reason: eb.ref('excluded.reason'),
        message: eb.ref('excluded.message'),
        failed_at: eb.ref('excluded.failed_at'),
        strikes: eb(eb.ref('crawl_failures.strikes'), '+', 1),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return rowToFailure(row);
}

export async function clearCrawlFailures(db: Kysely<Database>, domains: readonly string[]): Promise<void> {
  if (domains.length === 0) return;
  await db.deleteFrom('crawl_failures').where('domain', 'in', [...domains]).execute();
}

export async function pruneCrawlFailures(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('crawl_failures').where('failed_at', '<', toMillis(before)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
