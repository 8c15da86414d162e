/**
 * The search index's migrations (issue 30): the same names and bodies as when they shipped, append-only.
 *
 * 0017_client_ids_and_search (issue 20, ADR 0033) created the client IDs' tables (their part:
 * src/billing/store/client-id-migration.ts, billing's, run first) and the search index:
 * - `search_names`: one row per (domain, source) — a held brand's name and the reference data's company and crypto
 *   names — normalized (lower case, no accents, punctuation as spaces) in `norm`. SQLite indexes `norm` with an FTS5
 *   table using the trigram tokenizer, kept in step by triggers; PostgreSQL with a pg_trgm GiST index (its `<->`
 *   nearest-neighbour order finds typos without a threshold). The integer `id` is the FTS5 rowid: an explicit
 *   INTEGER PRIMARY KEY, so VACUUM never renumbers it under the external-content index.
 * Its backfill reads the brands and the reference data, whose tables exist by then (0001, 0008).
 */
import { sql, type Kysely } from 'kysely';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import type { MigrationPart, ProductMigrations } from '../../db/migrations.js';
import { backfillSearchNames, SEARCH_NAMES_INDEX } from './search-rows.js';

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

/** 0017's search part: runs after the client IDs' part of the same name (main/product-stores.ts). */
const searchNames: MigrationPart = {
  async up(db: Kysely<unknown>, quirks: DialectQuirks): Promise<void> {
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

export const searchMigrations: ProductMigrations = {
  '0017_client_ids_and_search': searchNames,
};
