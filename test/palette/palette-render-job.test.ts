/**
 * The palette's background render (ADR 0023, issue 17): after a crawl that did not render, a job renders the brand's
 * home page in the real Chromium through the crawl's air-gapped renderer (every request through the safe fetcher and
 * its host map to the fixture sites on loopback), and the palette is then built from rendered evidence. Real SQLite,
 * real jobs table and worker pool, the service wired as `brandbase serve` wires it. The only wrapper counts renders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrandIndexer } from '../../src/brands/brand-indexer.js';
import { crawlBrand } from '../../src/crawl/crawl-brand.js';
import { BrowserRenderer } from '../../src/crawl/fetch/render/browser-renderer.js';
import type { PageRenderer } from '../../src/crawl/fetch/render/page-renderer.js';
import { JOB_NAMES, type Job, type PaletteRenderPayload } from '../../src/jobs/queue.js';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { WorkerPool } from '../../src/jobs/worker-pool.js';
import { createWorkerPool } from '../../src/main/serve.js';
import { PaletteRenderJob } from '../../src/palette/palette-render-job.js';
import { PaletteRenderScheduler } from '../../src/palette/palette-render-scheduler.js';
import { paletteSaveHook } from '../../src/palette/store/palette-save-hook.js';
import { PaletteService } from '../../src/palette/palette-service.js';
import { silentLogger } from '../../src/platform/logger.js';
import { SafeFetcher, USER_AGENT } from '../../src/platform/safe-fetcher.js';
import type { Palette } from '../../src/domain/palette.js';
import type { StoredBrand } from '../../src/brands/brand-store.js';
import { KyselyBrandStore } from '../../src/brands/store/kysely-brand-store.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { tempAssets, type TempAssets } from '../helpers/temp-assets.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { eventually } from '../helpers/until.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { CHROMIUM_PATH, needsChromium } from '../helpers/optional.js';
import { UNBOUNDED_BUDGETS_ENV } from '../helpers/unbounded-budget.js';

const chromium = CHROMIUM_PATH;

let sites: FixtureSites;

beforeAll(async () => {
  sites = await startFixtureSites();
});

afterAll(async () => {
  await sites.close();
});

/** The service as `serve` wires it, crawling in its own thread (the render path is the same with crawl workers). */
function stackWith(env: Record<string, string>): Promise<TestStack> {
  // Crawls that must succeed get no time budget: a busy machine would otherwise fail them (issue 32).
  return startTestStack({ ...UNBOUNDED_BUDGETS_ENV, BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap), BRANDBASE_CRAWL_ISOLATION: 'off', ...env });
}

async function indexed(stack: TestStack, domain: string): Promise<StoredBrand> {
  const outcome = await stack.services.indexer.index(domain, { retry: true });
  if (!outcome.ok) throw new Error(`${domain}: ${outcome.message}`);
  return outcome.stored;
}

describe('palette background render: when it is queued', () => {
  it('queues nothing without a Chromium executable; the palette is built from the CSS evidence', async () => {
    const stack = await stackWith({ BRANDBASE_CHROMIUM_PATH: '/nonexistent/chromium' });
    try {
      expect(stack.services.paletteRenders.enabled).toBe(false);
      const stored = await indexed(stack, FIXTURE_HOSTS.northwind);
      expect((await stack.services.stores.palette.getStoredPalette(stored.brand.id))?.evidence.source).toBe('css');
      expect(await stack.services.queue.depth()).toBe(0);
      const palette = await stack.services.usecases.palettes?.paletteOf(stored);
      expect(palette?.colors.length).toBeGreaterThan(0);
      expect(palette?.onPairs).toEqual([]);
    } finally {
      await stack.close();
    }
  });

  needsChromium('palette').it('queues nothing with BRANDBASE_PALETTE_RENDER=off, Chromium or not', async () => {
    const stack = await stackWith({ BRANDBASE_CHROMIUM_PATH: chromium ?? '', BRANDBASE_PALETTE_RENDER: 'off' });
    try {
      expect(stack.services.paletteRenders.enabled).toBe(false);
      await indexed(stack, FIXTURE_HOSTS.northwind);
      expect(await stack.services.queue.depth()).toBe(0);
    } finally {
      await stack.close();
    }
  });
});

