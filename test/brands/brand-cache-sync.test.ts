/**
 * Cross-process cache coherence (ADR 0017), on SQLite and PostgreSQL: an API service (wired as `brandbase serve`
 * wires it, HTTP through inject) caches a brand, another OS process (a store peer, as the shell crawl or a worker
 * would) re-saves, removes or re-attaches it, and the service answers the new state once its cache sync has
 * polled. Every wait is a poll of the real answer with a generous deadline; nothing asserts how long it took.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandStore, StoredBrand } from '../../src/brands/brand-store.js';
import type { Brand } from '../../src/domain/brand.js';
import { brandIdForDomain } from '../../src/domain/ids.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sharedPostgres, sharedSqlite, type SharedDatabase } from '../helpers/shared-database.js';
import { spawnStorePeer } from '../store/store-peer-process.js';
import { PG_URL } from '../store/temp-database.js';
import { sampleBrand } from '../store/sample-brand.js';
import { eventually } from '../helpers/until.js';
import { needsPostgres } from '../helpers/optional.js';

let counter = 0;

function uniqueDomain(): string {
  return `sync-${process.pid}-${++counter}-${Date.now().toString(36)}.test`;
}

function record(domain: string, name: string): StoredBrand {
  const now = new Date();
  return { brand: sampleBrand(domain, { name }), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now };
}

function cacheSyncSuite(name: string, openDatabase: () => Promise<SharedDatabase>): void {
  describe(`brand cache sync: ${name}`, () => {
    let database: SharedDatabase;
    let stack: TestStack;
    let peer: { brands: BrandStore; kill(): Promise<void> };
    let key: string;

    async function get(identifier: string): Promise<{ status: number; brand: Brand | null }> {
      const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${identifier}`, headers: bearer(key) });
      return { status: res.statusCode, brand: res.statusCode === 200 ? (res.json() as Brand) : null };
    }

    /** Waits until the sync has finished `count` more polls than now. */
    async function polls(count: number): Promise<void> {
      const target = stack.services.cacheSync.status().polls + count;
      await eventually(async () => stack.services.cacheSync.status().polls, (n) => n >= target);
    }

    beforeAll(async () => {
      database = await openDatabase();
      stack = await startTestStack({ ...database.env, BRANDBASE_CACHE_SYNC_MS: '100' });
      await stack.services.cacheSync.start();
      peer = await spawnStorePeer(database.peerSpec);
      ({ key } = await stack.newKey({ quota: 1_000_000 }));
    });

    afterAll(async () => {
      await peer?.kill();
      await stack?.close();
      await database?.cleanup();
    });

    it('answers a re-save by another process, and a removal, once the sync has polled', async () => {
      const domain = uniqueDomain();
      await peer.brands.saveBrand(record(domain, 'Old Name'), [{ kind: 'domain', value: domain }]);
      expect((await get(domain)).brand?.name).toBe('Old Name');
      expect((await get(domain)).brand?.name).toBe('Old Name'); // cached
      await peer.brands.saveBrand(record(domain, 'New Name'), [{ kind: 'domain', value: domain }]);
      await eventually(() => get(domain), (answer) => answer.brand?.name === 'New Name');

      expect(await peer.brands.setBrandStatus(brandIdForDomain(domain), 'removed', new Date())).toBe(true);
      await eventually(() => get(domain), (answer) => answer.status === 404);
      // By brand ID too.
      expect((await get(brandIdForDomain(domain))).status).toBe(404);
    });

    it('answers the new brand for a domain another process attached to it', async () => {
      const [from, to, moved] = [uniqueDomain(), uniqueDomain(), uniqueDomain()];
      await peer.brands.saveBrand(record(from, 'From'), [
        { kind: 'domain', value: from },
        { kind: 'domain', value: moved },
      ]);
      expect((await get(moved)).brand?.name).toBe('From');
      // Only `to` is written; `from` is not, yet its cached domain entry for `moved` must go.
      await peer.brands.saveBrand(record(to, 'To'), [
        { kind: 'domain', value: to },
        { kind: 'domain', value: moved },
      ]);
      await eventually(() => get(moved), (answer) => answer.brand?.name === 'To');
      expect((await get(from)).brand?.name).toBe('From');
    });

    it('serves cached lookups without a store read while it polls', async () => {
      const domain = uniqueDomain();
      await peer.brands.saveBrand(record(domain, 'Cached'), [{ kind: 'domain', value: domain }]);
      // Cached only once the sync has applied the write above (it drops the brand it names).
      await polls(2);
      expect((await get(domain)).status).toBe(200);
      const store = stack.services.stores.brands;
      const reads = { count: 0 };
      const originals = { find: store.findBrandByIdentifier, get: store.getBrand };
      // Counts the real store's brand reads (the lookup holds this same object); nothing is faked.
      store.findBrandByIdentifier = (...args) => (reads.count++, originals.find.apply(store, args));
      store.getBrand = (...args) => (reads.count++, originals.get.apply(store, args));
      try {
        const before = stack.services.cacheSync.status().polls;
        while (stack.services.cacheSync.status().polls < before + 3) {
          expect((await get(domain)).brand?.name).toBe('Cached');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(reads.count).toBe(0);
      } finally {
        store.findBrandByIdentifier = originals.find;
        store.getBrand = originals.get;
      }
    });

    it('logs one line while the write log cannot be read, one when it recovers, then syncs again', async () => {
      const warning = 'cannot read the brand write log';
      const count = (text: string) => stack.logs().split('\n').filter((line) => line.includes(text)).length;
      expect(count(warning)).toBe(0);
      await database.exec('alter table brand_writes rename to brand_writes_away');
      try {
        await eventually(async () => stack.services.cacheSync.status().failing, (failing) => failing);
        await polls(5);
        expect(stack.services.cacheSync.status().failing).toBe(true);
        expect(count(warning)).toBe(1);
      } finally {
        await database.exec('alter table brand_writes_away rename to brand_writes');
      }
      await eventually(async () => stack.services.cacheSync.status().failing, (failing) => !failing);
      expect(count(warning)).toBe(1);
      expect(count('brand cache sync recovered')).toBe(1);

      const domain = uniqueDomain();
      await peer.brands.saveBrand(record(domain, 'Before'), [{ kind: 'domain', value: domain }]);
      expect((await get(domain)).brand?.name).toBe('Before');
      await peer.brands.saveBrand(record(domain, 'After'), [{ kind: 'domain', value: domain }]);
      await eventually(() => get(domain), (answer) => answer.brand?.name === 'After');
    });
  });
}

cacheSyncSuite('SQLite (two processes on one file)', sharedSqlite);

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
needsPostgres.describe('PostgreSQL', () => {
  cacheSyncSuite('PostgreSQL (two processes on one schema)', () => sharedPostgres(PG_URL ?? ''));
});
