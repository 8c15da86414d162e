import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrandIndexer } from '../../src/brands/brand-indexer.js';
import { silentLogger } from '../../src/platform/logger.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { keepCuratedFields } from '../../src/brands/curated-fields.js';
import { currentQualityScore, isStale, refreshAgeMs, refreshBrand, type RefreshDeps } from '../../src/brands/refresh.js';
import { BrandNotHeldError, setBrandIndustries, UnknownIndustryError } from '../../src/brands/set-industry.js';
import { toIndustry } from '../../src/crawl/fields/industries/taxonomy.js';
import { emptyCompany, type Brand } from '../../src/domain/brand.js';
import { qualityScore } from '../../src/domain/quality-score.js';
import { brandIdForDomain, brandUrn } from '../../src/domain/ids.js';
import type { StoredBrand } from '../../src/brands/brand-store.js';

const day = 86_400_000;
const t0 = new Date('2026-01-01T00:00:00Z');

function brand(overrides: Partial<Brand> = {}): Brand {
  return {
    id: brandIdForDomain('acme.com'), name: 'Acme', domain: 'acme.com', claimed: false, description: 'Rockets.', longDescription: null,
    links: [], logos: [], colors: [], fonts: [], images: [], qualityScore: 0.3, company: emptyCompany(), isNsfw: false,
    urn: brandUrn(brandIdForDomain('acme.com')), ...overrides,
  };
}

interface Held {
  store: TempDatabase['stores']['brands'];
  /** The record as the store holds it now. */
  current(): Promise<StoredBrand | null>;
}

let db: TempDatabase;
beforeEach(async () => {
  db = await tempSqlite();
  await db.migrate();
});
afterEach(async () => db.cleanup());

/** A real SQLite store holding `initial` (if any) for acme.com. */
async function held(initial: StoredBrand | null): Promise<Held> {
  if (initial) await db.stores.brands.saveBrand(initial, [{ kind: 'domain', value: 'acme.com' }]);
  return { store: db.stores.brands, current: () => db.stores.brands.findBrandByIdentifier({ kind: 'domain', value: 'acme.com' }) };
}

/**
 * The real BrandIndexer over the real store; the website is the only stand-in: its crawl yields `crawled`.
 */
function deps(target: Held, crawled: Brand, now: Date, calls: string[] = []): RefreshDeps {
  const { id: _id, urn: _urn, palette: _palette, ...draft } = crawled;
  const indexer = new BrandIndexer(
    target.store,
    async (domain) => {
      calls.push(domain);
      return { ok: true, domain, draft };
    },
    silentLogger(),
    { now: () => now },
  );
  return { store: target.store, now: () => now, indexer };
}

describe('refresh age', () => {
  const stored: StoredBrand = { brand: brand(), status: 'indexed', crawledAt: t0, createdAt: t0, updatedAt: t0 };

  it('a record older than the refresh age is stale', () => {
    expect(isStale(stored, new Date(t0.getTime() + 29 * day), refreshAgeMs(30))).toBe(false);
    expect(isStale(stored, new Date(t0.getTime() + 30 * day), refreshAgeMs(30))).toBe(true);
  });

  it('recency feeds the quality score at read time', () => {
    const rich = { ...stored, brand: brand({ colors: [{ hex: '#635bff', type: 'accent', brightness: 104.54 }], links: [{ name: 'github', url: 'https://github.com/acme' }] }) };
    expect(currentQualityScore(rich, new Date(t0.getTime() + 400 * day))).toBeLessThan(currentQualityScore(rich, t0));
  });

  it('skips a fresh record, re-crawls a stale one, and --refresh forces a crawl', async () => {
    const calls: string[] = [];
    const store = await held(stored);
    expect((await refreshBrand('acme.com', deps(store, brand(), new Date(t0.getTime() + day), calls))).status).toBe('fresh');
    expect(calls).toEqual([]);
    expect((await refreshBrand('acme.com', deps(store, brand(), new Date(t0.getTime() + day), calls), { force: true })).status).toBe('indexed');
    expect((await refreshBrand('acme.com', deps(store, brand(), new Date(t0.getTime() + 40 * day), calls))).status).toBe('indexed');
    expect(calls).toEqual(['acme.com', 'acme.com']);
  });
});

