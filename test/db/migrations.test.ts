/**
 * The kernel's migration runner on a real SQLite database: it runs the products' parts it is given, parts of one
 * name together in product order, each name once, with the database's quirks.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest, type MigrationPart, type ProductMigrations } from '../../src/db/migrations.js';
import { sqliteQuirks } from '../../src/db/sqlite/sqlite-quirks.js';
import { openSqliteDatabase } from '../../src/db/sqlite/open-sqlite-database.js';

describe('migrateToLatest (src/db/migrations.ts)', () => {
  let dir: string;
  let database: Database;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'brandbase-db-'));
    database = await openSqliteDatabase({ file: path.join(dir, 'kernel.sqlite') });
  });
  afterEach(async () => {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  const ran: string[] = [];
  const part = (label: string, table?: string): MigrationPart => ({
    async up(db, quirks) {
      expect(quirks).toBe(sqliteQuirks);
      ran.push(label);
      if (table !== undefined) await sql.raw(`create table ${table} (id ${quirks.serialPrimaryKey})`).execute(db);
    },
  });

  it('merges the parts of one name in product order, runs names in order, and each name once', async () => {
    ran.length = 0;
    const brands: ProductMigrations = { '0001_initial': part('brands 0001', 'brands'), '0003_more': part('brands 0003') };
    const billing: ProductMigrations = { '0001_initial': part('billing 0001', 'organizations'), '0002_billing': part('billing 0002') };
    await migrateToLatest(database, [brands, billing]);
    expect(ran).toEqual(['brands 0001', 'billing 0001', 'billing 0002', 'brands 0003']);
    await migrateToLatest(database, [brands, billing]);
    expect(ran).toHaveLength(4);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.tables<unknown>());
    expect(rows.map((r) => r.name)).toEqual(['0001_initial', '0002_billing', '0003_more']);
  });

  it('runs a new name later, and names the migration that failed', async () => {
    ran.length = 0;
    const first: ProductMigrations = { '0001_initial': part('0001', 'brands') };
    await migrateToLatest(database, [first]);
    await migrateToLatest(database, [first, { '0002_next': part('0002') }]);
    expect(ran).toEqual(['0001', '0002']);
    const broken: ProductMigrations = { '0003_broken': { up: async (db) => void (await sql.raw('create table brands (id integer)').execute(db)) } };
    await expect(migrateToLatest(database, [first, { '0002_next': part('0002') }, broken])).rejects.toThrow('migration 0003_broken failed');
  });
});
