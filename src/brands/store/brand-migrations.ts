/**
 * The brands product's migrations (issue 30): the same names and bodies as when they shipped (moved out of
 * store/kysely/migrations.ts), append-only. '0001_initial' and '0014_refresh' also created other products' tables:
 * this is the brands' part of each; main/product-stores.ts lists the brands first, so their parts run first as before.
 */
import type { Kysely } from 'kysely';
import type { MigrationPart, ProductMigrations } from '../../db/migrations.js';
import { convertAssetUrlsToKeys } from './asset-key-migration.js';
import { refreshMigration } from './refresh-migration.js';
import type { BrandTables } from './brand-tables.js';

/** 0001, the brands' part: brand records and the identifiers that find them. */
const initial: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('brands')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('record', 'text', (c) => c.notNull())
      .addColumn('crawled_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('brands_domain_idx').on('brands').column('domain').execute();
    await db.schema
      .createTable('brand_identifiers')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('brand_identifiers_pk', ['kind', 'value'])
      .execute();
    await db.schema.createIndex('brand_identifiers_brand_id_idx').on('brand_identifiers').column('brand_id').execute();
  },
};

/** Asset URLs in brand records become content keys; answers render the URL (asset-key-migration.ts, ADR 0011). */
const assetKeys: MigrationPart = {
  up: async (db) => void (await convertAssetUrlsToKeys(db as Kysely<BrandTables>)),
};

/**
 * The crawl failure memory moves from each process's memory into the store, so every API process, worker and
 * `brandbase crawl` sees the same failures (ADR 0016). Read by primary key on a lookup miss; pruned by age.
 */
const crawlFailures: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('crawl_failures')
      .addColumn('domain', 'text', (c) => c.primaryKey())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('strikes', 'integer', (c) => c.notNull())
      .addColumn('failed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('crawl_failures_failed_at_idx').on('crawl_failures').column('failed_at').execute();
  },
};

/**
 * The brand write log (ADR 0017): every brand save and status change, numbered in commit order, so each API
 * process can drop the cached brands another process wrote. `seq` is taken as max + 1 under the write lock (a
 * plain bigint on both dialects: no autoincrement/identity syntax to tell apart, and no gaps from rollbacks).
 */
const brandWrites: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('brand_writes')
      .addColumn('seq', 'bigint', (c) => c.primaryKey())
      .addColumn('brand_id', 'text', (c) => c.notNull())
      .addColumn('domains', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // Pruning deletes by age.
    await db.schema.createIndex('brand_writes_created_at_idx').on('brand_writes').column('created_at').execute();
  },
};

export const brandMigrations: ProductMigrations = {
  '0001_initial': initial,
  '0004_asset_keys': assetKeys,
  '0006_crawl_failures': crawlFailures,
  '0007_brand_writes': brandWrites,
  '0014_refresh': refreshMigration,
};
