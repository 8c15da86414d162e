/**
 * The logo CDN over the real service (store, jobs table, asset store, the client-ID gate with client IDs created
 * in the store), through its own Fastify instance (buildCdnApp) with inject, on the API's instance (path prefix and
 * host name), and once over a real socket on loopback. Run on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import type { Brand, Logo } from '../../src/domain/brand.js';
import { buildCdnApp } from '../../src/http/cdn/build-cdn-app.js';
import { cdnDepsFor } from '../../src/main/cdn-deps.js';
import { LogoCdnUrls } from '../../src/cdn/logo-cdn-urls.js';
import { CDN_DEFAULT_SIDE } from '../../src/cdn/variant-geometry.js';
import type { VariantCache } from '../../src/cdn/variant-cache.js';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { clientIdServicesFor } from '../../src/main/client-id-services.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';

const BRAND_COLOR = '#1e40af';
/** Well-formed, never created. */
const UNKNOWN_CID = 'cid_aaaaaaaaaaaaaaaaaaaaaaaa';

interface Pixel {
  r: number;
  g: number;
  b: number;
  a: number;
}

async function decode(bytes: Buffer): Promise<{ width: number; height: number; at: (x: number, y: number) => Pixel; all: Pixel[] }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): Pixel => {
    const o = (y * info.width + x) * 4;
    return { r: data[o]!, g: data[o + 1]!, b: data[o + 2]!, a: data[o + 3]! };
  };
  const all: Pixel[] = [];
  for (let y = 0; y < info.height; y += 1) for (let x = 0; x < info.width; x += 1) all.push(at(x, y));
  return { width: info.width, height: info.height, at, all };
}

const near = (p: Pixel, hex: string, tolerance = 12): boolean => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  return Math.abs(p.r - r) <= tolerance && Math.abs(p.g - g) <= tolerance && Math.abs(p.b - b) <= tolerance && p.a > 240;
};

const solid = (width: number, height: number, hex: string) => sharp({ create: { width, height, channels: 4, background: hex } }).png().toBuffer();

