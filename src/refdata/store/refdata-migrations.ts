/**
 * The reference data's migrations (issue 30): the same names and bodies as when they shipped, append-only.
 *
 * 0008_reference_data: listings, ETFs, crypto assets, ISIN→LEI and LEI→website, each keyed for the
 * exact lookups the identifier resolver makes (by normalized ticker, by ticker + MIC, by ISIN, by symbol), plus
 * the import log. Schema builder only, so it runs unchanged on SQLite and PostgreSQL.
 *
 * 0027_known_brands (issue 34): the brand knowledge set (`ref_brands`, one row per brand of name-suggestion-index
 * with a usable website), keyed by the source's id and read by registrable domain; names, countries and country sites
 * as JSON text. Schema builder only as well.
 */
import type { CreateTableBuilder, Kysely } from 'kysely';
import type { MigrationPart, ProductMigrations } from '../../db/migrations.js';

function provenance(table: CreateTableBuilder<string, string>): CreateTableBuilder<string, string> {
  return table
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_date', 'text', (c) => c.notNull())
    .addColumn('field_sources', 'text', (c) => c.notNull());
}

async function createListings(db: Kysely<unknown>): Promise<void> {
  await provenance(
    db.schema
      .createTable('ref_listings')
      .addColumn('mic', 'text', (c) => c.notNull())
      .addColumn('ticker_norm', 'text', (c) => c.notNull())
      .addColumn('ticker', 'text', (c) => c.notNull())
      .addColumn('share_class', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('isin', 'text')
      .addColumn('country', 'text')
      .addColumn('domain', 'text')
      .addColumn('is_primary', 'integer', (c) => c.notNull())
      .addColumn('rank', 'integer', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('ref_listings_pk', ['ticker_norm', 'mic'])
    .execute();
  await db.schema.createIndex('ref_listings_isin_idx').on('ref_listings').column('isin').execute();
}

async function createEtfs(db: Kysely<unknown>): Promise<void> {
  await provenance(
    db.schema
      .createTable('ref_etfs')
      .addColumn('mic', 'text', (c) => c.notNull())
      .addColumn('ticker_norm', 'text', (c) => c.notNull())
      .addColumn('ticker', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('isin', 'text')
      .addColumn('issuer', 'text')
      .addColumn('issuer_domain', 'text'),
  )
    .addPrimaryKeyConstraint('ref_etfs_pk', ['ticker_norm', 'mic'])
    .execute();
  await db.schema.createIndex('ref_etfs_isin_idx').on('ref_etfs').column('isin').execute();
}

async function createOthers(db: Kysely<unknown>): Promise<void> {
  await provenance(
    db.schema
      .createTable('ref_crypto_assets')
      .addColumn('symbol', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('domain', 'text')
      .addColumn('rank', 'integer', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('ref_crypto_assets_pk', ['symbol', 'name'])
    .execute();
  await provenance(
    db.schema.createTable('ref_isin_leis').addColumn('isin', 'text', (c) => c.primaryKey()).addColumn('lei', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('ref_isin_leis_lei_idx').on('ref_isin_leis').column('lei').execute();
  await provenance(
    db.schema
      .createTable('ref_lei_domains')
      .addColumn('lei', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text')
      .addColumn('domain', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createTable('ref_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('source_date', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .addColumn('report', 'text', (c) => c.notNull())
    .execute();
}

const referenceData: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createListings(db);
    await createEtfs(db);
    await createOthers(db);
  },
};

const knownBrands: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('ref_brands')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('match_names', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('country_sites', 'text', (c) => c.notNull())
      .addColumn('countries', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('wikidata', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('source_date', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ref_brands_domain_idx').on('ref_brands').column('domain').execute();
  },
};

export const refdataMigrations: ProductMigrations = {
  '0008_reference_data': referenceData,
  '0027_known_brands': knownBrands,
};
