/**
 * Context build time per site (issue 21), part of `npm run bench`; alone: `node --import tsx bench/context-build.ts`.
 * The context sites (test/context/context-sites.ts: a purpose-written brand, a near-empty one and the labelled eval
 * sites) are crawled into a real SQLite store by the real indexer, which keeps their context evidence. Then, one
 * brand at a time, through the ContextService: the first request (profile built from the evidence and stored) and a
 * later one (stored profile read), each against a baseline measured in the same run on the same store: reading the
 * brand's row (`getBrand`), which every uncached lookup does. Also the crawl's share: extracting the evidence from
 * parsed pages, against parsing those pages (which the crawl does anyway). Wall-clock figures, never a test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalAssetStore } from '../src/assets/local/local-asset-store.js';
import { BrandIndexer } from '../src/brands/brand-indexer.js';
import type { CachedBrand } from '../src/brands/brand-cache.js';
import { ContextService } from '../src/context/context-service.js';
import { contextEvidence } from '../src/crawl/fields/context-evidence.js';
import { crawlBrand } from '../src/crawl/crawl-brand.js';
import { parseHtmlPage } from '../src/crawl/page/html-page.js';
import { silentLogger } from '../src/platform/logger.js';
import { SafeFetcher } from '../src/platform/safe-fetcher.js';
import type { StoredBrand } from '../src/brands/brand-store.js';
import { openSqliteStore } from '../test/store/open-store.js';
import { startContextSites } from '../test/context/context-sites.js';

const REPEAT = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;
const summary = (values: number[]): Record<string, number> => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: round(percentile(sorted, 0.5)), p95: round(percentile(sorted, 0.95)), max: round(sorted.at(-1) ?? 0) };
};
const median = (values: number[]): number => percentile([...values].sort((a, b) => a - b), 0.5);

function cached(stored: StoredBrand): CachedBrand {
  const json = JSON.stringify(stored.brand);
  return { stored, json, bytes: Buffer.from(json), expires: Number.MAX_SAFE_INTEGER };
}

/** Median of `REPEAT` timings of `run`, in milliseconds. */
async function timed(run: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function benchContextBuild(): Promise<Record<string, unknown>> {
  const sites = await startContextSites();
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-context-bench-'));
  const { migrate, close, stores } = await openSqliteStore({ file: path.join(dir, 'brandbase.sqlite') });
  try {
    await migrate();
    const assets = new LocalAssetStore({ dir: path.join(dir, 'assets') });
    const fetcher = new SafeFetcher({ hostMap: sites.served.hostMap });
    const indexer = new BrandIndexer(stores.brands, (domain) => crawlBrand(domain, { fetcher, assets }, { timeoutMs: 30_000 }), silentLogger());
    const stored: StoredBrand[] = [];
    for (const site of sites.sites) {
      const outcome = await indexer.index(site.host, { retry: true });
      if (outcome.ok) stored.push(outcome.stored);
    }
    const service = new ContextService(stores.context, { publicUrl: 'http://localhost:8080' });
    const builds: number[] = [];
    const reads: number[] = [];
    const baseline: number[] = [];
    for (const brand of stored) {
      const t0 = performance.now();
      await service.contextOf(cached(brand));
      builds.push(performance.now() - t0);
      reads.push(await timed(() => service.contextOf(cached(brand))));
      baseline.push(await timed(() => stores.brands.getBrand(brand.brand.id)));
    }
    // The crawl's share: evidence from pages it parsed anyway, against that parse.
    const extract: number[] = [];
    const parse: number[] = [];
    for (const site of sites.sites) {
      const pages = [...sites.pages(site.host)].map(([p, html]) => ({ url: `https://${site.host}${p}`, body: Buffer.from(html) }));
      const parsed = pages.map((p) => parseHtmlPage(p.body, p.url));
      parse.push(await timed(() => pages.map((p) => parseHtmlPage(p.body, p.url))));
      extract.push(await timed(() => contextEvidence(parsed.map((page, i) => ({ page, kind: i === 0 ? 'home' : 'about' })))));
    }
    return {
      sites: stored.length,
      firstRequestBuildMs: summary(builds),
      laterRequestReadMs: summary(reads),
      baselineStoreReadMs: summary(baseline),
      firstRequestVsStoreRead: round(median(builds) / median(baseline)),
      laterRequestVsStoreRead: round(median(reads) / median(baseline)),
      evidenceExtractMsPerSite: summary(extract),
      evidenceExtractVsParse: round(median(extract) / median(parse)),
    };
  } finally {
    await close();
    await sites.served.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) console.log(JSON.stringify(await benchContextBuild(), null, 2));
