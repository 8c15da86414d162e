/**
 * Issue 33 through the real service on a real socket, on SQLite and on PostgreSQL: a hostile SVG logo is drawn in
 * the SVG render pool, so while its render is in flight `/healthz`, a cached brand lookup and `/assets/` are
 * answered; the render is killed at the pool's limit and the CDN answers the fallback (and does not draw that SVG
 * again); a request finding the pool full gets the fallback at once. The variant area keeps its byte budget by
 * deleting the least recently used variants, and a brand at its variant limit gets new sizes scaled from its stored
 * raster, never stored. The time limit's moment is the test's (the pool's `startLimit`): no timing is asserted.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SvgRenderPool } from '../../src/cdn/svg-render-pool.js';
import { logoVariantKey } from '../../src/cdn/variant-cache.js';
import { variantGeometry } from '../../src/cdn/variant-geometry.js';
import type { Logo } from '../../src/domain/brand.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { svgRenderWorkerEntry } from '../../src/main/svg-render-entry.js';
import { describeEachBackend } from '../helpers/backends.js';
import { filterBombSvg, plainSvg } from '../helpers/hostile-svg.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';

/** A 330×330 PNG of random pixels: incompressible, so each variant of it costs about 436 KB in the variant area. */
async function noisePng(seed: number): Promise<Buffer> {
  const data = Buffer.alloc(330 * 330 * 4);
  let x = seed * 2_654_435_761;
  for (let i = 0; i < data.length; i++) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    data[i] = x & 0xff;
  }
  return sharp(data, { raw: { width: 330, height: 330, channels: 4 } }).png().toBuffer();
}

