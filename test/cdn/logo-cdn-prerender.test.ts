/**
 * Issue 33: a crawl pre-renders the logo CDN's common variants of an SVG logo (cdn/prerender-variants.ts), in the
 * crawl worker process, so the CDN answers them from the variant area without drawing the SVG on demand.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRERENDERED_SIZES, prerenderedRequests } from '../../src/cdn/prerender-variants.js';
import { assetKeyOf, originalFor } from '../../src/cdn/logo-choice.js';
import { SvgRenderPool } from '../../src/cdn/svg-render-pool.js';
import { logoVariantKey } from '../../src/cdn/variant-cache.js';
import { variantGeometry } from '../../src/cdn/variant-geometry.js';
import type { Brand } from '../../src/domain/brand.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { svgRenderWorkerEntry } from '../../src/main/svg-render-entry.js';
import { describeEachBackend } from '../helpers/backends.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';

describeEachBackend('logo CDN variants pre-rendered at crawl time (issue 33)', (backend) => {
  let sites: FixtureSites;
  let stack: TestStack;
  let pool: SvgRenderPool;
  let app: FastifyInstance;
  let base: string;
  let CID: string;
  let brand: Brand;

  beforeAll(async () => {
    sites = await startFixtureSites();
    // Crawls and renditions in crawl worker processes, as `brandbase serve` runs them.
    stack = await startTestStack({ BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap), BRANDBASE_WORKER_CONCURRENCY: '0', BRANDBASE_PALETTE_RENDER: 'off' }, { backend });
    pool = new SvgRenderPool({ entry: svgRenderWorkerEntry(), workers: 1, queue: 4, timeoutMs: 60_000, memoryMb: 256 });
    app = await buildApp(appDepsFor({ ...stack.services, svgRenderer: pool }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const org = await stack.services.accounts.createOrganization({ name: 'CDN prerender', plan: 'paid' });
    CID = (await stack.services.clientIds.create(org.id)).id;
    const outcome = await stack.services.indexer.index(FIXTURE_HOSTS.northwind);
    if (!outcome.ok) throw new Error(`${outcome.reason}`);
    brand = outcome.stored.brand;
  });

  afterAll(async () => {
    await app?.close();
    await pool?.close();
    await stack?.close();
    await sites?.close();
  });

  it('stores the default size, w 64 and w 128 (WebP and PNG) and the record\'s own CDN sizes of each SVG logo', async () => {
    const svgLogos = brand.logos.filter((logo) => prerenderedRequests(logo).length > 0);
    expect(svgLogos.length).toBeGreaterThan(0);
    for (const logo of svgLogos) {
      const original = originalFor(logo, 'png')!;
      const requests = prerenderedRequests(logo);
      expect(requests.length).toBeGreaterThanOrEqual(PRERENDERED_SIZES.length * 2);
      for (const { size, format } of requests) {
        const key = logoVariantKey(assetKeyOf(original.src), variantGeometry(size, original, true), format);
        const bytes = await stack.services.assets.getVariant(key);
        expect(bytes, `${logo.type} ${JSON.stringify(size)} ${format}`).not.toBeNull();
        expect((await sharp(bytes!).metadata()).format).toBe(format);
      }
    }
  });

  it('the CDN answers the pre-rendered variants without drawing the SVG', async () => {
    const logo = brand.logos.find((l) => prerenderedRequests(l).length > 0)!;
    const path = `/logo/${FIXTURE_HOSTS.northwind}/type/${logo.type}`;
    for (const url of [`${path}.png`, `${path}/w/64.webp`, `${path}/w/128.png`, path]) {
      const res = await fetch(`${base}${url}?c=${CID}`, { headers: { accept: 'image/webp,*/*' } });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('x-bf-fallback'), url).toBeNull();
      await res.arrayBuffer();
    }
    expect(pool.stats().started).toBe(0);
  });
});
