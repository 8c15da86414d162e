/**
 * The scale-out backend: PostgreSQL through a pg Pool and Kysely's PostgresDialect.
 */
import pg from 'pg';
import type { CustomTypesConfig } from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Store } from '../store.js';
import { KyselyStore } from '../kysely/kysely-store.js';
import type { Database } from '../kysely/schema.js';

export interface PostgresStoreOptions {
  /** A `postgres://` connection URL. */
  url: string;
  /**
   * Schema that holds every table, Kysely's migration tables included; created when missing. Each connection
   * starts with `search_path` set to it, so several installs (or test runs) can share one database.
   */
  schema?: string;
  /** Pool size; pg's default (10) when unset. */
  maxConnections?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * int8 (timestamps as epoch ms, counts, sums) arrives as text by default so that large values stay exact; ours
 * are all far below 2^53, and failing loudly beats silently rounding one that is not.
 */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value out of safe integer range: ${text}`);
  return n;
}

const types: CustomTypesConfig = {
  getTypeParser: (oid, format) => (oid === pg.types.builtins.INT8 && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format)),
};

async function ensureSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create schema if not exists "${schema}"`);
  } finally {
    await client.end();
  }
}

/** Opens (without migrating) the database; `store.close()` ends the pool. Share `db` with the SQL job queue. */
export async function openPostgresStore(opts: PostgresStoreOptions): Promise<{ store: Store; db: Kysely<Database> }> {
  const { schema } = opts;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  if (schema !== undefined) await ensureSchema(opts.url, schema);
  const pool = new pg.Pool({
    connectionString: opts.url,
    types,
    // A startup parameter, so it holds on every pooled connection from its first query on.
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
    ...(opts.maxConnections === undefined ? {} : { max: opts.maxConnections }),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const store = new KyselyStore(db, { dialect: 'postgres', ...(schema === undefined ? {} : { migrationTableSchema: schema }) });
  return { store, db };
}
