/**
 * The migration runner. It knows no product: it runs the migrations it is given. Each product contributes
 * `Record<string, MigrationPart>`; parts of one name (say '0001_initial', which created the tables of several
 * products) are merged into one migration, run in the order the products are given, and the names run in Kysely's
 * order (by name). Names are forever: a database records the names it ran, and every later start must be given
 * each of them again. Migrations are append-only: never edit one that has shipped; add the next one.
 */
import { Migrator } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { Database } from './database.js';
import type { DialectQuirks } from './dialect-quirks.js';

/** A product's part of one named migration; `quirks` for what differs between SQLite and PostgreSQL. */
export interface MigrationPart {
  up(db: Kysely<unknown>, quirks: DialectQuirks): Promise<void>;
}

/** One product's migrations by name. */
export type ProductMigrations = Readonly<Record<string, MigrationPart>>;

/** Kysely migrations from the products' parts: each name's parts run in the order of `products`. */
export function mergeMigrations(products: readonly ProductMigrations[], quirks: DialectQuirks): Record<string, Migration> {
  const parts = new Map<string, MigrationPart[]>();
  for (const product of products) {
    for (const [name, part] of Object.entries(product)) parts.set(name, [...(parts.get(name) ?? []), part]);
  }
  const merged: Record<string, Migration> = {};
  for (const [name, list] of parts) {
    merged[name] = {
      async up(db) {
        for (const part of list) await part.up(db, quirks);
      },
    };
  }
  return merged;
}

/** Applies the pending migrations of `products`; running it again is a no-op. Throws the first migration error. */
export async function migrateToLatest(database: Database, products: readonly ProductMigrations[]): Promise<void> {
  const migrations = mergeMigrations(products, database.quirks);
  const schema = database.quirks.migrationTableSchema;
  const migrator = new Migrator({
    db: database.tables<unknown>(),
    provider: { getMigrations: async () => migrations },
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  let { error, results } = await migrator.migrateToLatest();
  // Kysely looks for its migration tables by introspecting every schema's tables; on PostgreSQL a table that another
  // schema's owner drops between the catalog read and its cast fails that look-up with undefined_table (42P01) before
  // any migration ran; a whole schema dropped meanwhile fails it with invalid_schema_name (3F000), and a column
  // another schema's migration drops or renames meanwhile fails its serial-sequence read with undefined_column
  // (42703; seen with another file's schema migrating beside this one in a shuffled run), and a schema dropped while
  // the catalog read joins its namespace fails it with internal_error (XX000) "cache lookup failed for namespace"
  // (seen with two test runs sharing one database). Migrating is
  // idempotent, so such a failure is tried again, after a growing pause: a neighbour creating and dropping tables in
  // a burst (pg-boss makes one per queue) can fail several look-ups in a row. About 10 s in all at most.
  for (let tries = 0; tries < 8 && error !== undefined && results === undefined && isNeighbourCatalogChange(error); tries++) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 50 * 2 ** tries)));
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed`, { cause: error });
  }
}

function isNeighbourCatalogChange(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === 'XX000') return typeof message === 'string' && message.startsWith('cache lookup failed for');
  return code === '42P01' || code === '3F000' || code === '42703';
}
