/**
 * 0002_billing on a database that already holds 0001 data: organizations keep their plan and quota and get the
 * defaults (no own spending or rate limit, no contacts, no prepaid credits); old ledger entries count as quota.
 */
import { sql, type Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import { PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';
import { PG_URL, tempPostgres, tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { always, needsPostgres, type Gated } from '../helpers/optional.js';

async function migrateTo0001(database: Database): Promise<void> {
  // Every product's part of 0001 (the brands' tables are theirs now, issue 30).
  await migrateToLatest(database, PRODUCT_MIGRATIONS.map((product) => Object.fromEntries(Object.entries(product).filter(([name]) => name === '0001_initial'))));
}

// The PostgreSQL case is always collected (skipped without a server) so the end-of-run report counts it.
const cases: { name: string; open: () => Promise<TempDatabase>; gate: Gated }[] = [
  { name: 'SQLite', open: tempSqlite, gate: always },
  { name: 'PostgreSQL', open: () => tempPostgres(PG_URL ?? ''), gate: needsPostgres },
];

for (const { name, open, gate } of cases) gate.describe(`migration 0002_billing on ${name}`, () => {
  let temp: TempDatabase | undefined;
  afterEach(async () => {
    await temp?.cleanup();
    temp = undefined;
  });

  it('keeps 0001 data and gives it the billing defaults', async () => {
    temp = await open();
    const db = temp.db as unknown as Kysely<unknown>;
    await migrateTo0001(temp.database);
    await sql`insert into organizations (id, name, plan, quota, created_at) values ('org_old', 'Old Co', 'paid', 50, 1000)`.execute(db);
    await sql`insert into usage_ledger (id, org_id, key_id, credits, reason, created_at) values ('use_old', 'org_old', null, 7, 'brand.lookup', 2000)`.execute(db);
    await migrateToLatest(temp.database, PRODUCT_MIGRATIONS);
    expect(await temp.stores.billing.getOrganization('org_old')).toEqual({
      id: 'org_old',
      name: 'Old Co',
      plan: 'paid',
      quota: 50,
      prepaidCredits: 0,
      spendingLimitCents: null,
      billingContacts: [],
      rateLimitPerMinute: null,
      createdAt: new Date(1000),
    });
    expect(await temp.stores.billing.summarizeUsage('org_old', new Date(0), new Date(10_000))).toEqual({ quota: 7, prepaid: 0, overage: 0, prepaidBalance: 0 });
    await migrateToLatest(temp.database, PRODUCT_MIGRATIONS);
    expect(await temp.stores.billing.sumUsage('org_old', new Date(0), new Date(10_000))).toBe(7);
  });
});
