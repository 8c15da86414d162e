/**
 * The brand knowledge set (issue 34 items 1 and 5): scripts/build-nsi.ts on a small name-suggestion-index package
 * written by the test (every drop reason, country sites), the `nsi` import on real SQLite and PostgreSQL stores, the
 * embedded CSV read back to the same rows, a newer package replacing the set, and search finding a knowledge-set brand
 * by name before anything was crawled. No mocks: the real importer, stores and search service.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeName } from '../../src/domain/search-text.js';
import { createLogger } from '../../src/platform/logger.js';
import { brandWebsite } from '../../src/refdata/brand-websites.js';
import { importReferenceFile } from '../../src/refdata/import/import-file.js';
import { websiteDomain } from '../../src/refdata/website-domain.js';
import { BrandSearch } from '../../src/search/brand-search.js';
import { describeEachBackend, tempDatabase } from '../helpers/backends.js';
import type { TempDatabase } from '../store/temp-database.js';
import { DROPS_V1, writeNsiPackage } from './nsi-fixture.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

const BURGER_CO = {
  id: 'burgerco-1a2b3c',
  name: 'Burger Co',
  matchNames: ['burger co france', normalizeName('バーガーコー'), 'burger co restaurant'],
  domain: 'burgerco.com',
  countrySites: { DE: 'burgerco.de', GB: 'burgerco.co.uk' },
  countries: ['001'],
  category: 'amenity/fast_food',
  wikidata: 'Q1',
  source: 'nsi',
  sourceDate: '2099-01-01',
};

let fixtures: string;
let v1: string;
let v2: string;
let builtCsv: string;

beforeAll(async () => {
  fixtures = await mkdtemp(path.join(tmpdir(), 'brandbase-nsi-test-'));
  v1 = await writeNsiPackage(1, fixtures);
  v2 = await writeNsiPackage(2, fixtures);
  builtCsv = path.join(fixtures, 'brands-nsi.csv.gz');
});
afterAll(() => rm(fixtures, { recursive: true, force: true }));

describe('npm run build:nsi (scripts/build-nsi.ts)', () => {
  it('keeps one row per brand with a website of its own, and prints the drops per reason', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/build-nsi.ts', v1, builtCsv], { cwd: ROOT });
    expect(stdout).toContain('name-suggestion-index 2099-01-01: 12 items of the brands/ tree read, 3 brands kept');
    for (const [reason, count] of Object.entries(DROPS_V1)) expect(stdout).toContain(`dropped ${reason}: ${count} `);
    expect(stdout).toContain('corrected global-site-after-country-site: 1');
    expect(stdout).toContain('corrected location-not-a-country: 1');
    const lines = gunzipSync(await readFile(builtCsv)).toString('utf8').trim().split('\n');
    expect(lines[0]).toBe('id,name,match_names,domain,country_sites,countries,category,wikidata,source,source_date');
    expect(lines.slice(1)).toEqual([
      'amazonfresh-999999,Amazon Fresh,,amazon.com,,US,amenity/fast_food,Q9,nsi,2099-01-01',
      `burgerco-1a2b3c,Burger Co,${BURGER_CO.matchNames.join('|')},burgerco.com,DE=burgerco.de GB=burgerco.co.uk,001,amenity/fast_food,Q1,nsi,2099-01-01`,
      'martco-bbbbbb,Mart Co,,martco.com,AT=martco.at DE=martco.de,AT DE GB US,shop/supermarket,Q10,nsi,2099-01-01',
    ]);
  }, 60_000);

  it('refuses a folder that is no package', async () => {
    const result = await run(process.execPath, ['--import', 'tsx', 'scripts/build-nsi.ts', fixtures, path.join(fixtures, 'x.csv.gz')], { cwd: ROOT }).catch((e: { stderr: string }) => e);
    expect(String((result as { stderr: string }).stderr)).toContain('is not an unpacked name-suggestion-index package');
  }, 60_000);
});

describe('official websites', () => {
  it('a domain with Latin-1 letters is a website, however warm URL.canParse is (Node 20 answers false once optimized)', () => {
    for (let i = 0; i < 50_000; i++) URL.canParse(`https://example${i % 100}.com/`);
    expect(websiteDomain('https://minkøbmand.dk/')).toBe('xn--minkbmand-o8a.dk');
    expect(brandWebsite('https://www.körperformen.com/', ['Körperformen'])).toEqual({ domain: 'xn--krperformen-rfb.com' });
  });

  it('a platform page is no brand website, unless the brand is the platform', () => {
    expect(brandWebsite('https://instagram.com/pizzeria', ['Pizzeria'])).toEqual({ drop: 'social-profile' });
    expect(brandWebsite('https://play.google.com/store/apps/details?id=x', ['X'])).toEqual({ drop: 'marketplace-or-app-store-page' });
    expect(brandWebsite('https://www.google.com/maps/place/x', ['X'])).toEqual({ drop: 'marketplace-or-app-store-page' });
    expect(brandWebsite('https://bit.ly/abc', ['X'])).toEqual({ drop: 'link-page' });
    expect(brandWebsite('https://gap.uk.com/', ['Gap'])).toEqual({ drop: 'generic-hosting' });
    expect(brandWebsite('https://www.amazon.co.uk/fresh', ['Amazon Fresh'])).toEqual({ domain: 'amazon.co.uk' });
    expect(brandWebsite('https://store.apple.com/', ['Apple Store'])).toEqual({ domain: 'apple.com' });
  });
});

describeEachBackend('the brand knowledge set', (backend) => {
  let temp: TempDatabase;
  let search: BrandSearch;

  const searchFor = async (query: string) => {
    await temp.stores.search.syncSearchReferenceNames();
    return search.search(query, 5);
  };

  beforeAll(async () => {
    temp = await tempDatabase(backend);
    await temp.migrate();
    search = new BrandSearch(temp.stores.search, (key) => `http://brandbase.test/assets/${key}`, { timeoutMs: 30_000, referenceCheckMs: 0, logger: createLogger({ level: 'silent' }) });
  }, 120_000);
  afterAll(() => temp?.cleanup());

  it('`--format nsi` reads the package folder: three brands, every other item counted under its reason', async () => {
    const report = await importReferenceFile(temp.stores.referenceData, { file: v1, format: 'nsi' });
    expect(report).toMatchObject({ format: 'nsi', source: 'nsi', sourceDate: '2099-01-01', rowsRead: 12, inserted: 3, updated: 0, unchanged: 0, removed: 0 });
    expect(Object.fromEntries(Object.entries(report.skipped).map(([reason, t]) => [reason, t.count]))).toEqual(DROPS_V1);
    expect(report.skipped['social-profile']?.examples).toEqual(['pizzasocial-333333 (Pizza Social, Q3)']);
    expect(await temp.stores.referenceData.knownBrandsByDomain('burgerco.com')).toEqual([BURGER_CO]);
    // A platform's own brand keeps the platform's domain; a country's site listed first gives way to the global one.
    expect(await temp.stores.referenceData.knownBrandsByDomain('amazon.com')).toMatchObject([{ name: 'Amazon Fresh', countries: ['US'] }]);
    expect(await temp.stores.referenceData.knownBrandsByDomain('martco.com')).toMatchObject([{ countries: ['AT', 'DE', 'GB', 'US'], countrySites: { AT: 'martco.at', DE: 'martco.de' } }]);
    expect(await temp.stores.referenceData.knownBrandsByDomain('facebook.com')).toEqual([]);
    expect(await temp.stores.referenceData.hasKnownBrands()).toBe(true);
    const { sources } = await temp.stores.referenceData.referenceStatus();
    expect(sources).toContainEqual({ table: 'brands', source: 'nsi', rows: 3, sourceDate: '2099-01-01' });
  });

  it('the CSV the build wrote (the embedded format) holds exactly the same rows, and the same package again changes nothing', async () => {
    expect(await importReferenceFile(temp.stores.referenceData, { file: builtCsv, format: 'brandbase-brands' })).toMatchObject({ rowsRead: 3, inserted: 0, updated: 0, unchanged: 3, removed: 0 });
    expect(await importReferenceFile(temp.stores.referenceData, { file: v1, format: 'nsi' })).toMatchObject({ inserted: 0, updated: 0, unchanged: 3, removed: 0 });
  });

  it('search finds a knowledge-set brand by its name and its other names before anything was crawled', async () => {
    const hit = { name: 'Burger Co', domain: 'burgerco.com', claimed: false, icon: null, brandId: null, qualityScore: null };
    expect((await searchFor('burger co'))[0]).toEqual(hit);
    expect((await searchFor('Burger'))[0]).toEqual(hit);
    expect((await searchFor('バーガーコー'))[0]).toEqual(hit);
    expect((await searchFor('mart co'))[0]).toMatchObject({ name: 'Mart Co', domain: 'martco.com', brandId: null });
    // A match name that shares no word with the brand's own names (another chain's) is not one of its names.
    expect((await searchFor('other chain')).map((h) => h.domain)).not.toContain('burgerco.com');
  });

  it('a newer package replaces the set: changed rows updated, new ones added, gone ones removed, search follows', async () => {
    const report = await importReferenceFile(temp.stores.referenceData, { file: v2, format: 'nsi' });
    expect(report).toMatchObject({ sourceDate: '2099-02-01', rowsRead: 12, inserted: 1, updated: 2, unchanged: 0, removed: 1 });
    expect(await temp.stores.referenceData.knownBrandsByDomain('martco.com')).toEqual([]);
    expect(await temp.stores.referenceData.knownBrandsByDomain('burgerco.com')).toEqual([
      { ...BURGER_CO, matchNames: ['burger co france', 'burger ko', normalizeName('バーガーコー'), 'burger co restaurant'], countrySites: { ...BURGER_CO.countrySites, FR: 'burgerco.fr' }, sourceDate: '2099-02-01' },
    ]);
    expect(await temp.stores.referenceData.knownBrandsByDomain('teatime.co.uk')).toMatchObject([{ name: 'Tea Time', countries: ['GB'], sourceDate: '2099-02-01' }]);
    expect((await searchFor('mart co')).map((h) => h.domain)).not.toContain('martco.com');
    expect((await searchFor('tea time'))[0]).toMatchObject({ name: 'Tea Time', domain: 'teatime.co.uk', brandId: null });
  });
});
