/**
 * 0017: client IDs and search by name (issue 20, ADR 0033).
 *
 * - `client_ids`: publishable credentials (`cid_…`, stored plain: they are not secrets) with their allowed referrer
 *   hosts; `client_id_usage`: requests per (client ID, product, month), written in groups by the allowance meter.
 * - `search_names`: one row per (domain, source) — a held brand's name and the reference data's company and crypto
 *   names — normalized (lower case, no accents, punctuation as spaces) in `norm`. SQLite indexes `norm` with an FTS5
 *   table using the trigram tokenizer, kept in step by triggers; PostgreSQL with a pg_trgm GiST index (its `<->`
 *   nearest-neighbour order finds typos without a threshold). The integer `id` is the FTS5 rowid: an explicit
 *   INTEGER PRIMARY KEY, so VACUUM never renumbers it under the external-content index.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import type { MigrationPart } from '../../db/migrations.js';
import { backfillSearchNames, SEARCH_NAMES_INDEX } from './search-rows.js';

async function createClientIdTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_ids')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    // JSON array of hosts (`example.com`, `*.example.com`); empty = any referrer.
    .addColumn('allowed_referrers', 'text', (c) => c.notNull().defaultTo('[]'))
    // 1: requests without Referer/Origin are refused (by default server-side fetches are allowed).
    .addColumn('require_referrer', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('client_ids_org_id_idx').on('client_ids').column('org_id').execute();
  await db.schema
    .createTable('client_id_usage')
    .addColumn('client_id', 'text', (c) => c.notNull().references('client_ids.id'))
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    // Billing period `YYYY-MM` (billing/billing-period.ts).
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_id_usage_pk', ['client_id', 'product', 'period'])
    .execute();
  await db.schema.createIndex('client_id_usage_org_idx').on('client_id_usage').columns(['org_id', 'product', 'period']).execute();
}

const COLUMNS = `domain text not null,
  source text not null,
  name text not null,
  norm text not null,
  label text not null,
  brand_id text,
  claimed integer not null default 0,
  icon text,
  quality_score double precision,
  size_rank integer not null default 9,
  unique (domain, source)`;

export const clientIdsAndSearchMigration: MigrationPart = {
  async up(db: Kysely<unknown>, quirks: DialectQuirks): Promise<void> {
    await createClientIdTables(db);
    await sql.raw(`create table search_names (id ${quirks.serialPrimaryKey}, ${COLUMNS})`).execute(db);
    await quirks.createTrigramIndex(db, SEARCH_NAMES_INDEX);
    // Prefix ranges (autocomplete) read these in index order, a few rows per prefix: byte order on both dialects
    // (SQLite's BINARY; `collate "C"` on PostgreSQL), so a range [x, x + U+FFFF) is one index range.
    const binary = quirks.binaryOrder;
    await sql.raw(`create index search_names_norm_idx on search_names (${binary('norm')})`).execute(db);
    await sql.raw(`create index search_names_label_idx on search_names (${binary('label')})`).execute(db);
    // The same ranges among listed companies, biggest first: one short index range per size class.
    await sql.raw(`create index search_names_rank_norm_idx on search_names (size_rank, ${binary('norm')})`).execute(db);
    await sql.raw('create index search_names_brand_idx on search_names (brand_id)').execute(db);
    await db.schema
      .createTable('search_state')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
    await backfillSearchNames(db);
  },
};
