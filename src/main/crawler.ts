/**
 * The crawler the brand indexer calls, chosen by `BRANDBASE_CRAWL_ISOLATION` (ADR 0014): crawl workers (child
 * processes by default, or worker threads: `isolated-crawler.ts`) or the API's own thread (`off`). Loaded on first
 * use either way: admin commands never crawl, and the extractors and Playwright are the slowest modules to load.
 * The renderer (one Chromium per process, ADR 0007) is opened with it and logs whether rendering is on or off.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AssetStore, VariantStore } from '../assets/asset-store.js';
import type { Crawl } from '../brands/brand-indexer.js';
import type { AnalysisRecord } from '../crawl/analysis-memo.js';
import type { Config } from '../config/config.js';
import type { Logo } from '../domain/brand.js';
import type { Logger } from '../platform/logger.js';
import { USER_AGENT, type SafeFetcher } from '../platform/safe-fetcher.js';
import { crawlOptionsFor } from './crawl-options.js';
import type { IsolatedCrawler, WorkerEntry } from '../crawl/isolation/isolated-crawler.js';
import type { PageRenderer } from '../crawl/fetch/render/page-renderer.js';
import type { MetricsRegistry } from '../platform/metrics.js';
import { countedRenderer } from './metrics-renderer.js';

export interface Crawler {
  crawl: Crawl;
  /** The logos with the renditions they lack, or null when none lacks any (media/logo-renditions.ts, ADR 0008). */
  completeLogos(logos: readonly Logo[]): Promise<Logo[] | null>;
  /** Loads the crawler and opens the renderer now (serve does, so the first lookup does not wait for it). */
  warm(): Promise<void>;
  /**
   * The process's renderer (the crawl's one Chromium, ADR 0007), opened on first use without loading the crawler;
   * undefined when no Chromium executable is installed. The palette's background render uses it (ADR 0023).
   */
  renderer(): Promise<PageRenderer | undefined>;
  close(): Promise<void>;
}

export interface CrawlerDeps {
  /** The process's fetcher: the in-process crawl's, and Chromium's in both modes (every browser request). */
  fetcher: SafeFetcher;
  /** Originals, and the logo CDN's variant area (pre-rendered variants). */
  assets: AssetStore & VariantStore;
  /** The folder `assets` writes to: crawl workers open their own store over it. */
  assetsDir: string;
  logger: Logger;
  /** Render counts (ADR 0039); none recorded without it. */
  metrics?: MetricsRegistry;
}

export function openCrawler(config: Readonly<Config>, deps: CrawlerDeps): Crawler {
  return config.crawlIsolation === 'off' ? inProcessCrawler(config, deps) : isolatedCrawler(config, deps);
}

async function openRendererFor(config: Readonly<Config>, deps: CrawlerDeps) {
  const { openRenderer } = await import('../crawl/fetch/render/browser-renderer.js');
  const renderer = openRenderer({ chromiumPath: config.chromiumPath, fetcher: deps.fetcher, userAgent: USER_AGENT, logger: deps.logger });
  return renderer && deps.metrics ? countedRenderer(renderer, deps.metrics) : renderer;
}

/** One renderer per crawler, opened by whichever needs it first: the crawl or the palette's background render. */
function rendererOnce(config: Readonly<Config>, deps: CrawlerDeps): () => ReturnType<typeof openRendererFor> {
  let opening: ReturnType<typeof openRendererFor> | null = null;
  return () => (opening ??= openRendererFor(config, deps));
}

