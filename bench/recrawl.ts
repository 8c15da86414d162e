/**
 * Re-crawl cost (issue 19 item 1, docs/refresh.md "The analysis cache"): the time of a re-crawl of an unchanged site
 * against a first crawl of the same site, in one run, without network. The labelled logo corpus
 * (eval/logos/eval-sites.ts, 65 sites) is served from memory (bench/memory-fetcher.ts), so the figures are the
 * crawl's CPU: parsing, deciding, and every image file sniffed, decoded, measured, colour-clustered and classified.
 *
 * Per site and round, into a new asset folder (a first crawl writes every listed file):
 *   1. first crawl: nothing known;
 *   2. re-crawl without the cache (what a refresh cost before the content-hash cache): same folder, nothing known;
 *   3. re-crawl with the cache: same folder, the analyses the first crawl used (as the indexer loads them).
 * Per-site medians over ROUNDS, summed. Ratios below 1 mean the re-crawl costs less.
 *
 *   node --import tsx bench/recrawl.ts [--rounds 5] [--json]
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crawlBrand, type CrawlOutcome } from '../src/crawl/crawl-brand.js';
import type { AnalysisRecord } from '../src/crawl/analysis-memo.js';
import { LocalAssetStore } from '../src/assets/local/local-asset-store.js';
import { buildEvalSites } from '../eval/logos/eval-sites.js';
import { argValue, memoryFetcher } from './memory-fetcher.js';

const ROUNDS = Number(argValue('--rounds') ?? 5);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

async function timedCrawl(run: () => Promise<CrawlOutcome>): Promise<{ ms: number; outcome: CrawlOutcome }> {
  const started = performance.now();
  const outcome = await run();
  return { ms: performance.now() - started, outcome };
}

export interface RecrawlFigures {
  sites: number;
  rounds: number;
  firstCrawlTotalMs: number;
  recrawlWithoutCacheTotalMs: number;
  recrawlTotalMs: number;
  /** Re-crawl with the cache / first crawl. */
  ratio: number;
  /** Re-crawl with the cache / re-crawl without it. */
  cacheRatio: number;
  /** Files whose analysis the re-crawls reused / analysed anyway, over all sites (one round). */
  reusedFiles: number;
  analysedFiles: number;
}

export async function benchRecrawl(): Promise<RecrawlFigures> {
  const corpus = await buildEvalSites();
  const fetcher = memoryFetcher(Object.fromEntries(corpus.map((s) => [s.host, s.files])));
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-recrawl-'));
  const first: number[] = [];
  const plain: number[] = [];
  const cached: number[] = [];
  let reusedFiles = 0;
  let analysedFiles = 0;
  let folders = 0;
  try {
    // One untimed pass warms the JIT and the decoders, as a serving process is warm.
    for (const site of corpus.slice(0, 5)) await crawlBrand(site.host, { fetcher, assets: new LocalAssetStore({ dir: path.join(dir, 'warm') }) }, { timeoutMs: 30_000 });
    for (const site of corpus) {
      const a: number[] = [];
      const b: number[] = [];
      const c: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const folder = path.join(dir, String(folders++));
        await mkdir(folder);
        const assets = new LocalAssetStore({ dir: folder });
        const initial = await timedCrawl(() => crawlBrand(site.host, { fetcher, assets }, { timeoutMs: 30_000 }));
        if (!initial.outcome.ok) throw new Error(`${site.host}: ${initial.outcome.reason}`);
        const known: AnalysisRecord[] = initial.outcome.analysis?.entries ?? [];
        const without = await timedCrawl(() => crawlBrand(site.host, { fetcher, assets }, { timeoutMs: 30_000 }));
        const withCache = await timedCrawl(() => crawlBrand(site.host, { fetcher, assets, knownAnalyses: known }, { timeoutMs: 30_000 }));
        if (!without.outcome.ok || !withCache.outcome.ok) throw new Error(`${site.host}: re-crawl failed`);
        a.push(initial.ms);
        b.push(without.ms);
        c.push(withCache.ms);
        if (round === 0) {
          reusedFiles += withCache.outcome.analysis?.counts.hits ?? 0;
          analysedFiles += withCache.outcome.analysis?.counts.misses ?? 0;
        }
      }
      first.push(median(a));
      plain.push(median(b));
      cached.push(median(c));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  return {
    sites: corpus.length,
    rounds: ROUNDS,
    firstCrawlTotalMs: round2(sum(first)),
    recrawlWithoutCacheTotalMs: round2(sum(plain)),
    recrawlTotalMs: round2(sum(cached)),
    ratio: round2(sum(cached) / sum(first)),
    cacheRatio: round2(sum(cached) / sum(plain)),
    reusedFiles,
    analysedFiles,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchRecrawl();
  if (process.argv.includes('--json')) console.log(JSON.stringify(figures));
  else {
    console.log(`re-crawl vs first crawl, ${figures.sites} sites × ${figures.rounds} rounds, no network (pages and files in memory)`);
    console.log(`  first crawl                     total ${figures.firstCrawlTotalMs} ms`);
    console.log(`  re-crawl, no analysis cache     total ${figures.recrawlWithoutCacheTotalMs} ms`);
    console.log(`  re-crawl, analysis cache        total ${figures.recrawlTotalMs} ms`);
    console.log(`  ratio re-crawl / first crawl: ${figures.ratio}   with cache / without: ${figures.cacheRatio}`);
    console.log(`  files reused ${figures.reusedFiles}, analysed again ${figures.analysedFiles}`);
  }
}
