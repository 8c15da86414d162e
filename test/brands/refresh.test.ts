import { describe, expect, it } from 'vitest';
import { keepCuratedFields } from '../../src/brands/curated-fields.js';
import { currentQualityScore, isStale, refreshAgeMs, refreshBrand, type RefreshDeps } from '../../src/brands/refresh.js';
import { BrandNotHeldError, setBrandIndustries, UnknownIndustryError } from '../../src/brands/set-industry.js';
import { toIndustry } from '../../src/crawl/industries/taxonomy.js';
import { emptyCompany, type Brand } from '../../src/domain/brand.js';
import { qualityScore } from '../../src/domain/quality-score.js';
import type { IdentifierRef, StoredBrand } from '../../src/store/store.js';

const day = 86_400_000;
const t0 = new Date('2026-01-01T00:00:00Z');

function brand(overrides: Partial<Brand> = {}): Brand {
  return {
    id: 'brand_acme', name: 'Acme', domain: 'acme.com', claimed: false, description: 'Rockets.', longDescription: null,
    links: [], logos: [], colors: [], fonts: [], images: [], qualityScore: 0.3, company: emptyCompany(), isNsfw: false,
    urn: 'urn:brand:acme', ...overrides,
  };
}

class MemoryBrands {
  readonly saved: StoredBrand[] = [];
  constructor(public current: StoredBrand | null) {}
  async findBrandByIdentifier(_ref: IdentifierRef): Promise<StoredBrand | null> {
    return this.current;
  }
  async saveBrand(stored: StoredBrand): Promise<void> {
    this.current = stored;
    this.saved.push(stored);
  }
  async listIdentifiers(): Promise<IdentifierRef[]> {
    return [{ kind: 'domain', value: 'acme.com' }];
  }
}

function deps(store: MemoryBrands, crawled: Brand, now: Date, calls: string[] = []): RefreshDeps {
  return {
    store,
    now: () => now,
    indexer: {
      async index(domain) {
        calls.push(domain);
        const stored: StoredBrand = { brand: crawled, status: 'indexed', crawledAt: now, createdAt: t0, updatedAt: now };
        store.current = stored;
        return { ok: true, stored };
      },
    },
  };
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
    const store = new MemoryBrands(stored);
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
    const store = new MemoryBrands({ brand: before, status: 'indexed', crawledAt: t0, createdAt: t0, updatedAt: t0 });
    const outcome = await refreshBrand('acme.com', deps(store, crawled, new Date(t0.getTime() + 60 * day)));
    expect(outcome.status).toBe('indexed');
    const result = store.current?.brand;
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
  const held = (): MemoryBrands =>
    new MemoryBrands({ brand: brand({ company: { ...emptyCompany(), industries: [toIndustry('ind_software', 0.6)!, toIndustry('ind_technology', 0.7)!] } }), status: 'indexed', crawledAt: t0, createdAt: t0, updatedAt: t0 });

  it('sets industries by slug or id with score 1, parent included, predictions kept after them', async () => {
    const store = held();
    const stored = await setBrandIndustries(store, { domain: 'acme.com', industries: ['payments'], now: t0 });
    expect(stored.brand.company.industries.map((i) => [i.slug, i.score])).toEqual([
      ['payments', 1], ['finance', 1], ['technology', 0.7], ['software', 0.6],
    ]);
    expect(store.saved).toHaveLength(1);
  });

  it('--clear drops the set industries; unknown names and brands not held are errors', async () => {
    const store = held();
    await setBrandIndustries(store, { domain: 'acme.com', industries: ['ind_crypto'] });
    const cleared = await setBrandIndustries(store, { domain: 'acme.com', industries: [], clear: true });
    expect(cleared.brand.company.industries.every((i) => i.score < 1)).toBe(true);
    await expect(setBrandIndustries(store, { domain: 'acme.com', industries: ['basket-weaving'] })).rejects.toBeInstanceOf(UnknownIndustryError);
    await expect(setBrandIndustries(new MemoryBrands(null), { domain: 'x.com', industries: ['payments'] })).rejects.toBeInstanceOf(BrandNotHeldError);
  });

  it('setting the adult industry flags the brand NSFW, and the flag survives a re-crawl', async () => {
    const store = held();
    const stored = await setBrandIndustries(store, { domain: 'acme.com', industries: ['adult-content'] });
    expect(stored.brand.isNsfw).toBe(true);
    expect(keepCuratedFields(stored.brand, brand(), t0).isNsfw).toBe(true);
  });
});