function inProcessCrawler(config: Readonly<Config>, deps: CrawlerDeps): Crawler {
  let loading: Promise<Crawl> | null = null;
  let renderer: { close(): Promise<void>; warm(): Promise<void> } | undefined;
  const openRenderer = rendererOnce(config, deps);
  const load = (): Promise<Crawl> =>
    (loading ??= (async () => {
      const [{ crawlBrand }, opened] = await Promise.all([import('../crawl/crawl-brand.js'), openRenderer()]);
      renderer = opened;
      return (domain: string, _owner?: string | null, known?: readonly AnalysisRecord[]) =>
        crawlBrand(domain, { fetcher: deps.fetcher, assets: deps.assets, renderer: opened, knownAnalyses: known ?? [] }, crawlOptionsFor(config));
    })());
  return {
    crawl: async (domain, owner, known) => (await load())(domain, owner, known),
    // Loaded with the crawler, not before: sharp is among the slowest modules and admin commands never crawl.
    // The logo CDN's common variants of new SVG logos are drawn after the renditions (issue 33), here in this thread
    // as the whole crawl is (the operator chose no isolation).
    completeLogos: async (logos) => {
      const [{ withLogoRenditions }, { prerenderLogoVariants }] = await Promise.all([import('../media/logo-renditions.js'), import('../cdn/prerender-variants.js')]);
      const completed = await withLogoRenditions(logos, deps.assets);
      if (completed) await prerenderLogoVariants(completed, deps.assets);
      return completed;
    },
    // Chromium starts in the background (the server need not wait for it); the first render joins that launch.
    warm: async () => {
      await load();
      void renderer?.warm();
    },
    renderer: async () => (renderer = await openRenderer()),
    close: async () => void (await renderer?.close()),
  };
}

/**
 * The crawl workers' entry: `src/main/crawl-worker.ts` run through tsx when this runs from the sources (tests, `npm
 * run dev`), `dist/main/crawl-worker.js` in the built program (ADR 0018). Written as `../main/` because the build puts
 * this code in `dist/chunks/`, one level below the root like `src/main/`.
 */
export function crawlWorkerEntry(): WorkerEntry {
  const ext = path.extname(fileURLToPath(import.meta.url));
  return { url: new URL(`../main/crawl-worker${ext}`, import.meta.url), typescript: ext === '.ts' };
}

function isolatedCrawler(config: Readonly<Config>, deps: CrawlerDeps): Crawler {
  let loading: Promise<IsolatedCrawler> | null = null;
  let renderer: { close(): Promise<void>; warm(): Promise<void> } | undefined;
  const openRenderer = rendererOnce(config, deps);
  const load = (): Promise<IsolatedCrawler> =>
    (loading ??= (async () => {
      // Worker threads: sharp and resvg are loaded in this thread before any worker starts, so their native
      // libraries stay loaded when a worker exits (sharp's documented worker-thread caveat); this thread never
      // calls them. Worker processes load their own.
      const natives = config.crawlIsolation === 'thread' ? [import('sharp'), import('@resvg/resvg-js')] : [];
      const [{ IsolatedCrawler }, opened] = await Promise.all([import('../crawl/isolation/isolated-crawler.js'), openRenderer(), ...natives]);
      renderer = opened;
      return new IsolatedCrawler({
        entry: crawlWorkerEntry(),
        config,
        assetsDir: deps.assetsDir,
        logger: deps.logger,
        renderer: opened,
        mode: config.crawlIsolation === 'thread' ? 'thread' : 'process',
        workers: config.crawlWorkers,
        memoryMb: config.crawlMemoryMb,
        heapMb: config.crawlMemoryMb,
        hardLimitMs: config.crawlTimeoutMs + config.crawlKillGraceMs,
      });
    })());
  return {
    crawl: async (domain, owner, known) => (await load()).crawl(domain, owner ?? null, known),
    async completeLogos(logos) {
      const { lacksRenditions } = await import('../media/logo-renditions.js');
      // No message when nothing needs encoding (a re-crawl of unchanged logos, ADR 0008).
      return logos.some(lacksRenditions) ? (await load()).renditions(logos) : null;
    },
    warm: async () => {
      const pool = await load();
      // Chromium starts in the background (the server need not wait for it); the first render joins that launch.
      void renderer?.warm();
      await pool.warm(1);
    },
    renderer: async () => (renderer = await openRenderer()),
    async close() {
      const pool = loading ? await loading : null;
      await pool?.close();
      await renderer?.close();
    },
  };
}
