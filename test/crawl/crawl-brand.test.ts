import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlBrand, type BrandDraft, type CrawlOutcome } from '../../src/crawl/crawl-brand.js';
import { ASSET_KEY_PATTERN } from '../../src/assets/asset-store.js';
import { LocalAssetStore } from '../../src/assets/local/local-asset-store.js';
import type { FetchOptions, Fetcher } from '../../src/platform/fetcher.js';
import { SafeFetcher } from '../../src/platform/safe-fetcher.js';
import { FIXTURE_HOSTS, FIXTURE_ICONS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { UNBOUNDED_BUDGET_MS } from '../helpers/unbounded-budget.js';

let sites: FixtureSites;
let dir: string;
let assets: LocalAssetStore;
let fetcher: SafeFetcher;
/** Every URL the crawler asked for (with the options of its last request), and the most requests in flight at once. */
const requested: string[] = [];
const requestOptions = new Map<string, FetchOptions | undefined>();
let inFlight = 0;
let peakInFlight = 0;
const recordingFetcher: Fetcher = {
  async fetch(url, options) {
    requested.push(url);
    requestOptions.set(url, options);
    inFlight += 1;
    peakInFlight = Math.max(peakInFlight, inFlight);
    try {
      return await fetcher.fetch(url, options);
    } finally {
      inFlight -= 1;
    }
  },
};

beforeAll(async () => {
  sites = await startFixtureSites();
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-crawl-'));
  assets = new LocalAssetStore({ dir });
  fetcher = new SafeFetcher({ hostMap: sites.hostMap });
});

afterAll(async () => {
  await sites?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A crawl with no budget that can fire before the test's own timeout, unless the test gives one to prove it fires. */
async function crawl(host: string, timeoutMs = UNBOUNDED_BUDGET_MS): Promise<CrawlOutcome> {
  return crawlBrand(host, { fetcher: recordingFetcher, assets, now: () => new Date('2026-05-01T00:00:00Z') }, { timeoutMs });
}

async function crawlOk(host: string): Promise<{ domain: string; draft: BrandDraft }> {
  const outcome = await crawl(host);
  if (!outcome.ok) throw new Error(`crawl of ${host} failed: ${outcome.reason} ${outcome.message}`);
  return outcome;
}

/** The stored file behind an asset key, read back from the asset store. */
async function storedBytes(src: string): Promise<Buffer> {
  expect(src).toMatch(ASSET_KEY_PATTERN);
  const stored = await assets.get(src);
  if (!stored) throw new Error(`asset ${src} is not in the store`);
  return stored.bytes;
}

const expectedBrightness = (hex: string): number => {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255);
};

describe('crawlBrand on the full brand site (northwind.test)', () => {
  let draft: BrandDraft;
  let domain: string;
  /** The URLs this crawl asked for and the most it had in flight at once, apart from the other tests' crawls. */
  let northwindRequested: string[];
  let northwindPeak: number;
  const mark = FIXTURE_ICONS.northwind;
  const hex = `#${mark.hex.toLowerCase()}`;

  beforeAll(async () => {
    requested.length = 0;
    peakInFlight = 0;
    ({ draft, domain } = await crawlOk(FIXTURE_HOSTS.northwind));
    northwindRequested = [...requested];
    northwindPeak = peakInFlight;
  });

  it('reads identity and descriptions from the site metadata', () => {
    expect(domain).toBe('northwind.test');
    expect(draft.domain).toBe('northwind.test');
    expect(draft.name).toBe('Northwind');
    expect(draft.claimed).toBe(false);
    expect(draft.description).toBe(
      'Northwind plans, tracks and settles every shipment for independent retailers. One dashboard for carriers, customs and invoices.',
    );
    expect(draft.longDescription).toMatch(/^Northwind is the logistics platform for independent retailers\./);
  });

  it('keeps profile links and ignores share/intent links', () => {
    expect(draft.links).toEqual([
      { name: 'twitter', url: 'https://twitter.com/northwindhq' },
      { name: 'github', url: 'https://github.com/northwind' },
      { name: 'linkedin', url: 'https://www.linkedin.com/company/northwind-logistics' },
    ]);
    expect(JSON.stringify(draft.links)).not.toMatch(/intent|sharer|shareArticle/);
  });

  it('picks a square PNG icon of at least 64 px, stored in the asset store with its real size', async () => {
    const icons = draft.logos.filter((l) => l.type === 'icon');
    expect(icons).toHaveLength(1);
    const [format] = icons[0]?.formats ?? [];
    expect(format).toMatchObject({ format: 'png', width: 512, height: 512 });
    const bytes = await storedBytes(format?.src ?? '');
    expect(format?.size).toBe(bytes.length);
    expect((await stat(path.join(dir, format?.src ?? ''))).size).toBe(format?.size);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('takes the header SVG wordmark as the horizontal logo with its real markup and size', async () => {
    const logos = draft.logos.filter((l) => l.type === 'logo' || l.type === 'symbol');
    expect(logos).toHaveLength(1);
    const logo = logos[0];
    expect(logo?.type).toBe('logo');
    expect(logo?.theme).toBe('dark');
    expect(logo?.formats[0]).toMatchObject({ format: 'svg', width: 132, height: 24, background: 'transparent' });
    const svg = (await storedBytes(logo?.formats[0]?.src ?? '')).toString('utf8');
    expect(svg).toContain(mark.path);
    expect(svg).toContain('Northwind');
  });

  it('never picks a mark from the logo wall, the cookie banner or a UI glyph', async () => {
    const stored = await Promise.all(draft.logos.flatMap((l) => l.formats.map((f) => storedBytes(f.src))));
    const text = stored.map((b) => b.toString('latin1')).join('\n');
    for (const partner of FIXTURE_ICONS.logoWall) expect(text).not.toContain(partner.path);
    expect(text).not.toContain('M3 6h18M3 12h18M3 18h18');
  });

  it('every logo and image src is the key of a file in the asset store, never a URL (answers render URLs)', async () => {
    const srcs = [...draft.logos, ...draft.images].flatMap((x) => x.formats.map((f) => f.src));
    expect(srcs.length).toBeGreaterThan(0);
    for (const src of srcs) expect(src).toMatch(ASSET_KEY_PATTERN);
    for (const src of srcs) expect(await assets.get(src)).not.toBeNull();
    expect(draft.logos.every((l) => l.formats.length > 0)).toBe(true);
  });

  it('reports the official brand hex as the accent with the spec brightness formula', () => {
    const accent = draft.colors.find((c) => c.type === 'accent');
    expect(accent?.hex).toBe(hex);
    expect(draft.colors.filter((c) => c.type === 'accent')).toHaveLength(1);
    for (const color of draft.colors) {
      expect(color.hex).toMatch(/^#[0-9a-f]{6}$/);
      expect(color.brightness).toBeCloseTo(expectedBrightness(color.hex), 2);
    }
    expect(draft.colors).toContainEqual({ hex: '#0b1b3f', type: 'dark', brightness: 26.2 });
    expect(draft.colors).toContainEqual({ hex: '#ffffff', type: 'light', brightness: 255 });
    expect(draft.colors.map((c) => c.hex)).not.toContain('#d92d20');
    expect(draft.colors.length).toBeLessThanOrEqual(6);
  });

  it('reads the Google fonts and their roles from the stylesheets', () => {
    expect(draft.fonts).toEqual([
      {
        name: 'Playfair Display',
        type: 'title',
        origin: 'google',
        originId: 'Playfair Display',
        weights: [{ weight: 700, style: 'normal' }, { weight: 700, style: 'italic' }],
      },
      {
        name: 'Inter',
        type: 'body',
        origin: 'google',
        originId: 'Inter',
        weights: [400, 600, 700].map((weight) => ({ weight, style: 'normal' })),
      },
    ]);
  });

  it('reads firmographics from the JSON-LD Organization', () => {
    expect({ ...draft.company, industries: [] }).toEqual({
      employees: 201,
      financialIdentifiers: null,
      foundedYear: 2014,
      industries: [],
      // legalName "Northwind Logistics B.V.": a B.V. is a private limited company.
      kind: 'PRIVATELY_HELD',
      location: { city: 'Rotterdam', country: 'Netherlands', countryCode: 'NL', region: 'Europe', state: 'South Holland', subregion: 'Western Europe' },
    });
  });

  it('predicts no industry it is unsure of: on this ambiguous page it lists none', () => {
    // A logistics SaaS page ("cloud", "dashboard", "carriers", "invoices"): the classifier (ADR 0025) splits it
    // between transportation and technology and abstains rather than guess. Asserted, not looped over: a loop over
    // an empty list would pass whatever the classifier did.
    expect(draft.company.industries).toEqual([]);
  });

  it('stores the og:image as a banner', async () => {
    expect(draft.images).toHaveLength(1);
    const banner = draft.images[0];
    expect(banner?.type).toBe('banner');
    expect(banner?.tags).toEqual([]);
    expect(banner?.formats[0]).toMatchObject({ format: 'png', width: 1200, height: 630 });
    expect((await storedBytes(banner?.formats[0]?.src ?? '')).length).toBe(banner?.formats[0]?.size);
  });

  it('scores in the upper third and is not NSFW', () => {
    expect(draft.qualityScore).toBeGreaterThanOrEqual(2 / 3);
    expect(draft.isNsfw).toBe(false);
  });

  it('fetches its own stylesheets and @imports, never font-provider or third-party CSS, ≤ 4 at once', () => {
    expect(sites.sites.northwind.requests).toContain('/assets/css/typography.css');
    expect(northwindRequested.filter((u) => /chatvendor|fonts\.googleapis|fonts\.gstatic/.test(u))).toEqual([]);
    expect(northwindRequested.filter((u) => u.includes('/partners/'))).toEqual([]);
    expect(northwindRequested).toContain(`https://${FIXTURE_HOSTS.northwind}/assets/css/typography.css`);
    expect(northwindPeak).toBeLessThanOrEqual(4);
  });
});

describe('crawlBrand on other fixture sites', () => {
  it('a plain page without any logo is ok with empty lists and a lower-third score', async () => {
    const { draft } = await crawlOk(FIXTURE_HOSTS.plainfield);
    expect(draft.name).toBe('Plainfield Community Hall');
    expect(draft.description).toBe('Evening classes, a lending library and room hire in the heart of Plainfield.');
    expect(draft.logos).toEqual([]);
    expect(draft.colors).toEqual([]);
    expect(draft.fonts).toEqual([]);
    expect(draft.images).toEqual([]);
    expect(draft.links).toEqual([]);
    expect(draft.isNsfw).toBe(false);
    expect(draft.qualityScore).toBeLessThan(1 / 3);
    expect(sites.sites.plainfield.requests).toContain('/favicon.ico');
  });

  it('a homepage redirecting to another registrable domain yields the new domain', async () => {
    const { domain, draft } = await crawlOk(FIXTURE_HOSTS.oldname);
    expect(domain).toBe(FIXTURE_HOSTS.newname);
    expect(draft.domain).toBe(FIXTURE_HOSTS.newname);
    expect(draft.name).toBe('Newname');
    const symbol = draft.logos.find((l) => l.type === 'symbol');
    expect(symbol?.formats[0]).toMatchObject({ format: 'svg', width: 40, height: 40 });
    expect(draft.colors.find((c) => c.type === 'accent')?.hex).toBe(`#${FIXTURE_ICONS.newname.hex.toLowerCase()}`);
  });

  it('a robots.txt that disallows everything fails with robots_disallowed', async () => {
    const outcome = await crawl(FIXTURE_HOSTS.robotsBlocked);
    expect(outcome).toMatchObject({ ok: false, reason: 'robots_disallowed' });
    expect(sites.sites.robotsBlocked.requests).not.toContain('/');
  });

  it('a trickling homepage fails with timeout within the budget', async () => {
    // The page trickles for a minute: only a deadline ends this crawl, and the homepage fetch carried the crawl's
    // own (its budget and its signal), so it is that one and not a fetcher default. No clock is read here.
    const outcome = await crawl(FIXTURE_HOSTS.slowpoke, 1500);
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    const home = requestOptions.get(`https://${FIXTURE_HOSTS.slowpoke}/`);
    expect(home?.timeoutMs).toBeGreaterThan(0);
    expect(home?.timeoutMs).toBeLessThanOrEqual(1500);
    expect(home?.signal).toBeInstanceOf(AbortSignal);
  });

  it('an endless homepage fails with too_large, not by running out of time', async () => {
    const outcome = await crawl(FIXTURE_HOSTS.hugepage);
    expect(outcome).toMatchObject({ ok: false, reason: 'too_large' });
  });

  it('a dark header with a currentColor SVG logo gives a light-theme logo; fonts and broken JSON-LD are read', async () => {
    const { draft } = await crawlOk(FIXTURE_HOSTS.nightjar);
    const logo = draft.logos.find((l) => l.type === 'logo');
    expect(logo?.theme).toBe('light');
    expect(logo?.formats[0]).toMatchObject({ format: 'svg', width: 120, height: 24 });
    const svg = (await storedBytes(logo?.formats[0]?.src ?? '')).toString('utf8');
    expect(svg).toContain(FIXTURE_ICONS.nightjar.path);
    expect(svg.toLowerCase()).toContain('#ffffff');
    expect(svg.toLowerCase()).not.toContain('currentcolor');
    expect(draft.fonts).toEqual([
      { name: 'Nightjar Grotesk', type: 'title', origin: 'custom', originId: null, weights: [{ weight: 700, style: 'normal' }] },
      { name: 'Inter', type: 'body', origin: 'google', originId: 'Inter', weights: [{ weight: 100, style: 'normal' }, { weight: 900, style: 'normal' }] },
    ]);
    expect(draft.company).toMatchObject({
      foundedYear: 2019,
      kind: 'PUBLIC_COMPANY',
      financialIdentifiers: { isin: [], ticker: ['NJAR'] },
      location: { city: 'Montréal', countryCode: 'CA', country: 'Canada' },
    });
    expect(draft.links).toEqual([
      { name: 'instagram', url: 'https://instagram.com/nightjar.audio' },
      { name: 'youtube', url: 'https://www.youtube.com/@nightjaraudio' },
    ]);
    expect(draft.colors[0]).toMatchObject({ hex: `#${FIXTURE_ICONS.nightjar.hex.toLowerCase()}`, type: 'accent' });
  });

  it('a site rated adult is NSFW', async () => {
    const { draft } = await crawlOk(FIXTURE_HOSTS.velvetroom);
    expect(draft.isNsfw).toBe(true);
  });

  it('an unresolvable domain fails with dns_failure and one resolving to a private address is blocked', async () => {
    const deps = (answers: Record<string, string>) => ({
      assets,
      fetcher: new SafeFetcher({
        hostMap: sites.hostMap,
        // No real DNS in tests: a table stands in for the resolver.
        lookup: async (hostname: string) => {
          const address = answers[hostname];
          if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
          return [{ address, family: 4 as const }];
        },
      }),
    });
    expect(await crawlBrand('nonexistent.example', deps({}), { timeoutMs: UNBOUNDED_BUDGET_MS })).toMatchObject({ ok: false, reason: 'dns_failure' });
    expect(await crawlBrand('intranet.example', deps({ 'intranet.example': '10.0.0.7' }), { timeoutMs: UNBOUNDED_BUDGET_MS })).toMatchObject({
      ok: false,
      reason: 'blocked',
    });
  });
});
