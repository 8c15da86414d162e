/**
 * The palette's lazy rule (spec 2.8 and section 3) through the real use cases: fixture sites crawled by the real
 * crawler into a real SQLite store and asset folder, the evidence kept by the indexer, palettes built by the real
 * PaletteService. The only wrapper counts the store's palette writes, to tell a build from a read.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/assets/asset-urls.js';
import { BatchLookup } from '../../src/brands/batch-lookup.js';
import { BrandCache } from '../../src/brands/brand-cache.js';
import { BrandIndexer } from '../../src/brands/brand-indexer.js';
import { BrandLookup } from '../../src/brands/brand-lookup.js';
import { CrawlScheduler } from '../../src/brands/crawl-scheduler.js';
import { crawlBrand } from '../../src/crawl/crawl-brand.js';
import { BrowserRenderer } from '../../src/crawl/fetch/render/browser-renderer.js';
import { parseIdentifier, type Readings } from '../../src/domain/identifiers.js';
import type { Palette } from '../../src/domain/palette.js';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { PaletteService } from '../../src/palette/palette-service.js';
import { silentLogger } from '../../src/platform/logger.js';
import { SafeFetcher, USER_AGENT } from '../../src/platform/safe-fetcher.js';
import type { PaletteStore } from '../../src/palette/palette-store.js';
import { batchBrands } from '../../src/usecases/batch-brands.js';
import { ChargeRule } from '../../src/usecases/charge-rule.js';
import { FREE_PAYER } from '../../src/usecases/free-payer.js';
import { lookupBrand } from '../../src/usecases/lookup-brand.js';
import type { UseCaseDeps } from '../../src/usecases/use-case-deps.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { tempAssets, type TempAssets } from '../helpers/temp-assets.js';
import { sampleBrand } from '../store/sample-brand.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { CHROMIUM_PATH, needsChromium } from '../helpers/optional.js';
import { UNBOUNDED_BUDGET_MS } from '../helpers/unbounded-budget.js';

function readings(identifier: string): Readings {
  const parsed = parseIdentifier(identifier);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.readings;
}

interface Answer {
  colors: unknown[];
  isNsfw: boolean;
  palette?: Palette | null;
}

let sites: FixtureSites;
/** Each test's own store (made in beforeEach): no test finds a brand or palette another test crawled or built. */
let db: TempDatabase;
let assets: TempAssets;
let indexer: BrandIndexer;
let lookup: BrandLookup;
let scheduler: CrawlScheduler;
let saves = 0;

/** The store's palette part, counting palette writes (a build stores once; a read writes nothing). */
function countingStore(): Pick<PaletteStore, 'getStoredPalette' | 'savePalette'> {
  return {
    getStoredPalette: (id) => db.stores.palette.getStoredPalette(id),
    savePalette: (...args) => {
      saves += 1;
      return db.stores.palette.savePalette(...args);
    },
  };
}

function depsWith(palettes: PaletteService | undefined): UseCaseDeps {
  return { lookup, batch: new BatchLookup(lookup, scheduler), scheduler, rule: new ChargeRule('operator.test'), batchItemTimeoutMs: UNBOUNDED_BUDGET_MS, batchResponseMaxBytes: 10 * 1024 * 1024, ...(palettes ? { palettes } : {}) };
}

async function get(deps: UseCaseDeps, domain: string, palette: boolean, allowNsfw?: boolean): Promise<Answer> {
  const { value } = await lookupBrand(deps, FREE_PAYER, { readings: readings(domain), cachedOnly: false, allowNsfw, palette });
  if (value.status !== 'found') throw new Error(`${domain}: ${value.status}`);
  return JSON.parse(value.record.toString()) as Answer;
}

beforeAll(async () => {
  sites = await startFixtureSites();
  // Content-addressed: the tests may share the asset files, never the records that point at them.
  assets = tempAssets();
}, 120_000);

afterAll(async () => {
  await sites.close();
});

beforeEach(async () => {
  db = await tempSqlite();
  await db.migrate();
  const fetcher = new SafeFetcher({ hostMap: sites.hostMap });
  indexer = new BrandIndexer(db.stores.brands, (domain) => crawlBrand(domain, { fetcher, assets }, { timeoutMs: UNBOUNDED_BUDGET_MS }), silentLogger());
  lookup = new BrandLookup(db.stores.brands, new BrandCache(60_000, new AssetUrls('http://brandbase.test/assets/')), indexer);
  scheduler = new CrawlScheduler(new SqlJobQueue(db.database), 1000);
  saves = 0;
});

afterEach(async () => {
  await db.cleanup();
});

/** Indexes `domain` with this test's indexer (a live crawl of the fixture site), failing the test if it fails. */
async function indexed(domain: string): Promise<void> {
  const outcome = await indexer.index(domain);
  if (!outcome.ok) throw new Error(`${domain}: ${outcome.reason} ${outcome.message}`);
}

/** A brand held without crawl evidence, as one stored before palettes existed. */
async function oldCrawl(): Promise<void> {
  const now = new Date();
  await db.stores.brands.saveBrand({ brand: sampleBrand('oldcrawl.test'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'oldcrawl.test' }]);
}

