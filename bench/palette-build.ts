/**
 * Palette build time per site from a stored crawl (issue 17), part of `npm run bench`; alone:
 * `node --import tsx bench/palette-build.ts`. The eval sites (eval/palette) are crawled into a real SQLite store and
 * asset folder by the real indexer, which keeps their palette evidence; then each brand's first palette request
 * (a build: logo files read and decoded, palette built and stored) and a second one (a read) are timed through the
 * PaletteService, one brand at a time. Wall-clock on whatever machine runs it: a figure, never a test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalAssetStore } from '../src/assets/local/local-asset-store.js';
import { BrandIndexer } from '../src/brands/brand-indexer.js';
import { crawlBrand } from '../src/crawl/crawl-brand.js';
import { PaletteService } from '../src/palette/palette-service.js';
import { silentLogger } from '../src/platform/logger.js';
import { SafeFetcher } from '../src/platform/safe-fetcher.js';
import { openSqliteStore } from '../test/store/open-store.js';
import { paletteEvalSites } from '../eval/palette/palette-sites.js';
import { serveSites } from '../eval/record/serve-sites.js';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;
}

const summary = (values: number[]): Record<string, number> => {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 100) / 100;
  return { median: round(percentile(sorted, 0.5)), p95: round(percentile(sorted, 0.95)), max: round(sorted.at(-1) ?? 0) };
};

export async function benchPaletteBuild(): Promise<Record<string, unknown>> {
  const sites = await paletteEvalSites();
  const served = await serveSites(sites);
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-palette-bench-'));
  const { migrate, close, stores } = await openSqliteStore({ file: path.join(dir, 'brandbase.sqlite') });
  try {
    await migrate();
    const assets = new LocalAssetStore({ dir: path.join(dir, 'assets') });
    const fetcher = new SafeFetcher({ hostMap: served.hostMap });
    const indexer = new BrandIndexer(stores.brands, (domain) => crawlBrand(domain, { fetcher, assets }, { timeoutMs: 30_000 }), silentLogger());
    const stored = [];
    for (const site of sites) {
      const outcome = await indexer.index(site.host, { retry: true });
      if (outcome.ok) stored.push(outcome.stored);
    }
    const service = new PaletteService(stores.palette, assets, { budgetMs: 60_000 });
    const builds: number[] = [];
    const reads: number[] = [];
    let built = 0;
    for (const brand of stored) {
      const t0 = performance.now();
      const palette = await service.paletteOf(brand);
      builds.push(performance.now() - t0);
      built += Number(palette !== null);
      const t1 = performance.now();
      await service.paletteOf(brand);
      reads.push(performance.now() - t1);
    }
    return { sites: stored.length, built, firstRequestBuildMs: summary(builds), laterRequestReadMs: summary(reads) };
  } finally {
    await close();
    await served.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) console.log(JSON.stringify(await benchPaletteBuild(), null, 2));
