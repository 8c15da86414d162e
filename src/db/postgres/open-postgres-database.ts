/**
 * The scale-out backend: PostgreSQL through a pg Pool and Kysely's PostgresDialect.
 */
import pg from 'pg';
import type { CustomTypesConfig } from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { createDatabase, type Database } from '../database.js';
import { postgresQuirks } from './postgres-quirks.js';

export interface PostgresDatabaseOptions {
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

/** Opens (without migrating) the database; `close()` ends the pool. Share it between the store and the SQL job queue. */
export async function openPostgresDatabase(opts: PostgresDatabaseOptions): Promise<Database> {
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
  const quirks = postgresQuirks(schema === undefined ? {} : { schema });
  return createDatabase(new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }), quirks);
}
