/**
 * The charged use cases and the billing rule (section 7) against a real store: every test file that calls
 * `useCaseSuite` runs the same tests on its dialect (SQLite always; PostgreSQL when BRANDBASE_TEST_PG_URL is
 * set). Brands are seeded in the store; a domain that is not held is "crawled" by a crawl that finds no site,
 * so a live lookup of it answers not found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/assets/asset-urls.js';
import { Accounts } from '../../src/billing/accounts.js';
import { Authenticator } from '../../src/billing/authenticator.js';
import { Billing } from '../../src/billing/billing.js';
import { UsageMeter } from '../../src/billing/usage-meter.js';
import { noMailer } from '../../src/billing/mailer.js';
import { BatchLookup } from '../../src/brands/batch-lookup.js';
import { BrandCache } from '../../src/brands/brand-cache.js';
import { BrandIndexer } from '../../src/brands/brand-indexer.js';
import { BrandLookup } from '../../src/brands/brand-lookup.js';
import { CrawlScheduler } from '../../src/brands/crawl-scheduler.js';
import { parseIdentifier, type Readings } from '../../src/domain/identifiers.js';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { silentLogger } from '../../src/platform/logger.js';
import type { BrandStore } from '../../src/brands/brand-store.js';
import { ApiKeyPayer } from '../../src/usecases/api-key-payer.js';
import { batchBrands } from '../../src/usecases/batch-brands.js';
import { brandIndustries } from '../../src/usecases/brand-industries.js';
import { ChargeRule } from '../../src/usecases/charge-rule.js';
import { FREE_PAYER } from '../../src/usecases/free-payer.js';
import { lookupBrand } from '../../src/usecases/lookup-brand.js';
import { prefetchBrand } from '../../src/usecases/prefetch-brand.js';
import type { UseCaseDeps } from '../../src/usecases/use-case-deps.js';
import { sampleBrand } from '../store/sample-brand.js';
import { rejection } from '../helpers/api-errors.js';
import type { TempDatabase } from '../store/temp-database.js';

const OPERATOR = 'operator.test';

function readings(identifier: string): Readings {
  const parsed = parseIdentifier(identifier);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.readings;
}

interface Stack {
  deps: UseCaseDeps;
  billing: Billing;
  meter: UsageMeter;
  accounts: Accounts;
  queue: SqlJobQueue;
  authenticator: Authenticator;
}

function stackOn(db: TempDatabase, store: BrandStore = db.stores.brands, overrides: Partial<UseCaseDeps> = {}): Stack {
  const meter = new UsageMeter(db.stores.billing, () => new Date());
  const billing = new Billing({ store: db.stores.billing, meter, mailer: noMailer, logger: silentLogger(), defaults: { spendingLimitCents: 0, rateLimitPerMinute: 0 } });
  const cache = new BrandCache(60_000, new AssetUrls('http://brandbase.test/assets/'));
  const indexer = new BrandIndexer(store, () => Promise.resolve({ ok: false, reason: 'unreachable', message: 'no site in this test' }), silentLogger());
  const lookup = new BrandLookup(store, cache, indexer);
  const queue = new SqlJobQueue(db.database);
  const scheduler = new CrawlScheduler(queue, 1000);
  const deps: UseCaseDeps = {
    lookup,
    batch: new BatchLookup(lookup, scheduler),
    scheduler,
    rule: new ChargeRule(OPERATOR),
    batchItemTimeoutMs: 10_000,
    batchResponseMaxBytes: 10 * 1024 * 1024,
    ...overrides,
  };
  return { deps, billing, meter, queue, accounts: new Accounts(db.stores.billing, { freeQuota: 100, paidQuota: 1000 }), authenticator: new Authenticator(db.stores.billing, 0) };
}

export function useCaseSuite(name: string, open: () => Promise<TempDatabase>): void {
  describe(`use cases and the charge rule: ${name}`, () => {
    let db: TempDatabase;
    let stack: Stack;

    /** An API-key payer of a new paid organization with `quota` credits and no overage. */
    async function payer(quota = 10): Promise<{ payer: ApiKeyPayer; orgId: string }> {
      const org = await stack.accounts.createOrganization({ name: 'Org', plan: 'paid', quota });
      const key = await stack.accounts.createApiKey({ orgId: org.id });
      const principal = await stack.authenticator.authenticate(key.key);
      return { payer: await ApiKeyPayer.admit(stack.billing, principal, 'lookup'), orgId: org.id };
    }

    const used = (orgId: string) => stack.meter.exactUsed(orgId);

    beforeAll(async () => {
      db = await open();
      await db.migrate();
      const now = new Date();
      for (const [domain, brandName] of [
        ['acme.com', 'Acme'],
        ['globex.com', 'Globex'],
        [OPERATOR, 'Operator'],
      ] as const) {
        await db.stores.brands.saveBrand({ brand: sampleBrand(domain, { name: brandName }), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: domain }]);
      }
      stack = stackOn(db);
    });
    afterAll(async () => {
      await stack.meter.close();
      await db.cleanup();
    });

    describe('lookupBrand', () => {
      it('charges one credit for a returned brand and reports the usage after it', async () => {
        const { payer: p, orgId } = await payer();
        const answer = await lookupBrand(stack.deps, p, { readings: readings('acme.com'), cachedOnly: false, allowNsfw: undefined, palette: false });
        expect(answer.value.status).toBe('found');
        expect(answer.cost).toBe(1);
        expect(answer.usage).toEqual({ quota: 10, approximateUsed: 1 });
        expect(await used(orgId)).toBe(1);
      });

      it('charges nothing for not found (a failed live crawl) and for not indexed (cachedOnly)', async () => {
        const { payer: p, orgId } = await payer();
        const missing = await lookupBrand(stack.deps, p, { readings: readings('nowhere.test'), cachedOnly: false, allowNsfw: undefined, palette: false });
        expect(missing.value.status).toBe('not_found');
        const cached = await lookupBrand(stack.deps, p, { readings: readings('elsewhere.test'), cachedOnly: true, allowNsfw: undefined, palette: false });
        expect(cached.value.status).toBe('not_indexed');
        expect([missing.cost, cached.cost]).toEqual([0, 0]);
        expect(await used(orgId)).toBe(0);
      });

      it('charges nothing for an NSFW brand refused by allowNsfw=false', async () => {
        const now = new Date();
        await db.stores.brands.saveBrand({ brand: sampleBrand('adult.test', { isNsfw: true }), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'adult.test' }]);
        const { payer: p, orgId } = await payer();
        const answer = await lookupBrand(stack.deps, p, { readings: readings('adult.test'), cachedOnly: false, allowNsfw: false, palette: false });
        expect(answer.value.status).toBe('not_found');
        expect(await used(orgId)).toBe(0);
      });

      it("the operator's own domain is free, even with the quota used up; its brand reached by brand ID is free too", async () => {
        const { payer: p, orgId } = await payer(1);
        await lookupBrand(stack.deps, p, { readings: readings('acme.com'), cachedOnly: false, allowNsfw: undefined, palette: false });
        expect((await rejection(lookupBrand(stack.deps, p, { readings: readings('globex.com'), cachedOnly: false, allowNsfw: undefined, palette: false }))).code).toBe('quota_exceeded');
        const byDomain = await lookupBrand(stack.deps, p, { readings: readings(OPERATOR), cachedOnly: false, allowNsfw: undefined, palette: false });
        expect(byDomain.value.status).toBe('found');
        expect(byDomain.cost).toBe(0);
        expect(byDomain.usage).toEqual({ quota: 1, approximateUsed: 1 });
        const { payer: fresh, orgId: freshOrg } = await payer(5);
        const byId = await lookupBrand(stack.deps, fresh, { readings: readings(sampleBrand(OPERATOR).id), cachedOnly: false, allowNsfw: undefined, palette: false });
        expect(byId.value.status).toBe('found');
        expect(byId.cost).toBe(0);
        expect(await used(orgId)).toBe(1);
        expect(await used(freshOrg)).toBe(0);
      });

      it('a failing lookup releases the hold: the error costs nothing and the credit stays available', async () => {
        // The same store with its brand reads failing, as when the database drops the connection mid-lookup.
        const down = () => Promise.reject(new Error('connection terminated'));
        const broken = stackOn(db, new Proxy(db.stores.brands, {
          get(target, prop) {
            if (prop === 'getBrand' || prop === 'findBrandByIdentifier') return down;
            const value: unknown = Reflect.get(target, prop, target);
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          },
        }));
        const { payer: p, orgId } = await payer(1);
        await expect(lookupBrand(broken.deps, p, { readings: readings('acme.com'), cachedOnly: false, allowNsfw: undefined, palette: false })).rejects.toThrow();
        expect(await used(orgId)).toBe(0);
        const again = await lookupBrand(stack.deps, p, { readings: readings('acme.com'), cachedOnly: false, allowNsfw: undefined, palette: false });
        expect(again.cost).toBe(1);
        await broken.meter.close();
      });

      it('splices a null palette into the answer when asked, without changing the record', async () => {
        const answer = await lookupBrand(stack.deps, FREE_PAYER, { readings: readings('acme.com'), cachedOnly: false, allowNsfw: undefined, palette: true });
        if (answer.value.status !== 'found') throw new Error('expected a brand');
        const record = JSON.parse(answer.value.record.toString()) as Record<string, unknown>;
        expect(record.palette).toBeNull();
        expect(record.colors).toEqual(sampleBrand('acme.com').colors);
        expect(answer.usage).toBeNull();
        expect(answer.cost).toBe(0);
      });
    });

    describe('brandIndustries', () => {
      it('charges one credit for a held brand, nothing when it is not held (and queues nothing)', async () => {
        const { payer: p, orgId } = await payer();
        const held = await brandIndustries(stack.deps, p, readings('acme.com'));
        expect(held.value.status).toBe('found');
        expect(held.cost).toBe(1);
        const depth = await stack.queue.depth();
        const missing = await brandIndustries(stack.deps, p, readings('unheld.test'));
        expect(missing.value.status).toBe('not_found');
        expect(missing.cost).toBe(0);
        expect(await stack.queue.depth()).toBe(depth);
        expect(await used(orgId)).toBe(1);
      });

      it("the operator's brand is free", async () => {
        const { payer: p, orgId } = await payer();
        expect((await brandIndustries(stack.deps, p, readings(OPERATOR))).cost).toBe(0);
        expect(await used(orgId)).toBe(0);
      });
    });

    describe('batchBrands', () => {
      const batch = (items: string[], extra: Partial<{ cachedOnly: boolean; palette: boolean }> = {}) => ({ items, cachedOnly: true, allowNsfw: undefined, palette: false, ...extra });

      it('charges each distinct returned brand once; duplicates, misses and the operator brand are free', async () => {
        const { payer: p, orgId } = await payer();
        const answer = await batchBrands(stack.deps, p, batch(['acme.com', 'ACME.com', sampleBrand('acme.com').id, 'globex.com', 'unheld.test', OPERATOR, 'bad identifier!']));
        const statuses = (JSON.parse(answer.value.json) as { results: { status: number }[] }).results.map((r) => r.status);
        expect(statuses).toEqual([200, 200, 200, 200, 204, 200, 400]);
        expect(answer.cost).toBe(2);
        expect(await used(orgId)).toBe(2);
      });

      it('answers 429 with the counters and charges nothing when the credits do not cover the batch', async () => {
        const { payer: p, orgId } = await payer(1);
        const error = await rejection(batchBrands(stack.deps, p, batch(['acme.com', 'globex.com'])));
        expect(error.code).toBe('quota_exceeded');
        expect(error.body).toMatchObject({ quota: 1, used: 0, remaining: 1, required: 2 });
        expect(await used(orgId)).toBe(0);
      });

      it('an item that does not fit the response budget answers 413 and is not charged', async () => {
        const small = stackOn(db, db.stores.brands, { batchResponseMaxBytes: 2 * Buffer.byteLength(JSON.stringify(sampleBrand('acme.com'))) });
        const { payer: p, orgId } = await payer();
        const answer = await batchBrands(small.deps, p, batch(['acme.com', 'globex.com', 'operator.test']));
        const statuses = (JSON.parse(answer.value.json) as { results: { status: number }[] }).results.map((r) => r.status);
        expect(statuses).toEqual([200, 413, 413]);
        expect(answer.cost).toBe(1);
        expect(await used(orgId)).toBe(1);
        await small.meter.close();
      });

      it('queues misses without charging them (202)', async () => {
        const { payer: p, orgId } = await payer();
        const answer = await batchBrands(stack.deps, p, batch(['queued-miss.test'], { cachedOnly: false }));
        expect(answer.value.json).toContain('"status":202');
        expect(answer.cost).toBe(0);
        expect(await used(orgId)).toBe(0);
      });
    });

    describe('prefetchBrand', () => {
      it('is free: held, queued for a domain, not found for a website URL that is not held', async () => {
        const { payer: p, orgId } = await payer();
        expect(await prefetchBrand(stack.deps, p, readings('acme.com'))).toBe('held');
        expect(await prefetchBrand(stack.deps, p, readings('prefetched.test'))).toBe('queued');
        expect(await prefetchBrand(stack.deps, p, readings('https://www.unheld-url.test/about'))).toBe('not_found');
        expect((await p.usage()).approximateUsed).toBe(0);
        expect(await used(orgId)).toBe(0);
      });
    });
  });
}