needsChromium('palette').describe('palette background render in Chromium', () => {
  it('a static site crawled without render gets a job; the worker renders it and the palette gains on-pairs and a dark theme; the brand is not touched', async () => {
    const stack = await stackWith({ BRANDBASE_CHROMIUM_PATH: chromium ?? '' });
    try {
      const { services } = stack;
      expect(services.paletteRenders.enabled).toBe(true);
      const stored = await indexed(stack, FIXTURE_HOSTS.northwind);
      const before = await services.stores.palette.getStoredPalette(stored.brand.id);
      expect(before?.evidence.source).toBe('css');
      // Built from the CSS evidence first, on the first palette=true lookup over HTTP: no on-pairs (spec 2.8), stored.
      const { key } = await stack.newKey();
      const lookup = async (): Promise<{ palette: Palette | null; colors: unknown }> => {
        const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.northwind}?palette=true`, headers: { authorization: `Bearer ${key}` } });
        expect(res.statusCode).toBe(200);
        return res.json() as { palette: Palette | null; colors: unknown };
      };
      const first = await lookup();
      const cssPalette = first.palette;
      expect(cssPalette?.onPairs).toEqual([]);
      expect((await services.stores.palette.getStoredPalette(stored.brand.id))?.palette).not.toBeNull();

      // Exactly one job queued, the operator's own, for this brand and this crawl.
      expect(await services.queue.depth()).toBe(1);
      const job = await services.queue.claim([JOB_NAMES.paletteRender], 60_000);
      expect(job?.owner).toBeNull();
      expect(job?.payload).toEqual({ brandId: stored.brand.id, domain: stored.brand.domain, observedAt: stored.crawledAt.getTime() });
      await services.queue.release(job?.id ?? '');

      const record = await services.stores.brands.getBrand(stored.brand.id);
      const writes = await services.stores.brands.latestBrandWrite();
      // The render's cap widened from the crawl's 12 s: a hang guard on a loaded 2-core machine, not a speed target.
      const pool = createWorkerPool(services, { paletteRenderTimeoutMs: 120_000 });
      pool.start();
      try {
        const done = await eventually(() => services.queue.get(job?.id ?? ''), (j) => j?.state === 'done' || j?.state === 'failed', 180_000);
        expect(done?.lastError).toBeNull();
        expect(done?.state).toBe('done');
      } finally {
        await pool.stop(60_000);
      }

      // The brand record, its colors included, is exactly as the crawl saved it, and no brand write happened.
      expect(await services.stores.brands.getBrand(stored.brand.id)).toEqual(record);
      expect(await services.stores.brands.latestBrandWrite()).toBe(writes);

      const after = await services.stores.palette.getStoredPalette(stored.brand.id);
      expect(after?.evidence.source).toBe('rendered');
      expect(after?.observedAt.getTime()).toBeGreaterThan(stored.crawledAt.getTime());
      // The palette built from the CSS evidence was dropped: the next request builds from the rendered evidence.
      expect(after?.palette).toBeNull();
      // The next palette=true lookup builds from the rendered evidence; the brand's colors are unchanged.
      const later = await lookup();
      expect(later.colors).toEqual(first.colors);
      const palette = later.palette;
      expect(palette?.onPairs.some((p) => p.theme === 'light')).toBe(true);
      // northwind's main.css darkens the canvas under prefers-color-scheme: dark.
      expect(palette?.onPairs.some((p) => p.theme === 'dark')).toBe(true);
      expect(palette?.themes.dark?.background).toBe('#0b0b12');
      expect(palette?.colors.some((c) => c.usage.elements.length > 0)).toBe(true);
      expect(palette?.colors.find((c) => c.role === 'primary')?.hex).toBe(cssPalette?.colors.find((c) => c.role === 'primary')?.hex);
      expect((await services.stores.palette.getStoredPalette(stored.brand.id))?.palette).toEqual(palette);
    } finally {
      await stack.close();
    }
  }, 300_000);

  describe('the job on its own', () => {
    let db: TempDatabase;
    let assets: TempAssets;
    let queue: SqlJobQueue;
    /** The store the crawls save through, the render's scheduler among its save hooks (as services.ts wires it). */
    let saving: KyselyBrandStore;
    let clock = Date.parse('2026-11-01T10:00:00Z');
    let renderer: BrowserRenderer;
    let renders = 0;
    const fetcher = (): SafeFetcher => new SafeFetcher({ hostMap: sites.hostMap });
    /** The real renderer, counting the renders it is asked for. */
    const counting = (inner: PageRenderer): PageRenderer => ({
      render: (url, options) => {
        renders += 1;
        return inner.render(url, options);
      },
    });

    beforeAll(async () => {
      db = await tempSqlite();
      await db.migrate();
      assets = tempAssets();
      queue = new SqlJobQueue(db.database);
      // The evidence's own hook first (as main/product-stores.ts orders them), then the render it queues.
      saving = new KyselyBrandStore(db.database, { saveHooks: [paletteSaveHook, new PaletteRenderScheduler(queue, silentLogger(), { enabled: true, maxDepth: 100 })] });
      renderer = new BrowserRenderer({ executablePath: chromium ?? '', fetcher: fetcher(), userAgent: USER_AGENT });
    });

    afterAll(async () => {
      await renderer.close();
      await db.cleanup();
    });

    /** A static crawl (no renderer) saved at the injected clock's time, queueing its palette render in the save's transaction. */
    async function crawlStatic(domain: string): Promise<{ stored: StoredBrand; payload: PaletteRenderPayload }> {
      const indexer = new BrandIndexer(saving, (d) => crawlBrand(d, { fetcher: fetcher(), assets }, { timeoutMs: 60_000 }), silentLogger(), {
        now: () => new Date(clock),
      });
      const outcome = await indexer.index(domain, { retry: true });
      if (!outcome.ok) throw new Error(outcome.message);
      return { stored: outcome.stored, payload: { brandId: outcome.stored.brand.id, domain: outcome.stored.brand.domain, observedAt: outcome.stored.crawledAt.getTime() } };
    }

    it('skips a job whose brand was re-crawled since, without rendering; the newer crawl\'s job renders', async () => {
      const first = await crawlStatic(FIXTURE_HOSTS.newname);
      clock += 60_000;
      const second = await crawlStatic(FIXTURE_HOSTS.newname);
      expect(second.stored.brand.id).toBe(first.stored.brand.id);
      const job = new PaletteRenderJob({ store: db.stores.brands, palettes: db.stores.palette, renderer: async () => counting(renderer), logger: silentLogger(), enabled: true, timeoutMs: 60_000 });
      renders = 0;
      expect(await job.run(first.payload)).toBe('stale');
      expect(renders).toBe(0);
      const kept = await db.stores.palette.getStoredPalette(first.stored.brand.id);
      expect(kept?.evidence.source).toBe('css');
      expect(kept?.observedAt.getTime()).toBe(second.payload.observedAt);

      expect(await job.run(second.payload)).toBe('rendered');
      expect((await db.stores.palette.getStoredPalette(first.stored.brand.id))?.evidence.source).toBe('rendered');
      // Run again (a retried or duplicated job): the evidence is no longer the crawl's CSS evidence.
      renders = 0;
      expect(await job.run(second.payload)).toBe('stale');
      expect(renders).toBe(0);
    });

    it('leaves the CSS evidence usable when the render fails, and the worker pool schedules a retry', async () => {
      clock += 60_000;
      const { stored, payload } = await crawlStatic(FIXTURE_HOSTS.northwind);
      // Chromium through a fetcher without the host map: northwind.test cannot be reached, so the render yields nothing.
      const unreachable = new BrowserRenderer({ executablePath: chromium ?? '', fetcher: new SafeFetcher({}), userAgent: USER_AGENT });
      const job = new PaletteRenderJob({ store: db.stores.brands, palettes: db.stores.palette, renderer: async () => unreachable, logger: silentLogger(), enabled: true, timeoutMs: 20_000 });
      const pool = new WorkerPool(queue, { [JOB_NAMES.paletteRender]: async (j: Job) => void (await job.run(j.payload as PaletteRenderPayload)) }, silentLogger(), { concurrency: 1, idleMs: 20, retryBaseMs: 600_000 });
      const row = await db.db.selectFrom('jobs').select('id').where('name', '=', JOB_NAMES.paletteRender).where('key', '=', `${payload.brandId}@${payload.observedAt}`).executeTakeFirstOrThrow();
      const queuedAt = Date.now();
      pool.start();
      let failed: Job | null = null;
      try {
        failed = await eventually(() => queue.get(row.id), (j) => j !== null && j.attempts === 1 && j.state === 'queued' && j.lastError !== null);
      } finally {
        await pool.stop(60_000);
        await unreachable.close();
      }
      expect(failed?.lastError).toContain('yielded no samples');
      // Retried later, per the pool's backoff (not at once).
      expect(failed?.runAt.getTime()).toBeGreaterThan(queuedAt + 60_000);
      const kept = await db.stores.palette.getStoredPalette(stored.brand.id);
      expect(kept?.evidence.source).toBe('css');
      expect(kept?.observedAt.getTime()).toBe(payload.observedAt);
      const palette = await new PaletteService(db.stores.palette, assets, { budgetMs: 60_000 }).paletteOf(stored);
      expect(palette?.colors.length).toBeGreaterThan(0);
      expect(palette?.themes.light).toBeDefined();
    });

    it('does nothing where rendering is off in the worker', async () => {
      clock += 60_000;
      const { stored, payload } = await crawlStatic(FIXTURE_HOSTS.newname);
      renders = 0;
      const off = new PaletteRenderJob({ store: db.stores.brands, palettes: db.stores.palette, renderer: async () => counting(renderer), logger: silentLogger(), enabled: false });
      expect(await off.run(payload)).toBe('off');
      const none = new PaletteRenderJob({ store: db.stores.brands, palettes: db.stores.palette, renderer: async () => undefined, logger: silentLogger(), enabled: true });
      expect(await none.run(payload)).toBe('off');
      expect(renders).toBe(0);
      expect((await db.stores.palette.getStoredPalette(stored.brand.id))?.evidence.source).toBe('css');
    });
  });
});
