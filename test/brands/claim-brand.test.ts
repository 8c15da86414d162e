/**
 * `claimed` (spec 2.1): the store write on both backends, its brand write log row (what carries it to other API
 * processes' caches), the quality score, a re-crawl keeping it, and the `brandbase brands claim|unclaim` command
 * on a real data folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBrandClaimed } from '../../src/brands/claim-brand.js';
import { keepCuratedFields } from '../../src/brands/curated-fields.js';
import { currentQualityScore } from '../../src/brands/refresh.js';
import { BrandNotHeldError } from '../../src/brands/set-industry.js';
import { emptyCompany, type Brand } from '../../src/domain/brand.js';
import { brandIdForDomain, brandUrn } from '../../src/domain/ids.js';
import { openSqliteStore } from '../store/open-store.js';
import type { StoredBrand } from '../../src/brands/brand-store.js';
import { runCli, runJson } from '../helpers/brandbase-process.js';
import { PG_URL, tempPostgres, tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { always, needsPostgres, type Gated } from '../helpers/optional.js';

const t0 = new Date('2026-03-01T00:00:00Z');

function record(domain = 'acme.com'): StoredBrand {
  const id = brandIdForDomain(domain);
  const brand: Brand = {
    id, name: 'Acme', domain, claimed: false, description: 'Rockets.', longDescription: null, links: [], logos: [], colors: [],
    fonts: [], images: [], qualityScore: 0, company: emptyCompany(), isNsfw: false, urn: brandUrn(id),
  };
  return { brand, status: 'indexed', crawledAt: t0, createdAt: t0, updatedAt: t0 };
}

// The PostgreSQL case is always collected (skipped without a server) so the end-of-run report counts it.
const backends: [string, () => Promise<TempDatabase>, Gated][] = [['SQLite', tempSqlite, always], ['PostgreSQL', () => tempPostgres(PG_URL ?? ''), needsPostgres]];

for (const [name, open, gate] of backends) gate.describe(`setBrandClaimed on ${name}`, () => {
  let db: TempDatabase;
  beforeEach(async () => {
    db = await open();
    await db.migrate();
    await db.stores.brands.saveBrand(record(), [{ kind: 'domain', value: 'acme.com' }]);
  });
  afterEach(async () => db.cleanup());

  it('claims by domain and by id, writes the brand write log, raises the score; unclaims', async () => {
    const before = await db.stores.brands.latestBrandWrite();
    const now = new Date(t0.getTime() + 1000);
    const claimed = await setBrandClaimed(db.stores.brands, { brand: 'acme.com', claimed: true, now });
    expect(claimed.changed).toBe(true);
    const held = await db.stores.brands.findBrandByIdentifier({ kind: 'domain', value: 'acme.com' });
    expect(held?.brand.claimed).toBe(true);
    // The write log is what other processes' caches follow (ADR 0017).
    expect(await db.stores.brands.latestBrandWrite()).toBeGreaterThan(before);
    expect((await db.stores.brands.brandWritesAfter(before, 10)).map((w) => w.brandId)).toContain(held?.brand.id);
    // Spec 2.1: claimed status counts in the score (the curation term), as served.
    const unclaimedScore = currentQualityScore(record(), now);
    expect(currentQualityScore(held as StoredBrand, now)).toBeCloseTo(unclaimedScore + 0.06, 5);
    expect(held?.brand.qualityScore).toBeCloseTo(unclaimedScore + 0.06, 5);

    const again = await setBrandClaimed(db.stores.brands, { brand: brandIdForDomain('acme.com'), claimed: true, now });
    expect(again.changed).toBe(false);
    const logged = await db.stores.brands.latestBrandWrite();
    const unclaimed = await setBrandClaimed(db.stores.brands, { brand: brandIdForDomain('acme.com'), claimed: false, now });
    expect(unclaimed.changed).toBe(true);
    expect((await db.stores.brands.getBrand(brandIdForDomain('acme.com')))?.brand.claimed).toBe(false);
    expect(await db.stores.brands.latestBrandWrite()).toBeGreaterThan(logged);
  });

  it('refuses a brand that is not held or was removed', async () => {
    await expect(setBrandClaimed(db.stores.brands, { brand: 'other.com', claimed: true })).rejects.toBeInstanceOf(BrandNotHeldError);
    await expect(setBrandClaimed(db.stores.brands, { brand: brandIdForDomain('other.com'), claimed: true })).rejects.toBeInstanceOf(BrandNotHeldError);
    await db.stores.brands.setBrandStatus(brandIdForDomain('acme.com'), 'removed', t0);
    await expect(setBrandClaimed(db.stores.brands, { brand: 'acme.com', claimed: true })).rejects.toBeInstanceOf(BrandNotHeldError);
  });
});

describe('claimed across a re-crawl', () => {
  it('a fresh crawl (claimed false) keeps the claim and its score', () => {
    const claimed = { ...record().brand, claimed: true };
    const merged = keepCuratedFields(claimed, record().brand, t0);
    expect(merged.claimed).toBe(true);
    expect(merged.qualityScore).toBeCloseTo(keepCuratedFields(record().brand, record().brand, t0).qualityScore + 0.06, 5);
  });
});

describe('brandbase brands claim|unclaim', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-claim-'));
    const { stores, database, migrate } = await openSqliteStore({ file: path.join(dataDir, 'brandbase.sqlite') });
    await migrate();
    await stores.brands.saveBrand(record(), [{ kind: 'domain', value: 'acme.com' }]);
    await database.close();
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it('marks and unmarks a held brand, by URL or id; a brand not held exits 1', async () => {
    const env = { BRANDBASE_DATA_DIR: dataDir };
    const claimed = await runJson(['brands', 'claim', 'https://www.acme.com/about'], env);
    expect(claimed).toMatchObject({ brandId: brandIdForDomain('acme.com'), domain: 'acme.com', claimed: true, changed: true });
    const unclaimed = await runJson(['brands', 'unclaim', brandIdForDomain('acme.com')], env);
    expect(unclaimed).toMatchObject({ claimed: false, changed: true });
    expect(Number(unclaimed.qualityScore)).toBeLessThan(Number(claimed.qualityScore));
    const missing = await runCli(['brands', 'claim', 'nowhere.example'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no brand is held for nowhere.example');
  });
});
