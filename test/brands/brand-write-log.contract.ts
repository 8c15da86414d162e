/**
 * The brand write log across processes and over time (ADR 0017), on every backend: numbers follow commit order
 * when two OS processes save at once (a poller that has read write n never sees n - 1 appear later), and old rows
 * are pruned by later writes without the numbering going back.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandStore, BrandWriteLog, StoredBrand } from '../../src/brands/brand-store.js';
import type { BrandTables } from '../../src/brands/store/brand-tables.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import { PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';
import { sampleBrand } from '../store/sample-brand.js';

type Saving = Pick<BrandStore, 'saveBrand'>;

export interface WriteLogFixture {
  stores: { brands: BrandStore & BrandWriteLog };
  database: Database;
  /** The same database through another OS process. */
  openPeer(): Promise<Saving>;
  cleanup(): Promise<void>;
}

function stored(): StoredBrand {
  const now = new Date();
  return { brand: sampleBrand(`w-${randomBytes(5).toString('hex')}.test`), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now };
}

export function brandWriteLogContract(name: string, open: () => Promise<WriteLogFixture>): void {
  describe(`brand write log: ${name}`, () => {
    let fixture: WriteLogFixture;

    beforeAll(async () => {
      fixture = await open();
      await migrateToLatest(fixture.database, PRODUCT_MIGRATIONS);
    });
    afterAll(async () => {
      await fixture?.cleanup();
    });

    it('a reader following the log while two processes save never sees a gap, and sees every save once', async () => {
      const store = fixture.stores.brands;
      const peer = await fixture.openPeer();
      const perWriter = 30;
      let cursor = await store.latestBrandWrite();
      const start = cursor;
      const seen: number[] = [];
      let writing = true;
      const saves = async (writer: Saving): Promise<void> => {
        // Four saves in flight per process, so PostgreSQL transactions overlap.
        for (let i = 0; i < perWriter; i += 4) await Promise.all(Array.from({ length: Math.min(4, perWriter - i) }, () => writer.saveBrand(stored(), [])));
      };
      const writers = Promise.all([saves(store), saves(peer)]).finally(() => (writing = false));
      // Reads as the cache poller does; every read must continue exactly where the previous one stopped.
      while (writing || cursor < start + 2 * perWriter) {
        const writes = await store.brandWritesAfter(cursor, 1000);
        if (writes.length > 0) expect(writes[0]?.seq).toBe(cursor + 1);
        for (const write of writes) seen.push(write.seq);
        cursor = writes.at(-1)?.seq ?? cursor;
        if (!writing && writes.length === 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await writers;
      expect(seen).toEqual(Array.from({ length: 2 * perWriter }, (_, i) => start + 1 + i));
    });

    it('a write prunes rows older than an hour, never the newest, and numbering continues', async () => {
      const store = fixture.stores.brands;
      const db = fixture.database.tables<BrandTables>();
      const latest = await store.latestBrandWrite();
      const old = Date.now() - 2 * 60 * 60_000;
      await db
        .insertInto('brand_writes')
        .values([1, 2, 3].map((i) => ({ seq: latest + i, brand_id: 'brd_old', domains: '[]', created_at: old })))
        .execute();
      expect(await store.latestBrandWrite()).toBe(latest + 3);
      const record = stored();
      await store.saveBrand(record, []);
      // The old rows are gone: a reader at `latest` sees a first seq past latest + 1 (and clears its cache).
      const writes = await store.brandWritesAfter(latest, 10);
      expect(writes.map((w) => [w.seq, w.brandId])).toEqual([[latest + 4, record.brand.id]]);
      expect(await store.latestBrandWrite()).toBe(latest + 4);
      // Recent rows stay.
      await store.saveBrand(stored(), []);
      expect((await store.brandWritesAfter(latest, 10)).map((w) => w.seq)).toEqual([latest + 4, latest + 5]);
    });
  });
}
