/**
 * `brandbase orgs set-plan|set-quota|add-credits|set-spending-limit|set-contacts|set-rate-limit|usage`, run
 * through the real binary (`node bin/brandbase.js`) against a SQLite data dir. `--json` prints one object.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingPeriod } from '../../src/billing/billing-period.js';
import { newId } from '../../src/domain/ids.js';
import { openSqliteStore } from '../store/open-store.js';
import { runCli, runJson } from '../helpers/brandbase-process.js';

// Every command starts a process that loads the whole program (a few seconds on a busy machine).
const SLOW = { timeout: 120_000 };

let dir: string;
let env: Record<string, string>;
let orgId: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-billing-cli-'));
  env = { BRANDBASE_DATA_DIR: dir, BRANDBASE_LOG_LEVEL: 'warn', BRANDBASE_OVERAGE_SPENDING_LIMIT_CENTS: '5000' };
  const org = await runJson(['orgs', 'create', '--name', 'Acme Inc', '--plan', 'free', '--quota', '10'], env);
  orgId = String(org.id);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('brandbase orgs (billing)', () => {
  it('set-plan and set-quota', SLOW, async () => {
    expect(await runJson(['orgs', 'set-plan', orgId, 'paid'], env)).toMatchObject({ id: orgId, plan: 'paid', quota: 10 });
    expect(await runJson(['orgs', 'set-quota', orgId, '100'], env)).toMatchObject({ id: orgId, plan: 'paid', quota: 100 });
    const bad = await runCli(['orgs', 'set-plan', orgId, 'gold'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('free, paid');
    const missing = await runCli(['orgs', 'set-quota', 'org_missing', '5'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No organization with id org_missing');
  });

  it('add-credits: plain credits, or 20 per dollar with --usd', SLOW, async () => {
    const bought = await runJson(['orgs', 'add-credits', orgId, '--usd', '25'], env);
    expect(bought).toMatchObject({ id: expect.stringMatching(/^crg_/), orgId, credits: 500, amountCents: 2500, prepaidCredits: 500 });
    expect(await runJson(['orgs', 'add-credits', orgId, '40'], env)).toMatchObject({ credits: 40, amountCents: null, prepaidCredits: 540 });
    expect(await runJson(['orgs', 'add-credits', orgId, '30', '--usd', '1.50'], env)).toMatchObject({ credits: 30, amountCents: 150, prepaidCredits: 570 });
    const mismatch = await runCli(['orgs', 'add-credits', orgId, '10', '--usd', '1'], env);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain('buys 20 credits');
    expect((await runCli(['orgs', 'add-credits', orgId, '--usd', '0.01'], env)).code).toBe(2);
  });

  it('set-spending-limit (USD, stored as cents), set-contacts, set-rate-limit', SLOW, async () => {
    expect(await runJson(['orgs', 'set-spending-limit', orgId, '12.50'], env)).toMatchObject({ spendingLimitCents: 1250 });
    expect(await runJson(['orgs', 'set-spending-limit', orgId, 'default'], env)).toMatchObject({ spendingLimitCents: null });
    expect(await runJson(['orgs', 'set-contacts', orgId, 'billing@acme.test', 'cfo@acme.test', 'Billing@acme.test'], env)).toMatchObject({
      billingContacts: ['billing@acme.test', 'cfo@acme.test'],
    });
    const invalid = await runCli(['orgs', 'set-contacts', orgId, 'not-an-email'], env);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('Not an email address');
    expect(await runJson(['orgs', 'set-rate-limit', orgId, '600'], env)).toMatchObject({ rateLimitPerMinute: 600 });
    expect((await runCli(['orgs', 'set-rate-limit', orgId, '0'], env)).code).toBe(2);
    expect(await runJson(['orgs', 'set-rate-limit', orgId, 'default'], env)).toMatchObject({ rateLimitPerMinute: null, billingContacts: ['billing@acme.test', 'cfo@acme.test'] });
  });

  it('usage: used, quota, prepaid balance, overage credits and cents this period', SLOW, async () => {
    const org = await runJson(['orgs', 'create', '--name', 'Usage Co', '--plan', 'paid', '--quota', '5'], env);
    const id = String(org.id);
    await runJson(['orgs', 'add-credits', id, '20'], env);
    const { close, stores } = await openSqliteStore({ file: path.join(dir, 'brandbase.sqlite') });
    try {
      const now = new Date();
      const lastPeriod = new Date(billingPeriod(now).start.getTime() - 1);
      const entry = (credits: number, source: 'quota' | 'prepaid' | 'overage', createdAt = now) => ({ id: newId('use'), orgId: id, keyId: null, credits, reason: 'brand.lookup', source, createdAt });
      await stores.billing.appendUsage([entry(5, 'quota'), entry(3, 'prepaid'), entry(4, 'prepaid', lastPeriod), entry(7, 'overage'), entry(9, 'overage', lastPeriod)]);
    } finally {
      await close();
    }
    const report = await runJson(['orgs', 'usage', id], env);
    expect(report).toMatchObject({
      orgId: id,
      plan: 'paid',
      period: { key: billingPeriod(new Date()).key },
      used: 15,
      quota: 5,
      quotaUsed: 5,
      prepaidUsed: 3,
      prepaidBalance: 13,
      overageCredits: 7,
      overageCents: 70,
      spendingLimitCents: 5000,
      overageAllowed: true,
    });
  });
});