export function logoCdnSuite(env: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>): void {
  let stack: TestStack;
  let cleanup: () => Promise<void>;
  let app: FastifyInstance;
  let variants: VariantCache;
  let brand: Brand;
  let orgId: string;
  /** Client IDs of one paid organization: any referrer; shop.example only; shop.example and a referrer required; revoked. */
  let CID: string;
  let RESTRICTED: string;
  let REQUIRED: string;
  let REVOKED: string;

  const get = (path: string, headers: Record<string, string> = {}, c: string | null = CID, target = () => app) =>
    target().inject({ method: 'GET', url: c === null ? path : `${path}${path.includes('?') ? '&' : '?'}c=${c}`, headers });

  beforeAll(async () => {
    const backend = await env();
    cleanup = backend.cleanup;
    stack = await startTestStack({ ...backend.env, BRANDBASE_CRAWL_ISOLATION: 'off', BRANDBASE_WORKER_CONCURRENCY: '0', BRANDBASE_CDN_PORT: '0' });
    const assets = stack.services.assets;
    const icon = await assets.put(await solid(64, 64, '#dc2626'), 'png');
    const darkSvg = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100"><rect width="200" height="100" fill="#111111"/></svg>';
    const dark = await assets.put(Buffer.from(darkSvg), 'svg');
    const darkPng = await assets.put(await solid(200, 100, '#111111'), 'png');
    const light = await assets.put(await solid(400, 200, '#ffffff'), 'png');
    const logos: Logo[] = [
      { theme: null, type: 'icon', tags: [], formats: [{ src: icon.key, format: 'png', width: 64, height: 64, size: icon.size, background: null }] },
      {
        theme: 'dark',
        type: 'logo',
        tags: [],
        formats: [
          { src: dark.key, format: 'svg', width: 200, height: 100, size: dark.size, background: null },
          { src: darkPng.key, format: 'png', width: 200, height: 100, size: darkPng.size, background: null },
        ],
      },
      { theme: 'light', type: 'logo', tags: [], formats: [{ src: light.key, format: 'png', width: 400, height: 200, size: light.size, background: null }] },
    ];
    brand = sampleBrand('zephyr.test', { name: 'Zephyr Labs', logos, colors: [{ hex: BRAND_COLOR, type: 'brand', brightness: 60 }] });
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'zephyr.test' }]);
    orgId = (await stack.services.accounts.createOrganization({ name: 'CDN org', plan: 'paid' })).id;
    const ids = stack.services.clientIds;
    CID = (await ids.create(orgId)).id;
    RESTRICTED = (await ids.create(orgId, { referrers: ['shop.example'] })).id;
    REQUIRED = (await ids.create(orgId, { referrers: ['*.shop.example'], requireReferrer: true })).id;
    REVOKED = (await ids.create(orgId)).id;
    await ids.revoke(REVOKED);
    const deps = cdnDepsFor(stack.services, stack.services.clientIdGate);
    variants = (deps.cdn as unknown as { variants: VariantCache }).variants;
    app = await buildCdnApp(deps);
  });

  afterAll(async () => {
    await app?.close();
    await stack?.close();
    await cleanup?.();
  });

  it('serves the icon as WebP by default, at its own size (never enlarged without being asked)', async () => {
    const res = await get('/zephyr.test');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['x-bf-upscaled']).toBeUndefined();
    expect(res.headers['x-bf-fallback']).toBeUndefined();
    const image = await decode(res.rawPayload);
    expect([image.width, image.height]).toEqual([64, 64]);
    expect(near(image.at(32, 32), '#dc2626')).toBe(true);
  });

  it('resizes to w and h in each raster format', async () => {
    for (const [ext, type] of [['png', 'image/png'], ['jpg', 'image/jpeg'], ['webp', 'image/webp']] as const) {
      const res = await get(`/zephyr.test/w/32/h/32.${ext}`);
      expect(res.headers['content-type'], ext).toBe(type);
      const image = await decode(res.rawPayload);
      expect([image.width, image.height], ext).toEqual([32, 32]);
    }
    const wide = await decode((await get('/zephyr.test/type/logo/w/100.png')).rawPayload);
    expect([wide.width, wide.height]).toEqual([100, 50]);
    const tall = await decode((await get('/zephyr.test/type/logo/h/20.png')).rawPayload);
    expect([tall.width, tall.height]).toEqual([40, 20]);
  });

  it('says so when a raster is enlarged past its source; an SVG is drawn at the size and is never an upscale', async () => {
    const up = await get('/zephyr.test/w/128.png');
    expect(up.headers['x-bf-upscaled']).toBe('true');
    expect((await decode(up.rawPayload)).width).toBe(128);
    const vector = await get('/zephyr.test/type/logo/theme/dark/w/800.png');
    expect(vector.headers['x-bf-upscaled']).toBeUndefined();
    const image = await decode(vector.rawPayload);
    expect([image.width, image.height]).toEqual([800, 400]);
    expect(near(image.at(400, 200), '#111111')).toBe(true);
  });

  it('fits w×h of another aspect inside the box, centred on transparency', async () => {
    const image = await decode((await get('/zephyr.test/type/logo/theme/dark/w/100/h/100.png')).rawPayload);
    expect([image.width, image.height]).toEqual([100, 100]);
    expect(image.at(50, 5).a).toBe(0);
    expect(near(image.at(50, 50), '#111111')).toBe(true);
  });

  it('theme picks the logo of that theme; without one, the first logo of the type', async () => {
    const light = await decode((await get('/zephyr.test/type/logo/theme/light/w/40.png')).rawPayload);
    expect(near(light.at(20, 10), '#ffffff')).toBe(true);
    const dark = await decode((await get('/zephyr.test/type/logo/theme/dark/w/40.png')).rawPayload);
    expect(near(dark.at(20, 10), '#111111')).toBe(true);
    const first = await decode((await get('/zephyr.test/type/logo/w/40.png')).rawPayload);
    expect(near(first.at(20, 10), '#111111')).toBe(true);
  });

  it('serves SVG for a logo that has one, as a sandboxed document; a logo without one gets its fallback', async () => {
    const res = await get('/zephyr.test/type/logo/theme/dark.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.body).toContain('<rect');
    const sized = await get('/zephyr.test/type/logo/theme/dark/w/50.svg');
    expect(sized.body).toMatch(/width="50"/);
    const rasterOnly = await get('/zephyr.test/type/logo/theme/light/fallback/lettermark.svg');
    expect(rasterOnly.headers['x-bf-fallback']).toBe('lettermark');
    const icon = await get('/zephyr.test/type/icon.svg');
    expect(icon.statusCode).toBe(400);
    expect(icon.headers['x-bf-error']).toBe('svg_not_available');
  });

  it('strong ETag from the bytes; If-None-Match answers 304 without a body; another variant has another tag', async () => {
    const first = await get('/zephyr.test/w/48.png');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await get('/zephyr.test/w/48.png', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
    expect((await get('/zephyr.test/w/48.png', { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await get('/zephyr.test/w/48.png', { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await get('/zephyr.test/w/47.png')).headers.etag).not.toBe(etag);
  });

  it('a cached variant is answered from memory, and a fresh process reads it from the asset store instead of rendering', async () => {
    await get('/zephyr.test/w/24.png');
    const before = { ...variants.stats };
    const hit = await get('/zephyr.test/w/24.png');
    expect(variants.stats.memory).toBe(before.memory + 1);
    expect(variants.stats.rendered).toBe(before.rendered);
    const fresh = cdnDepsFor(stack.services, stack.services.clientIdGate);
    const freshApp = await buildCdnApp(fresh);
    const freshVariants = (fresh.cdn as unknown as { variants: VariantCache }).variants;
    const res = await freshApp.inject({ method: 'GET', url: `/zephyr.test/w/24.png?c=${CID}` });
    expect(freshVariants.stats).toEqual({ memory: 0, store: 1, rendered: 0, scaled: 0 });
    expect(res.headers.etag).toBe(hit.headers.etag);
    await freshApp.close();
  });

  it('long Cache-Control on logos, short on fallbacks; Vary: Accept only where the format was negotiated', async () => {
    const logo = await get('/zephyr.test.png');
    expect(logo.headers['cache-control']).toBe(`public, max-age=${7 * 86_400}`);
    expect(logo.headers.vary).toBeUndefined();
    const negotiated = await get('/zephyr.test', { accept: 'image/png' });
    expect(negotiated.headers['content-type']).toBe('image/png');
    expect(negotiated.headers.vary).toBe('Accept');
    // The same path for a client that takes WebP: each request negotiates its own format (parsed paths are shared).
    expect((await get('/zephyr.test', { accept: 'image/webp,*/*' })).headers['content-type']).toBe('image/webp');
    expect((await get('/zephyr.test', { accept: 'image/png' })).headers['content-type']).toBe('image/png');
    const fallback = await get('/zephyr.test/type/symbol');
    expect(fallback.headers['x-bf-fallback']).toBe('default');
    expect(fallback.headers['cache-control']).toBe('public, max-age=300');
  });

  it('an unknown brand queues one crawl (free) and answers the default fallback at once', async () => {
    const before = await stack.services.queue.depth();
    const res = await get('/fresh-brand.test/w/40.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-bf-fallback']).toBe('default');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const image = await decode(res.rawPayload);
    expect([image.width, image.height]).toEqual([40, 40]);
    expect(near(image.at(1, 1), '#e5e7eb')).toBe(true);
    await get('/fresh-brand.test/w/41.png');
    await get('/domain/fresh-brand.test/fallback/transparent');
    expect(await stack.services.queue.depth()).toBe(before + 1);
  });

  it('transparent fallback: every pixel transparent, at the requested size', async () => {
    const res = await get('/transparent-brand.test/fallback/transparent/w/30/h/20.png');
    const image = await decode(res.rawPayload);
    expect([image.width, image.height]).toEqual([30, 20]);
    expect(image.all.every((p) => p.a === 0)).toBe(true);
  });

  it('404 fallback: 404 with crawl_queued for a brand being crawled, logo_not_found for a missing type or a non-domain', async () => {
    const queued = await get('/queued-brand.test/fallback/404');
    expect(queued.statusCode).toBe(404);
    expect(queued.headers['x-bf-error']).toBe('crawl_queued');
    expect(queued.headers['cache-control']).toBe('public, max-age=300');
    expect(queued.json()).toMatchObject({ code: 'crawl_queued' });
    const missing = await get('/zephyr.test/type/symbol/fallback/404');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-bf-error']).toBe('logo_not_found');
    expect((await get('/ticker/ZZZZ/fallback/404')).headers['x-bf-error']).toBe('logo_not_found');
  });

  it('lettermark: the initial in a contrasting colour, centred on the brand colour', async () => {
    const res = await get('/zephyr.test/type/symbol/fallback/lettermark/w/96.png');
    expect(res.headers['x-bf-fallback']).toBe('lettermark');
    const image = await decode(res.rawPayload);
    expect([image.width, image.height]).toEqual([96, 96]);
    // Corners: the brand colour. The brand colour is dark, so the glyph is white (WCAG contrast).
    for (const [x, y] of [[2, 2], [93, 2], [2, 93], [93, 93]] as const) expect(near(image.at(x, y), BRAND_COLOR)).toBe(true);
    const middle = image.all.filter((_, i) => {
      const x = i % 96;
      const y = Math.floor(i / 96);
      return x >= 28 && x < 68 && y >= 28 && y < 68;
    });
    const white = middle.filter((p) => near(p, '#ffffff', 30)).length;
    const blue = middle.filter((p) => near(p, BRAND_COLOR, 30)).length;
    // A glyph, not a filled box: both colours in the middle, white a real share of it.
    expect(white).toBeGreaterThan(middle.length * 0.15);
    expect(blue).toBeGreaterThan(middle.length * 0.15);
    // Z: its top bar is white across the middle columns, its middle row mostly blue on the left and right edges.
    expect(near(image.at(48, 48 - 20), '#ffffff', 40)).toBe(true);
  });

  it('lettermark of an unknown brand: the domain initial on a colour kept per domain, black or white by contrast', async () => {
    const a = await decode((await get('/quokka-unknown.test/fallback/lettermark/w/64.png')).rawPayload);
    const b = await decode((await get('/quokka-unknown.test/fallback/lettermark/w/64.png')).rawPayload);
    expect(a.at(1, 1)).toEqual(b.at(1, 1));
    const background = a.at(1, 1);
    const glyphPixels = a.all.filter((p) => Math.abs(p.r - background.r) + Math.abs(p.g - background.g) + Math.abs(p.b - background.b) > 200);
    expect(glyphPixels.length).toBeGreaterThan(64 * 64 * 0.05);
    const svg = await get('/quokka-unknown.test/type/logo/fallback/lettermark.svg');
    expect(svg.body).toContain('<path d="M');
  });

  it('refuses bad values with 400 and the exact reason, before the client ID is looked at', async () => {
    for (const [path, code] of [
      ['/zephyr.test/w/0', 'invalid_width'],
      ['/zephyr.test/h/2000', 'invalid_height'],
      ['/zephyr.test/theme/grey', 'invalid_theme'],
      ['/zephyr.test/fallback/blank', 'invalid_fallback'],
      ['/zephyr.test/type/banner', 'invalid_type'],
      ['/zephyr.test/w/10.bmp', 'invalid_format'],
      ['/zephyr.test/x/1', 'invalid_segment'],
      ['/zephyr.test/w/1/w/2', 'duplicate_segment'],
      ['/zephyr.test.svg', 'svg_not_available'],
      ['/not_a_domain!', 'invalid_identifier'],
    ]) {
      // No client ID at all: a grammar error still answers 400 (not 401), so the gate was never asked.
      for (const c of [CID, null]) {
        const res = await get(path!, {}, c);
        expect(res.statusCode, path).toBe(400);
        expect(res.headers['x-bf-error'], path).toBe(code);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.json()).toMatchObject({ code, message: expect.any(String) });
      }
    }
  });

  it('counts served logos on the organization\'s logo volume, apart from search and from API-key credits', async () => {
    const usage = stack.services.clientIdUsage;
    const [logo, search] = [await usage.used(orgId, 'logo'), await usage.used(orgId, 'search')];
    expect((await get('/zephyr.test/w/16.png')).statusCode).toBe(200);
    expect((await get('/zephyr.test/w/0')).statusCode).toBe(400);
    expect(await usage.used(orgId, 'logo')).toBe(logo + 1);
    expect(await usage.used(orgId, 'search')).toBe(search);
    // No credit of the organization's API-key quota is used by the CDN.
    expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
  });

  it('refusals of the client-ID gate: x-bf-error with the exact reason, 403s with a message and a docs link', async () => {
    const documentation = 'http://brandbase.test/docs/logo-cdn#refusals';
    const missing = await get('/zephyr.test', {}, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['x-bf-error']).toBe('client_id_missing');
    const unknown = await get('/zephyr.test', {}, UNKNOWN_CID);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.headers['x-bf-error']).toBe('invalid_client_id');
    const revoked = await get('/zephyr.test', {}, REVOKED);
    expect(revoked.statusCode).toBe(403);
    expect(revoked.headers['x-bf-error']).toBe('client_id_revoked');
    expect(revoked.json()).toEqual({ message: 'This client ID has been revoked.', code: 'client_id_revoked', documentation });
    const foreign = await get('/zephyr.test', { referer: 'https://evil.example/page' }, RESTRICTED);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['x-bf-error']).toBe('referrer_not_allowed');
    expect(foreign.headers['cache-control']).toBe('no-store');
    expect(foreign.json()).toMatchObject({ code: 'referrer_not_allowed', message: expect.stringContaining('not allowed'), documentation });
    expect((await get('/zephyr.test', { referer: 'https://shop.example/p/1' }, RESTRICTED)).statusCode).toBe(200);
    expect((await get('/zephyr.test', { origin: 'https://shop.example' }, RESTRICTED)).statusCode).toBe(200);
    expect((await get('/zephyr.test', { referer: 'https://www.shop.example/' }, RESTRICTED)).statusCode).toBe(403);
    for (const res of [missing, unknown, revoked, foreign]) expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('a server-side fetch (no Referer, no Origin) is served, unless the client ID requires a referrer', async () => {
    expect((await get('/zephyr.test', {}, RESTRICTED)).statusCode).toBe(200);
    expect((await get('/zephyr.test', { origin: 'null' }, RESTRICTED)).statusCode).toBe(200);
    const required = await get('/zephyr.test', {}, REQUIRED);
    expect(required.statusCode).toBe(403);
    expect(required.headers['x-bf-error']).toBe('referrer_required');
    expect(required.json()).toMatchObject({ code: 'referrer_required', documentation: expect.stringContaining('/docs/logo-cdn#refusals') });
    expect((await get('/zephyr.test', { referer: 'https://www.shop.example/cart' }, REQUIRED)).statusCode).toBe(200);
  });

  it('a key used as a client ID is refused, and so is a client ID on a keyed route', async () => {
    const { key } = await stack.newKey();
    const asClientId = await get('/zephyr.test', {}, encodeURIComponent(key));
    expect(asClientId.statusCode).toBe(403);
    expect(asClientId.headers['x-bf-error']).toBe('api_key_not_client_id');
    expect(asClientId.json()).toMatchObject({ code: 'api_key_not_client_id', documentation: expect.any(String) });
    const beside = await get('/zephyr.test', bearer(key), CID);
    expect(beside.statusCode).toBe(403);
    expect(beside.headers['x-bf-error']).toBe('api_key_not_client_id');
    for (const url of [`/v2/brands/zephyr.test?c=${CID}`, `/v2/brands/domain/zephyr.test?c=${CID}`]) {
      const keyed = await stack.app.inject({ method: 'GET', url });
      expect(keyed.statusCode, url).toBe(403);
      expect(keyed.headers['x-bf-error'], url).toBe('client_id_not_accepted');
    }
    const bearerCid = await stack.app.inject({ method: 'GET', url: '/v2/brands/zephyr.test', headers: bearer(CID) });
    expect(bearerCid.headers['x-bf-error']).toBe('client_id_not_accepted');
  });

  it('429 rate_limited per address and per client ID, lifting when the window passes; 429 quota_exceeded far past the volume', async () => {
    let now = Date.UTC(2026, 10, 28, 12);
    const config = loadConfig({
      BRANDBASE_DATA_DIR: stack.dataDir,
      BRANDBASE_LOGO_RATE_PER_IP: '2',
      BRANDBASE_LOGO_RATE_PER_CLIENT_ID: '3',
      BRANDBASE_LOGO_ALLOWANCE_FREE: '2',
      BRANDBASE_CLIENT_ID_HARD_LIMIT_FACTOR: '3',
      BRANDBASE_CLIENT_ID_RATE_WINDOW_MS: '60000',
    });
    const strict = clientIdServicesFor(config, stack.services.stores.billing, stack.services.stores.search, stack.services.logger, stack.services.assetUrls, () => now);
    const strictApp = await buildCdnApp(cdnDepsFor(stack.services, strict.clientIdGate));
    const from = (ip: string, c = CID) => strictApp.inject({ method: 'GET', url: `/zephyr.test.png?c=${c}`, remoteAddress: ip });
    try {
      expect((await from('192.0.2.1')).statusCode).toBe(200);
      expect((await from('192.0.2.1')).statusCode).toBe(200);
      const perIp = await from('192.0.2.1');
      expect(perIp.statusCode).toBe(429);
      expect(perIp.headers['x-bf-error']).toBe('rate_limited');
      expect(Number(perIp.headers['retry-after'])).toBeGreaterThan(0);
      expect(perIp.json()).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('logo') });
      expect((await from('192.0.2.2')).statusCode).toBe(200);
      const perClient = await from('192.0.2.3');
      expect(perClient.statusCode).toBe(429);
      expect(perClient.headers['x-bf-error']).toBe('rate_limited');
      now += 61_000;
      expect((await from('192.0.2.1')).statusCode).toBe(200);

      // A free organization with a volume of 2 a month: soft up to 3× (said in a header), then quota_exceeded.
      const free = (await stack.services.accounts.createOrganization({ name: 'Small site', plan: 'free' })).id;
      const small = (await stack.services.clientIds.create(free)).id;
      const answers = [];
      for (let i = 0; i < 7; i += 1) {
        now += 61_000;
        answers.push(await from('198.51.100.7', small));
      }
      expect(answers.slice(0, 6).map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(answers.slice(0, 6).map((a) => a.headers['x-bf-over-allowance'] ?? null)).toEqual([null, null, 'true', 'true', 'true', 'true']);
      const quota = answers[6]!;
      expect(quota.statusCode).toBe(429);
      expect(quota.headers['x-bf-error']).toBe('quota_exceeded');
      expect(quota.headers['cache-control']).toBe('no-store');
      expect(quota.json()).toMatchObject({ code: 'quota_exceeded', message: expect.stringContaining('logo') });
    } finally {
      await strictApp.close();
      await strict.clientIdUsage.close();
    }
  });

  it('on the API listener: under its path prefix, or for its host name only', async () => {
    const base = { ...cdnDepsFor(stack.services, stack.services.clientIdGate) };
    const prefixed = await buildApp({ ...appDepsFor(stack.services), cdn: { ...base, path: '/logo', host: null } });
    const hosted = await buildApp({ ...appDepsFor(stack.services), cdn: { ...base, path: '', host: 'logo.example.test' } });
    try {
      const underPrefix = await prefixed.inject({ method: 'GET', url: `/logo/zephyr.test/w/20.png?c=${CID}` });
      expect(underPrefix.statusCode).toBe(200);
      expect((await decode(underPrefix.rawPayload)).width).toBe(20);
      expect((await prefixed.inject({ method: 'GET', url: `/logo/zephyr.test/w/0?c=${CID}` })).headers['x-bf-error']).toBe('invalid_width');
      expect((await prefixed.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const onHost = await hosted.inject({ method: 'GET', url: `/zephyr.test/w/20.png?c=${CID}`, headers: { host: 'logo.example.test:8443' } });
      expect(onHost.statusCode).toBe(200);
      expect(onHost.headers['content-type']).toBe('image/png');
      const otherHost = await hosted.inject({ method: 'GET', url: `/zephyr.test/w/20.png?c=${CID}`, headers: { host: 'api.example.test' } });
      expect(otherHost.statusCode).toBe(404);
      expect(otherHost.headers['x-bf-error']).not.toBe('logo_not_found');
      expect((await hosted.inject({ method: 'GET', url: '/healthz', headers: { host: 'api.example.test' } })).statusCode).toBe(200);
      // The wildcard stays out of the API reference.
      expect(JSON.stringify((await prefixed.inject({ method: 'GET', url: '/openapi.json' })).json())).not.toContain('/logo/');
    } finally {
      await prefixed.close();
      await hosted.close();
    }
  });

  it("every CDN URL rendered from the record serves that record's logo, at that size and format", async () => {
    const urls = new LogoCdnUrls('http://cdn.test');
    const rendered = urls.brandUrls(brand);
    expect(rendered.flat().every((u) => u !== null)).toBe(true);
    for (const [i, logo] of brand.logos.entries()) {
      for (const [j, format] of logo.formats.entries()) {
        const url = rendered[i]![j]!;
        const res = await get(url.slice('http://cdn.test'.length));
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['x-bf-fallback'], url).toBeUndefined();
        if (format.format === 'svg') continue;
        const image = await decode(res.rawPayload);
        expect([image.width, image.height], url).toEqual([format.width, format.height]);
        const colour = logo.type === 'icon' ? '#dc2626' : logo.theme === 'light' ? '#ffffff' : '#111111';
        expect(near(image.at(Math.floor(image.width / 2), Math.floor(image.height / 2)), colour), url).toBe(true);
      }
    }
  });

  it('answers over a real socket on loopback', async () => {
    const server = await buildCdnApp(cdnDepsFor(stack.services, stack.services.clientIdGate));
    const address = await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${address}/zephyr.test/w/${CDN_DEFAULT_SIDE / 8}.png?c=${CID}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const image = await decode(Buffer.from(await res.arrayBuffer()));
      expect(image.width).toBe(CDN_DEFAULT_SIDE / 8);
      const notModified = await fetch(`${address}/zephyr.test/w/${CDN_DEFAULT_SIDE / 8}.png?c=${CID}`, { headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
      expect(notModified.status).toBe(304);
    } finally {
      await server.close();
    }
  });
}
