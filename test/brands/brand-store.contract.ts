/**
 * The brands store's contract (moved out of the Store contract, test/store/store.contract.ts; issue 30): every
 * backend runs this same suite against a real database (no mocks). One database per suite run; each test uses its
 * own random IDs so tests never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandStore, BrandWriteLog, IdentifierRef, StoredBrand } from '../../src/brands/brand-store.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import { PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';
import { sampleBrand } from '../store/sample-brand.js';

const T0 = new Date('2024-05-06T07:08:09.123Z');

function at(offsetMs: number): Date {
  return new Date(T0.getTime() + offsetMs);
}

function uniqueDomain(): string {
  return `acme-${randomBytes(5).toString('hex')}.test`;
}

function stored(domain: string, overrides: Partial<StoredBrand> = {}): StoredBrand {
  return { brand: sampleBrand(domain), status: 'indexed', crawledAt: at(1), createdAt: at(2), updatedAt: at(3), ...overrides };
}

export interface BrandStoreFixture {
  stores: { brands: BrandStore & BrandWriteLog };
  database: Database;
  cleanup(): Promise<void>;
}

export function brandStoreContract(name: string, open: () => Promise<BrandStoreFixture>): void {
  describe(`brand store contract: ${name}`, () => {
    let store: BrandStore & BrandWriteLog;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      const opened = await open();
      ({ cleanup } = opened);
      store = opened.stores.brands;
      await migrateToLatest(opened.database, PRODUCT_MIGRATIONS);
    });
    afterAll(async () => {
      await cleanup();
    });

    describe('brands', () => {
      it('round-trips a realistic record and its dates to the millisecond', async () => {
        const record = stored(uniqueDomain());
        await store.saveBrand(record, []);
        const got = await store.getBrand(record.brand.id);
        expect(got).toEqual(record);
        expect(got?.crawledAt).toBeInstanceOf(Date);
        expect(got?.crawledAt.getTime()).toBe(at(1).getTime());
        expect(got?.brand.images[0]?.pictureMetadata?.score).toBe(0.87);
      });

      it('does not store the per-request palette', async () => {
        const record = stored(uniqueDomain());
        await store.saveBrand({ ...record, brand: { ...record.brand, palette: { colors: ['#fff'] } } }, []);
        const got = await store.getBrand(record.brand.id);
        expect(got?.brand).not.toHaveProperty('palette');
        expect(got).toEqual(record);
      });

      it('returns null for an unknown brand or identifier', async () => {
        expect(await store.getBrand('brd_aaaaaaaaaaaaaaaaaaaa')).toBeNull();
        expect(await store.findBrandByIdentifier({ kind: 'domain', value: uniqueDomain() })).toBeNull();
      });

      it('finds a brand by each identifier kind', async () => {
        const domain = uniqueDomain();
        const tag = randomBytes(3).toString('hex').toUpperCase();
        const refs: IdentifierRef[] = [
          { kind: 'domain', value: domain },
          { kind: 'ticker', value: `T${tag}` },
          { kind: 'isin', value: `US${tag}000001` },
          { kind: 'crypto', value: `C${tag}` },
        ];
        const record = stored(domain);
        await store.saveBrand(record, refs);
        for (const ref of refs) {
          expect((await store.findBrandByIdentifier(ref))?.brand.id, ref.kind).toBe(record.brand.id);
        }
        expect(await store.findBrandByIdentifier({ kind: 'crypto', value: `T${tag}` })).toBeNull();
        expect(await store.listIdentifiers(record.brand.id)).toEqual([...refs].sort((a, b) => a.kind.localeCompare(b.kind)));
      });

      it('moves an identifier to the brand saved last', async () => {
        const a = stored(uniqueDomain());
        const b = stored(uniqueDomain());
        const ticker: IdentifierRef = { kind: 'ticker', value: `M${randomBytes(3).toString('hex').toUpperCase()}` };
        await store.saveBrand(a, [{ kind: 'domain', value: a.brand.domain }, ticker]);
        await store.saveBrand(b, [{ kind: 'domain', value: b.brand.domain }, ticker, ticker]);
        expect((await store.findBrandByIdentifier(ticker))?.brand.id).toBe(b.brand.id);
        expect(await store.listIdentifiers(a.brand.id)).toEqual([{ kind: 'domain', value: a.brand.domain }]);
        expect(await store.listIdentifiers(b.brand.id)).toEqual([{ kind: 'domain', value: b.brand.domain }, ticker]);
      });

      it('replaces the record on save but keeps the first createdAt', async () => {
        const domain = uniqueDomain();
        const first = stored(domain);
        await store.saveBrand(first, [{ kind: 'domain', value: domain }]);
        const second = stored(domain, { brand: sampleBrand(domain, { name: 'Acme 2', colors: [] }), crawledAt: at(100), createdAt: at(100), updatedAt: at(101) });
        await store.saveBrand(second, [{ kind: 'domain', value: domain }]);
        expect(await store.getBrand(first.brand.id)).toEqual({ ...second, createdAt: first.createdAt });
      });

      it('saves all or nothing', async () => {
        const record = stored(uniqueDomain());
        const broken = { kind: 'ticker', value: null } as unknown as IdentifierRef;
        await expect(store.saveBrand(record, [{ kind: 'domain', value: record.brand.domain }, broken])).rejects.toThrow();
        expect(await store.getBrand(record.brand.id)).toBeNull();
        expect(await store.findBrandByIdentifier({ kind: 'domain', value: record.brand.domain })).toBeNull();
      });

      it('changes the status and updatedAt', async () => {
        const record = stored(uniqueDomain());
        await store.saveBrand(record, [{ kind: 'domain', value: record.brand.domain }]);
        expect(await store.setBrandStatus(record.brand.id, 'removed', at(500))).toBe(true);
        const got = await store.findBrandByIdentifier({ kind: 'domain', value: record.brand.domain });
        expect(got).toEqual({ ...record, status: 'removed', updatedAt: at(500) });
        expect(await store.setBrandStatus('brd_aaaaaaaaaaaaaaaaaaab', 'removed', at(500))).toBe(false);
      });
    });

    describe('brand write log', () => {
      it('numbers saves and status changes 1, 2, 3, ... with the brand and the domains each save attached', async () => {
        const before = await store.latestBrandWrite();
        const a = stored(uniqueDomain());
        const b = stored(uniqueDomain());
        const alias = uniqueDomain();
        const startedAt = Date.now();
        await store.saveBrand(a, [
          { kind: 'domain', value: a.brand.domain },
          { kind: 'domain', value: alias },
          { kind: 'ticker', value: 'ACME' },
        ]);
        await store.setBrandStatus(a.brand.id, 'removed', at(500));
        await store.saveBrand(b, []);
        expect(await store.latestBrandWrite()).toBe(before + 3);
        const writes = await store.brandWritesAfter(before, 10);
        expect(writes.map((w) => ({ seq: w.seq, brandId: w.brandId, domains: w.domains }))).toEqual([
          { seq: before + 1, brandId: a.brand.id, domains: [a.brand.domain, alias] },
          { seq: before + 2, brandId: a.brand.id, domains: [] },
          { seq: before + 3, brandId: b.brand.id, domains: [b.brand.domain] },
        ]);
        for (const write of writes) {
          expect(write.at).toBeInstanceOf(Date);
          expect(write.at.getTime()).toBeGreaterThanOrEqual(startedAt);
        }
      });

      it('pages with after and limit, oldest first', async () => {
        const before = await store.latestBrandWrite();
        for (let i = 0; i < 5; i++) await store.saveBrand(stored(uniqueDomain()), []);
        expect((await store.brandWritesAfter(before, 2)).map((w) => w.seq)).toEqual([before + 1, before + 2]);
        expect((await store.brandWritesAfter(before + 2, 10)).map((w) => w.seq)).toEqual([before + 3, before + 4, before + 5]);
        expect(await store.brandWritesAfter(before + 5, 10)).toEqual([]);
        await expect(store.brandWritesAfter(before, 0)).rejects.toThrow(RangeError);
      });

      it('writes nothing for a failed save or a status change of an unknown brand', async () => {
        const before = await store.latestBrandWrite();
        const record = stored(uniqueDomain());
        const broken = { kind: 'ticker', value: null } as unknown as IdentifierRef;
        await expect(store.saveBrand(record, [broken])).rejects.toThrow();
        expect(await store.setBrandStatus('brd_aaaaaaaaaaaaaaaaaaac', 'removed', at(1))).toBe(false);
        expect(await store.latestBrandWrite()).toBe(before);
        expect(await store.brandWritesAfter(before, 10)).toEqual([]);
      });

      it('numbers concurrent saves without gaps or repeats', async () => {
        const before = await store.latestBrandWrite();
        await Promise.all(Array.from({ length: 20 }, () => store.saveBrand(stored(uniqueDomain()), [])));
        const seqs = (await store.brandWritesAfter(before, 100)).map((w) => w.seq);
        expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => before + 1 + i));
      });
    });

    describe('crawl failure memory', () => {
      it('reads nothing for a domain that never failed', async () => {
        expect(await store.getCrawlFailure(uniqueDomain())).toBeNull();
      });

      it('records a failure with one strike and reads it back by domain, to the millisecond', async () => {
        const domain = uniqueDomain();
        const written = await store.recordCrawlFailure({ domain, reason: 'unreachable', message: 'connection refused', failedAt: at(10) });
        const expected = { domain, reason: 'unreachable', message: 'connection refused', strikes: 1, failedAt: at(10) };
        expect(written).toEqual(expected);
        expect(await store.getCrawlFailure(domain)).toEqual(expected);
        expect((await store.getCrawlFailure(domain))?.failedAt).toBeInstanceOf(Date);
      });

      it('a failure in a row adds a strike and replaces reason, message and time', async () => {
        const domain = uniqueDomain();
        await store.recordCrawlFailure({ domain, reason: 'timeout', message: 'slow', failedAt: at(10) });
        const second = await store.recordCrawlFailure({ domain, reason: 'dns_failure', message: 'ENOTFOUND', failedAt: at(20) });
        expect(second).toEqual({ domain, reason: 'dns_failure', message: 'ENOTFOUND', strikes: 2, failedAt: at(20) });
        expect(await store.getCrawlFailure(domain)).toEqual(second);
      });

      it('failures recorded at once all count (one upsert each, no lost strike)', async () => {
        const domain = uniqueDomain();
        await Promise.all(Array.from({ length: 8 }, (_, i) => store.recordCrawlFailure({ domain, reason: 'timeout', message: `try ${i}`, failedAt: at(i) })));
        expect((await store.getCrawlFailure(domain))?.strikes).toBe(8);
      });

      it('clears the failures of the given domains only, and a cleared domain starts again at one strike', async () => {
        const [a, b, c] = [uniqueDomain(), uniqueDomain(), uniqueDomain()];
        for (const domain of [a, b, c]) await store.recordCrawlFailure({ domain, reason: 'not_html', message: 'json', failedAt: at(10) });
        await store.clearCrawlFailures([a, b]);
        await store.clearCrawlFailures([]);
        expect(await store.getCrawlFailure(a)).toBeNull();
        expect(await store.getCrawlFailure(b)).toBeNull();
        expect((await store.getCrawlFailure(c))?.reason).toBe('not_html');
        expect((await store.recordCrawlFailure({ domain: a, reason: 'timeout', message: 'again', failedAt: at(30) })).strikes).toBe(1);
      });

      it('prunes failures older than a time and keeps the newer ones', async () => {
        const [old, fresh] = [uniqueDomain(), uniqueDomain()];
        await store.recordCrawlFailure({ domain: old, reason: 'timeout', message: 'old', failedAt: at(-3_600_000) });
        await store.recordCrawlFailure({ domain: fresh, reason: 'timeout', message: 'fresh', failedAt: at(0) });
        expect(await store.pruneCrawlFailures(at(-1))).toBeGreaterThanOrEqual(1);
        expect(await store.getCrawlFailure(old)).toBeNull();
        expect(await store.getCrawlFailure(fresh)).not.toBeNull();
      });

      it('keeps a long message to a bounded length', async () => {
        const domain = uniqueDomain();
        await store.recordCrawlFailure({ domain, reason: 'http_error', message: 'x'.repeat(10_000), failedAt: at(0) });
        expect((await store.getCrawlFailure(domain))?.message.length).toBeLessThanOrEqual(1000);
      });
    });
  });
}