describe('palette lazy rule (spec 2.8)', () => {
  it('the first palette request builds from the crawl\'s kept evidence, later requests read the stored palette', async () => {
    const service = new PaletteService(countingStore(), assets, { budgetMs: UNBOUNDED_BUDGET_MS });
    const deps = depsWith(service);
    const plain = await get(deps, FIXTURE_HOSTS.northwind, false);
    expect(plain).not.toHaveProperty('palette');
    const kept = await db.stores.palette.getStoredPalette((await db.stores.brands.findBrandByIdentifier({ kind: 'domain', value: FIXTURE_HOSTS.northwind }))?.brand.id ?? '');
    expect(kept?.evidence.source).toBe('css');
    expect(kept?.palette).toBeNull();

    saves = 0;
    const first = await get(deps, FIXTURE_HOSTS.northwind, true);
    expect(saves).toBe(1);
    expect(first.palette?.colors.length).toBeGreaterThan(0);
    // The brand's colours never change because of the palette.
    expect(first.colors).toEqual(plain.colors);

    const second = await get(deps, FIXTURE_HOSTS.northwind, true);
    expect(saves).toBe(1);
    expect(second.palette).toEqual(first.palette);
    expect(second.colors).toEqual(plain.colors);
  }, 120_000);

  it('is null for an NSFW brand, and nothing is built', async () => {
    const service = new PaletteService(countingStore(), assets, { budgetMs: UNBOUNDED_BUDGET_MS });
    saves = 0;
    const answer = await get(depsWith(service), FIXTURE_HOSTS.velvetroom, true, true);
    expect(answer.isNsfw).toBe(true);
    expect(answer.palette).toBeNull();
    await service.idle();
    expect(saves).toBe(0);
  }, 120_000);

  it('is null when the build overruns its budget; the build finishes and a later request gets the palette', async () => {
    const late = new PaletteService(countingStore(), assets, { budgetMs: 0 });
    saves = 0;
    const first = await get(depsWith(late), FIXTURE_HOSTS.newname, true);
    expect(first.palette).toBeNull();
    await late.idle();
    expect(saves).toBe(1);
    const second = await get(depsWith(late), FIXTURE_HOSTS.newname, true);
    expect(second.palette?.colors.length).toBeGreaterThan(0);
    expect(saves).toBe(1);
  }, 120_000);

  it('is null when there is no crawl evidence to build from (a brand stored before palettes existed)', async () => {
    await oldCrawl();
    const answer = await get(depsWith(new PaletteService(countingStore(), assets, { budgetMs: UNBOUNDED_BUDGET_MS })), 'oldcrawl.test', true);
    expect(answer.palette).toBeNull();
  });

  it('is null without a palette service, and absent when not asked for', async () => {
    expect((await get(depsWith(undefined), FIXTURE_HOSTS.northwind, true)).palette).toBeNull();
    expect(await get(depsWith(undefined), FIXTURE_HOSTS.northwind, false)).not.toHaveProperty('palette');
  });

  it('the batch palette flag follows the same rule for every item', async () => {
    // cachedOnly: the batch reads held brands only, so this test indexes its own first.
    await indexed(FIXTURE_HOSTS.northwind);
    await indexed(FIXTURE_HOSTS.velvetroom);
    await oldCrawl();
    const service = new PaletteService(countingStore(), assets, { budgetMs: UNBOUNDED_BUDGET_MS });
    const { value } = await batchBrands(depsWith(service), FREE_PAYER, {
      items: [FIXTURE_HOSTS.northwind, FIXTURE_HOSTS.velvetroom, 'oldcrawl.test'],
      cachedOnly: true,
      allowNsfw: true,
      palette: true,
    });
    const results = (JSON.parse(value.json) as { results: { status: number; brand?: Answer }[] }).results;
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results[0]?.brand?.palette?.colors.length).toBeGreaterThan(0);
    expect(results[1]?.brand?.palette).toBeNull();
    expect(results[2]?.brand?.palette).toBeNull();
    const without = await batchBrands(depsWith(service), FREE_PAYER, { items: [FIXTURE_HOSTS.northwind], cachedOnly: true, allowNsfw: undefined, palette: false });
    expect((JSON.parse(without.value.json) as { results: { brand: Answer }[] }).results[0]?.brand).not.toHaveProperty('palette');
  });
});

const chromium = CHROMIUM_PATH;

needsChromium('palette').describe('palette of a JavaScript-built site the crawl rendered in Chromium', () => {
  it('keeps the rendered evidence with the brand and builds on-pairs, element usage and a light theme from it', async () => {
    const fetcher = new SafeFetcher({ hostMap: sites.hostMap });
    const renderer = new BrowserRenderer({ executablePath: chromium ?? '', fetcher, userAgent: USER_AGENT });
    try {
      const rendering = new BrandIndexer(db.stores.brands, (domain) => crawlBrand(domain, { fetcher, assets, renderer }, { timeoutMs: UNBOUNDED_BUDGET_MS }), silentLogger());
      const indexed = await rendering.index(FIXTURE_HOSTS.spashell, { retry: true });
      if (!indexed.ok) throw new Error(indexed.message);
      const kept = await db.stores.palette.getStoredPalette(indexed.stored.brand.id);
      expect(kept?.evidence.source).toBe('rendered');
      const palette = await new PaletteService(db.stores.palette, assets, { budgetMs: UNBOUNDED_BUDGET_MS }).paletteOf(indexed.stored);
      expect(palette?.onPairs.length).toBeGreaterThan(0);
      expect(palette?.colors.some((c) => c.usage.elements.length > 0)).toBe(true);
      expect(palette?.themes.light).toBeDefined();
    } finally {
      await renderer.close();
    }
  }, 240_000);
});