describe('curated facts survive a re-crawl', () => {
  it('keeps claimed and set industries, drops stale predictions, and rescores', async () => {
    const set = [toIndustry('ind_payments', 1)!, toIndustry('ind_finance', 1)!];
    const before = brand({ claimed: true, company: { ...emptyCompany(), industries: [...set, toIndustry('ind_software', 0.4)!] } });
    const crawled = brand({ company: { ...emptyCompany(), industries: [toIndustry('ind_crypto', 0.7)!, toIndustry('ind_finance', 0.8)!] } });
    const store = await held({ brand: before, status: 'indexed', crawledAt: t0, createdAt: t0, updatedAt: t0 });
    const outcome = await refreshBrand('acme.com', deps(store, crawled, new Date(t0.getTime() + 60 * day)));
    expect(outcome.status).toBe('indexed');
    const result = (await store.current())?.brand;
    expect(result?.claimed).toBe(true);
    expect(result?.company.industries.map((i) => [i.slug, i.score])).toEqual([['payments', 1], ['finance', 1], ['crypto', 0.7]]);
    const crawledAt = new Date(t0.getTime() + 60 * day);
    const unclaimed = qualityScore({ ...crawled, company: result!.company, crawledAt, now: crawledAt });
    expect(result?.qualityScore).toBeCloseTo(unclaimed + 0.06, 5);
  });

  it('a first crawl has nothing to keep', () => {
    const next = brand();
    expect(keepCuratedFields(null, next, t0)).toBe(next);
  });
});

describe('brands set-industry', () => {
  const withPredictions = (): Promise<Held> =>
    held({ brand: brand({ company: { ...emptyCompany(), industries: [toIndustry('ind_software', 0.6)!, toIndustry('ind_technology', 0.7)!] } }), status: 'indexed', crawledAt: t0, createdAt: t0, updatedAt: t0 });

  it('sets industries by slug or id with score 1, parent included, predictions kept after them', async () => {
    const { store, current } = await withPredictions();
    const stored = await setBrandIndustries(store, { domain: 'acme.com', industries: ['payments'], now: t0 });
    expect(stored.brand.company.industries.map((i) => [i.slug, i.score])).toEqual([
      ['payments', 1], ['finance', 1], ['technology', 0.7], ['software', 0.6],
    ]);
    expect((await current())?.brand.company.industries).toEqual(stored.brand.company.industries);
  });

  it('--clear drops the set industries; unknown names and brands not held are errors', async () => {
    const { store } = await withPredictions();
    await setBrandIndustries(store, { domain: 'acme.com', industries: ['ind_crypto'] });
    const cleared = await setBrandIndustries(store, { domain: 'acme.com', industries: [], clear: true });
    expect(cleared.brand.company.industries.every((i) => i.score < 1)).toBe(true);
    await expect(setBrandIndustries(store, { domain: 'acme.com', industries: ['basket-weaving'] })).rejects.toBeInstanceOf(UnknownIndustryError);
    await expect(setBrandIndustries(store, { domain: 'x.com', industries: ['payments'] })).rejects.toBeInstanceOf(BrandNotHeldError);
  });

  it('setting the adult industry flags the brand NSFW, and the flag survives a re-crawl', async () => {
    const { store } = await withPredictions();
    const stored = await setBrandIndustries(store, { domain: 'acme.com', industries: ['adult-content'] });
    expect(stored.brand.isNsfw).toBe(true);
    expect(keepCuratedFields(stored.brand, brand(), t0).isNsfw).toBe(true);
  });
});
