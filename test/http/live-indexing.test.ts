/**
 * Live indexing on a lookup miss: the real service (SQLite temp file, real SafeFetcher, real asset store) crawls
 * fixture websites served on loopback through the host map. HTTP through Fastify inject.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand } from '../../src/domain/brand.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { filesContaining, readDatabaseFiles } from '../helpers/database-files.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';

let sites: FixtureSites;
let stack: TestStack;
let key: string;

const homepageHits = (site: keyof typeof FIXTURE_HOSTS): number => sites.sites[site].requests.filter((p) => p === '/').length;

beforeAll(async () => {
  sites = await startFixtureSites();
  // The default crawl budget: what a complete record needs must not depend on how busy the machine is. The sites
  // that must fail on the budget get a stack of their own with a short one (below).
  stack = await startTestStack({ BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap) });
  ({ key } = await stack.newKey({ quota: 1000 }));
});

afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

describe('a brand that is not held is indexed live and answered 200', () => {
  let brand: Brand;

  beforeAll(async () => {
    const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.northwind}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    brand = res.json();
  });

  it('has the record shape of spec 2.1 with real values', () => {
    expect(Object.keys(brand).sort()).toEqual(
      ['claimed', 'colors', 'company', 'description', 'domain', 'fonts', 'id', 'images', 'isNsfw', 'links', 'logos', 'longDescription', 'name', 'qualityScore', 'urn'].sort(),
    );
    expect(brand.id).toMatch(/^brd_[a-z2-7]{20}$/);
    expect(brand.urn).toBe(`urn:brandbase:brand:${brand.id}`);
    expect(brand.domain).toBe(FIXTURE_HOSTS.northwind);
    expect(brand.name).toBeTruthy();
    expect(brand.claimed).toBe(false);
    expect(brand.isNsfw).toBe(false);
    expect(brand.qualityScore).toBeGreaterThanOrEqual(2 / 3);
    expect(brand.logos.length).toBeGreaterThan(0);
    expect(brand.colors.length).toBeGreaterThan(0);
  });

  it('colours carry the spec brightness formula exactly', () => {
    for (const color of brand.colors) {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.hex.slice(i, i + 2), 16)) as [number, number, number];
      expect(color.brightness).toBeCloseTo(0.2126 * r + 0.7152 * g + 0.0722 * b, 1);
    }
  });

  it('every logo and image file is served by Brandbase with its real type and size', async () => {
    const formats = [...brand.logos, ...brand.images].flatMap((l) => l.formats);
    expect(formats.length).toBeGreaterThan(0);
    for (const format of formats) {
      expect(format.src.startsWith('http://brandbase.test/assets/')).toBe(true);
      const res = await stack.app.inject({ method: 'GET', url: new URL(format.src).pathname });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(format.format === 'svg' ? 'image/svg+xml' : `image/${format.format}`);
      expect(res.rawPayload.length).toBe(format.size);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // Every file has its size, the SVG included (from its viewBox): asserted, not checked only when present.
      expect(format.width, format.src).toBeGreaterThanOrEqual(16);
      expect(format.height, format.src).toBeGreaterThanOrEqual(16);
    }
  });

  it('a second lookup is answered from the store without crawling again', async () => {
    const before = homepageHits('northwind');
    const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/www.${FIXTURE_HOSTS.northwind}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(brand);
    expect(homepageHits('northwind')).toBe(before);
  });

  it('the brand ID answers the same brand', async () => {
    const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${brand.id}`, headers: bearer(key) });
    expect(res.json()).toEqual(brand);
  });
});

describe('single flight', () => {
  it('two concurrent lookups of the same unindexed domain start one crawl', async () => {
    const before = homepageHits('nightjar');
    const [a, b] = await Promise.all([
      stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.nightjar}`, headers: bearer(key) }),
      stack.app.inject({ method: 'GET', url: `/v2/brands/domain/${FIXTURE_HOSTS.nightjar}`, headers: bearer(key) }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    expect(homepageHits('nightjar') - before).toBe(1);
  });
});

describe('sites that give no brand answer 404 cleanly and are not charged', () => {
  // A 3 s crawl budget, so the trickling site fails in 3 s rather than the default 20.
  let short: TestStack;
  let shortKey: string;
  let shortOrg: string;

  beforeAll(async () => {
    short = await startTestStack({ BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap), BRANDBASE_CRAWL_TIMEOUT_MS: '3000' });
    ({ key: shortKey, orgId: shortOrg } = await short.newKey({ quota: 1000 }));
  });

  afterAll(async () => {
    await short?.close();
  });

  it.each([
    ['robots.txt disallows the crawler', FIXTURE_HOSTS.robotsBlocked],
    ['the homepage is endless', FIXTURE_HOSTS.hugepage],
    ['the homepage trickles past the crawl budget', FIXTURE_HOSTS.slowpoke],
    ['nothing answers at the domain', 'unmapped-nowhere.test'],
  ])('%s', async (_why, host) => {
    const before = await short.services.meter.exactUsed(shortOrg);
    // No clock: the trickling page would load in full after a minute (a brand, 200), so its 404 shows a deadline
    // ended it (which one is crawl-brand.test.ts's concern); the endless one can only end at the download cap.
    const res = await short.app.inject({ method: 'GET', url: `/v2/brands/${host}`, headers: bearer(shortKey) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'No brand found for this identifier.', payment: { charged: false } });
    expect(await short.services.meter.exactUsed(shortOrg)).toBe(before);
  });

  it('robots.txt is honoured: the homepage itself was never requested', () => {
    expect(sites.sites.robotsBlocked.requests).not.toContain('/');
  });
});

describe('other sites', () => {
  it('a site that redirects to another registrable domain is the brand of the new domain, reachable by both', async () => {
    const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.oldname}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json().domain).toBe(FIXTURE_HOSTS.newname);
    const again = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.newname}?cachedOnly=true`, headers: bearer(key) });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(res.json().id);
  });

  it('a site with no logo at all is a brand with empty logos and a low quality score', async () => {
    const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.plainfield}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const brand: Brand = res.json();
    expect(brand.logos).toEqual([]);
    expect(brand.isNsfw).toBe(false);
    expect(brand.qualityScore).toBeLessThan(1 / 3);
  });

  it('an adult site is flagged, and allowNsfw=false answers 404', async () => {
    const flagged = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.velvetroom}`, headers: bearer(key) });
    expect(flagged.json().isNsfw).toBe(true);
    const refused = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.velvetroom}?allowNsfw=false`, headers: bearer(key) });
    expect(refused.statusCode).toBe(404);
  });
});

describe('privacy: website URLs and email addresses are not stored and not logged', () => {
  it('neither the database nor the logs contain the mailbox name or the URL path', async () => {
    const email = `zelda.secretmailbox@${FIXTURE_HOSTS.newname}`;
    const url = `https://www.${FIXTURE_HOSTS.newname}/private-path-xyz?token=hunter2`;
    for (const id of [email, encodeURIComponent(url)]) {
      const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${id}`, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
    }
    await stack.services.meter.flush();
    const files = await readDatabaseFiles(stack.dataDir);
    // Control: the scan sees the brand those lookups stored, so not finding the rest means something.
    expect(filesContaining(files, FIXTURE_HOSTS.newname)).not.toEqual([]);
    for (const needle of ['zelda.secretmailbox', 'private-path-xyz', 'hunter2']) {
      expect(filesContaining(files, needle), needle).toEqual([]);
      expect(stack.logs()).not.toContain(needle);
    }
    expect(stack.logs()).toContain(`"domain":"${FIXTURE_HOSTS.newname}"`);
  });
});
