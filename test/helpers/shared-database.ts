/**
 * One Brandbase database that several processes share, on either backend, for cross-process tests: the settings
 * that point a service or a `brandbase` process at it (a data folder; on PostgreSQL also a URL whose connections
 * use a fresh schema), the spec a store peer process opens it with, and a way to run SQL on it from outside.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgresStore } from '../store/open-store.js';
import type { BackendSpec } from '../store/store-peer-backend.js';

export interface SharedDatabase {
  backend: 'sqlite' | 'postgres';
  /** BRANDBASE_DATA_DIR, and BRANDBASE_DATABASE_URL on PostgreSQL. */
  env: Record<string, string>;
  dataDir: string;
  peerSpec: BackendSpec;
  /** Runs SQL on the database from another connection (another OS process on SQLite, never this thread). */
  exec(statement: string): Promise<void>;
  cleanup(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function sharedSqlite(): Promise<SharedDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-shared-'));
  const file = path.join(dataDir, 'brandbase.sqlite');
  return {
    backend: 'sqlite',
    env: { BRANDBASE_DATA_DIR: dataDir },
    dataDir,
    peerSpec: { kind: 'sqlite', file },
    // A second better-sqlite3 handle in this thread would block it while it waits for the write lock, and with
    // it the service under test that holds the lock: the statement runs in a child process instead.
    exec: (statement) =>
      new Promise((resolve, reject) => {
        const script = "const D = require('better-sqlite3'); const d = new D(process.argv[1]); d.pragma('busy_timeout = 10000'); d.exec(process.argv[2]); d.close();";
        execFile(process.execPath, ['-e', script, file, statement], { cwd: ROOT }, (error) => (error ? reject(error) : resolve()));
      }),
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/** A fresh schema on `url`; every connection of the URL handed to Brandbase starts with it as search_path. */
export async function sharedPostgres(url: string): Promise<SharedDatabase> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string): Promise<void> => {
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create schema "${schema}"`);
  // Migrated here, with Kysely's migration tables placed in the schema explicitly: a Brandbase process given only
  // the search_path would look for them in every schema, and find another test's while it creates its own.
  const { migrate, close } = await openPostgresStore({ url, schema });
  await migrate();
  await close();
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-shared-'));
  return {
    backend: 'postgres',
    env: { BRANDBASE_DATA_DIR: dataDir, BRANDBASE_DATABASE_URL: withSchema.toString() },
    dataDir,
    peerSpec: { kind: 'postgres', url, schema },
    exec: admin,
    async cleanup() {
      await admin(`drop schema if exists "${schema}" cascade`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
