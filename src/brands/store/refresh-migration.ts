import type { Kysely } from 'kysely';
import type { MigrationPart } from '../../db/migrations.js';

/**
 * 0014: scheduled refresh and change detection (issue 19, ADR 0030, docs/refresh.md), the brands' part; the brand
 * events' part (`brand_events.announce`: what webhooks announce for a save) is the events' (events/store/event-migrations.ts)
 * and runs after this one, as main/product-stores.ts orders the products.
 * - `brand_popularity`: lookups per brand, flushed in batches by each API process (the search of issue 20 reads
 *   `lookups` too).
 * - `asset_marks`: the perceptual signature of every analysed file, by asset content key (change detection).
 * - `analysis_cache`: a crawl's image analyses by content key (sha256 of the downloaded bytes + analysis version),
 *   kept per domain so a re-crawl reuses them; bounded (oldest `used_at` evicted).
 * - `refresh_state`: the scheduler's leader lease and last run, one row per named schedule.
 * - `brands_status_crawled_at_idx`: held brands by crawl time, for the scheduler's due read.
 */
export const refreshMigration: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('brand_popularity')
      .addColumn('brand_id', 'text', (c) => c.primaryKey())
      .addColumn('lookups', 'bigint', (c) => c.notNull())
      .addColumn('last_lookup_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('brand_popularity_lookups_idx').on('brand_popularity').column('lookups').execute();
    await db.schema
      .createTable('asset_marks')
      .addColumn('asset_key', 'text', (c) => c.primaryKey())
      .addColumn('dhash', 'text', (c) => c.notNull())
      // width / height in thousandths (an integer on both dialects), null when the file declares no size.
      .addColumn('aspect_milli', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('analysis_cache')
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('content_key', 'text', (c) => c.notNull())
      .addColumn('analysis', 'text', (c) => c.notNull())
      .addColumn('used_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('analysis_cache_pk', ['domain', 'content_key'])
      .execute();
    await db.schema.createIndex('analysis_cache_used_at_idx').on('analysis_cache').column('used_at').execute();
    await db.schema
      .createTable('refresh_state')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text')
      .addColumn('lease_until', 'bigint')
      // JSON summary of the last tick (RefreshRun), null before the first.
      .addColumn('last_run', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // The scheduler's due-brand read (refresh-rows.ts dueBrands) ranges over held brands by crawl time.
    await db.schema.createIndex('brands_status_crawled_at_idx').ifNotExists().on('brands').columns(['status', 'crawled_at']).execute();
  },
};