describeEachBackend('logo CDN bounds (issue 33)', (backend) => {
  let stack: TestStack;
  let app: FastifyInstance;
  let base: string;
  let pool: SvgRenderPool;
  let CID: string;
  let key: string;
  let iconKey: string;
  const expiries: (() => void)[] = [];
  let starts = 0;
  const noise: Record<string, string> = {};
  let sizesSvgKey: string;

  const logo = (path: string) => fetch(`${base}/logo${path}?c=${CID}`);
  const save = async (domain: string, logos: Logo[]) => {
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand: sampleBrand(domain, { logos }), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: domain }]);
  };
  const svgLogo = async (svg: string, width: number, height: number, raster?: Buffer): Promise<Logo> => {
    const stored = await stack.services.assets.put(Buffer.from(svg), 'svg');
    const formats: Logo['formats'] = [{ src: stored.key, format: 'svg', width, height, size: stored.size, background: null }];
    if (raster) {
      const png = await stack.services.assets.put(raster, 'png');
      const meta = await sharp(raster).metadata();
      formats.push({ src: png.key, format: 'png', width: meta.width ?? 0, height: meta.height ?? 0, size: png.size, background: null });
    }
    return { theme: null, type: 'logo', tags: [], formats };
  };

  beforeAll(async () => {
    stack = await startTestStack(
      { BRANDBASE_CRAWL_ISOLATION: 'off', BRANDBASE_WORKER_CONCURRENCY: '0', BRANDBASE_CDN_MEMORY_MB: '0', BRANDBASE_CDN_VARIANT_BUDGET_MB: '1', BRANDBASE_CDN_VARIANTS_PER_BRAND: '3' },
      { backend },
    );
    // One worker and no queue: a second SVG render while the hostile one runs is refused at once.
    pool = new SvgRenderPool({ entry: svgRenderWorkerEntry(), workers: 1, queue: 0, timeoutMs: 60_000, memoryMb: 256, startLimit: (_ms, expire) => (expiries.push(expire), () => undefined) });
    pool.events.on('start', () => (starts += 1));
    app = await buildApp(appDepsFor({ ...stack.services, svgRenderer: pool }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const org = await stack.services.accounts.createOrganization({ name: 'CDN bounds', plan: 'paid' });
    CID = (await stack.services.clientIds.create(org.id)).id;
    key = (await stack.newKey()).key;
    await save('hostile.test', [await svgLogo(filterBombSvg(), 1000, 1000)]);
    const icon = await stack.services.assets.put(await sharp({ create: { width: 64, height: 64, channels: 4, background: '#dc2626' } }).png().toBuffer(), 'png');
    iconKey = icon.key;
    const plainRaster = await sharp(Buffer.from(plainSvg(400, 200))).png().toBuffer();
    await save('zephyr.test', [
      { theme: null, type: 'icon', tags: [], formats: [{ src: icon.key, format: 'png', width: 64, height: 64, size: icon.size, background: null }] },
      await svgLogo(plainSvg(), 200, 100, plainRaster),
    ]);
    const sizes = await svgLogo(plainSvg(200, 100, '#059669'), 200, 100, plainRaster);
    sizesSvgKey = sizes.formats[0]!.src;
    await save('sizes.test', [sizes]);
    for (const name of ['na', 'nb', 'nc']) {
      const png = await stack.services.assets.put(await noisePng(name.charCodeAt(1)), 'png');
      noise[name] = png.key;
      await save(`${name}.test`, [{ theme: null, type: 'icon', tags: [], formats: [{ src: png.key, format: 'png', width: 330, height: 330, size: png.size, background: null }] }]);
    }
  });

  afterAll(async () => {
    await app?.close();
    await pool?.close();
    await stack?.close();
  });

  it('answers /healthz, a cached lookup and /assets/ while a hostile SVG renders; the render is killed and the fallback answers', async () => {
    // The lookup is cached before the hostile render starts. The pool is shared by this file's tests, which run in
    // any order: its counters and time limits are read as what this test adds to them.
    expect((await fetch(`${base}/v2/brands/zephyr.test`, { headers: bearer(key) })).status).toBe(200);
    const limitsBefore = expiries.length;
    const statsBefore = pool.stats();
    const started = once(pool.events, 'start');
    const hostile = logo('/hostile.test/type/logo/w/1000.png');
    await started;
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    const lookup = await fetch(`${base}/v2/brands/zephyr.test`, { headers: bearer(key) });
    expect(lookup.status).toBe(200);
    expect(((await lookup.json()) as { domain: string }).domain).toBe('zephyr.test');
    const asset = await fetch(`${base}/assets/${iconKey}`);
    expect(asset.status).toBe(200);
    await asset.arrayBuffer();
    // A second SVG render finds the one worker busy and no room to wait: the fallback, at once.
    const busy = await logo('/zephyr.test/type/logo/w/77.png');
    expect(busy.status).toBe(200);
    expect(busy.headers.get('x-bf-fallback')).toBe('default');
    expect(busy.headers.get('cache-control')).toBe('public, max-age=300');
    // All of that was answered while the hostile render was still in flight.
    expect(pool.stats()).toMatchObject({ running: 1, timedOut: statsBefore.timedOut, refused: statsBefore.refused + 1 });

    expect(expiries).toHaveLength(limitsBefore + 1);
    const ended = once(pool.events, 'end');
    expiries[limitsBefore]!();
    expect((await ended)[0]).toMatchObject({ outcome: 'timeout' });
    const answer = await hostile;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-bf-fallback')).toBe('default');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    const image = await sharp(Buffer.from(await answer.arrayBuffer())).metadata();
    expect([image.format, image.width]).toEqual(['png', 1000]);
    expect(pool.stats()).toMatchObject({ running: 0, timedOut: statsBefore.timedOut + 1 });

    // The killed SVG is not drawn again, at any size; the refused one is drawn once the pool has room.
    const before = starts;
    const again = await logo('/hostile.test/type/logo/w/200.webp');
    expect(again.headers.get('x-bf-fallback')).toBe('default');
    expect(starts).toBe(before);
    const drawn = await logo('/zephyr.test/type/logo/w/77.png');
    expect(drawn.headers.get('x-bf-fallback')).toBeNull();
    expect((await sharp(Buffer.from(await drawn.arrayBuffer())).metadata()).width).toBe(77);
    expect(starts).toBe(before + 1);
  });

  it('a brand at its variant limit gets new sizes scaled from its stored raster, not drawn from its SVG and not stored', async () => {
    const budget = stack.services.variantBudget;
    for (const w of [10, 11, 12]) expect((await logo(`/sizes.test/type/logo/w/${w}.png`)).headers.get('x-bf-fallback')).toBeNull();
    expect(budget.variantsOf('sizes.test')).toBe(3);
    const before = starts;
    const scaled = await logo('/sizes.test/type/logo/w/13.png');
    expect(scaled.status).toBe(200);
    expect(scaled.headers.get('x-bf-fallback')).toBeNull();
    expect(scaled.headers.get('x-bf-upscaled')).toBeNull();
    const image = await sharp(Buffer.from(await scaled.arrayBuffer())).metadata();
    expect([image.width, image.height]).toEqual([13, 7]);
    // Larger than the stored raster (400 px): scaled up, and said so.
    const large = await logo('/sizes.test/type/logo/w/800.png');
    expect(large.headers.get('x-bf-upscaled')).toBe('true');
    expect((await sharp(Buffer.from(await large.arrayBuffer())).metadata()).width).toBe(800);
    expect(starts).toBe(before);
    expect(budget.variantsOf('sizes.test')).toBe(3);
    const keyOf = (w: number) => logoVariantKey(sizesSvgKey, variantGeometry({ width: w, height: null }, { width: 200, height: 100 }, true), 'png');
    expect(await stack.services.assets.getVariant(keyOf(13))).toBeNull();
    expect(await stack.services.assets.getVariant(keyOf(12))).not.toBeNull();
    // A size it already has is still served from the variant area.
    expect((await logo('/sizes.test/type/logo/w/12.png')).status).toBe(200);
  });

  it('past the byte budget the least recently used variants are deleted from the variant area', async () => {
    const budget = stack.services.variantBudget;
    const keyOf = (name: string) => logoVariantKey(noise[name]!, variantGeometry({ width: 330, height: null }, { width: 330, height: 330 }, false), 'png');
    const stored = async (name: string) => (await stack.services.assets.getVariant(keyOf(name))) !== null;
    const get = async (name: string) => {
      const res = await logo(`/${name}.test/w/330.png`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-bf-fallback')).toBeNull();
      await res.arrayBuffer();
      await budget.settled();
    };
    await get('na');
    await get('nb');
    expect([await stored('na'), await stored('nb')]).toEqual([true, true]);
    // na is used again (read from the variant area), so nb is now the least recently used.
    await get('na');
    await get('nc');
    expect([await stored('na'), await stored('nb'), await stored('nc')]).toEqual([true, false, true]);
    // nb asked for again is drawn again and stored; na is now the oldest and goes.
    await get('nb');
    expect([await stored('na'), await stored('nb'), await stored('nc')]).toEqual([false, true, true]);
    expect(budget.usage.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(budget.evicted).toBeGreaterThanOrEqual(2);
  });
});
