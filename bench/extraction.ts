/**
 * Extraction speed (issue 4 item 9): per-site time of Brandbase's extractor against metascraper (with its
 * logo, logo-favicon and image rules) on the same pages, in one run, without network. Every page and file
 * of the labelled logo corpus (eval/logos/eval-sites.ts) is held in memory and served by an in-memory Fetcher,
 * so both sides pay for parsing and deciding only:
 *   - Brandbase, extraction: `crawlBrand`, the whole record (every page fetched from memory and parsed; logo,
 *     icon, banner and picture files sniffed, decoded, measured, analysed and stored; colours, fonts, company,
 *     industries, NSFW, quality score). Each round gets a new, empty asset folder, so files are really written;
 *   - Brandbase, renditions: the stage the indexer runs on that record before saving it (ADR 0008): PNG/WebP
 *     encodings of each new logo file. Reported apart (a re-crawl of unchanged logos skips it) and together;
 *   - metascraper: logo, favicon and image URLs only (it neither downloads nor decodes them); its favicon
 *     reachability checks are answered from the same memory and its Google favicon lookup is off;
 *   - Brandbase, decisions only: the same job metascraper does (HTML parsed, logo/icon/banner/picture
 *     candidates found and ranked, no file touched), for a like-for-like ratio.
 * Each site runs ROUNDS times per extractor, interleaved; the per-site median is kept. Ratios are of the summed
 * medians (Brandbase / metascraper): below 1 means Brandbase is faster.
 *
 * Then, apart from the ratio, what a user waits for: the live crawl of each site over a loopback server that
 * answers every request after LATENCY_MS (a server across a network), through the real SafeFetcher (robots.txt,
 * the crawl's limit of 4 requests in flight). This is where the order of requests shows, which the in-memory
 * runs cannot see.
 *
 * Crawl isolation (ADR 0014): the same live crawls in the API's own thread (as above), in a crawl worker process
 * (the default, `BRANDBASE_CRAWL_ISOLATION=process`) and in a worker thread, interleaved site by site, from a
 * corpus server in a process of its own (bench/corpus-server.ts: a site the in-process crawl would otherwise
 * answer from its own thread, for free), once with
 * every answer after LATENCY_MS and once with no added latency (the crawl's CPU and loopback I/O only: the
 * extraction figure as a served crawl pays it). Each variant crawls the corpus WARM_PASSES times untimed first (a
 * fresh worker warms its own JIT; a serving worker lives for many crawls).
 *
 *   node --import tsx bench/extraction.ts [--rounds 5] [--latency 20] [--json]
 */
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { crawlBrand } from '../src/crawl/crawl-brand.js';
import { parseHtmlPage } from '../src/crawl/page/html-page.js';
import { findBannerUrls, findHeroBannerUrls } from '../src/crawl/fields/images/images.js';
import { readJsonLd } from '../src/crawl/page/json-ld.js';
import { findIconCandidates, findMarkCandidates } from '../src/crawl/fields/logos/logo-candidates.js';
import { findPictureCandidates } from '../src/crawl/fields/images/pictures.js';
import { LocalAssetStore } from '../src/assets/local/local-asset-store.js';
import { withLogoRenditions } from '../src/media/logo-renditions.js';
import { SafeFetcher } from '../src/platform/safe-fetcher.js';
import { silentLogger } from '../src/platform/logger.js';
import { loadConfig } from '../src/config/config.js';
import { IsolatedCrawler } from '../src/crawl/isolation/isolated-crawler.js';
import { crawlWorkerEntry } from '../src/main/crawler.js';
import { buildEvalSites, type EvalSite, type StaticFile } from '../eval/logos/eval-sites.js';
import { serveVirtualHosts } from '../eval/logos/virtual-hosts.js';
import { argValue, memoryFetcher } from './memory-fetcher.js';

type Extract = (input: { url: string; html: string }) => Promise<Record<string, unknown>>;
interface MetascraperRule {
  pkgName?: string;
}
type RuleFactory = (options?: Record<string, unknown>) => MetascraperRule;

const require = createRequire(import.meta.url);
const metascraper = require('metascraper') as (rules: MetascraperRule[]) => Extract;
const metascraperLogo = require('metascraper-logo') as RuleFactory;
const metascraperLogoFavicon = require('metascraper-logo-favicon') as RuleFactory;
const metascraperImage = require('metascraper-image') as RuleFactory;

const ROUNDS = Number(argValue('--rounds') ?? 5);
const LATENCY_MS = Number(argValue('--latency') ?? 20);
const LIVE_ROUNDS = 3;
/** metascraper refuses URLs whose TLD is not public; the same pages are given a `.com` address there. */
const PUBLIC_TLD = '.com';

function metascraperFor(sites: Record<string, Record<string, StaticFile>>): Extract {
  // Reachability of a favicon URL, answered from memory (the rule's network check, without the network).
  const resolveFaviconUrl = (url: string): Promise<{ url: string } | undefined> => {
    const target = new URL(url);
    const host = target.hostname.replace(/\.com$/, '.test');
    return Promise.resolve(sites[host]?.[target.pathname] ? { url } : undefined);
  };
  return metascraper([metascraperLogo(), metascraperLogoFavicon({ google: false, resolveFaviconUrl }), metascraperImage()]);
}

/** Brandbase's side of metascraper's job: the page parsed and every candidate found, scored and ordered. */
function decideCandidates(host: string, html: string): number {
  const page = parseHtmlPage(Buffer.from(html), `https://${host}/`, 'text/html; charset=utf-8');
  const jsonLd = readJsonLd(page.$);
  const icons = findIconCandidates(page, null);
  const marks = findMarkCandidates({ page, jsonLd, brandName: null, cssRules: [] });
  const banners = [...findBannerUrls(page), ...findHeroBannerUrls(page)];
  const pictures = findPictureCandidates([page], null);
  return icons.length + marks.length + banners.length + pictures.length;
}

async function timed(task: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await task();
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  const corpus = await buildEvalSites();
  const files = Object.fromEntries(corpus.map((s) => [s.host, s.files]));
  const fetcher = memoryFetcher(files);
  const scrape = metascraperFor(files);
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-bench-'));
  const ours: number[] = [];
  const renditions: number[] = [];
  const decisions: number[] = [];
  const theirs: number[] = [];
  let folders = 0;
  let live: number[];
  let isolated: Record<CrawlVariant, number[]>;
  let isolatedNoLatency: Record<CrawlVariant, number[]>;
  try {
    for (const site of corpus) {
      const html = String(site.files['/']?.body ?? '');
      const url = `https://${site.host.replace(/\.test$/, PUBLIC_TLD)}/`;
      const a: number[] = [];
      const r: number[] = [];
      const b: number[] = [];
      const c: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // A new, empty folder per round: every file is written, as on a first crawl. It is made before the clock
        // starts, as a running service's asset folder exists before any crawl.
        const folder = path.join(dir, String(folders++));
        await mkdir(folder);
        const assets = new LocalAssetStore({ dir: folder });
        const started = performance.now();
        const outcome = await crawlBrand(site.host, { fetcher, assets }, { timeoutMs: 20_000 });
        a.push(performance.now() - started);
        if (!outcome.ok) throw new Error(`${site.host}: ${outcome.reason}`);
        r.push(await timed(() => withLogoRenditions(outcome.draft.logos, assets)));
        b.push(await timed(() => scrape({ url, html })));
        c.push(await timed(() => Promise.resolve(decideCandidates(site.host, html))));
      }
      ours.push(median(a));
      renditions.push(median(r));
      decisions.push(median(c));
      theirs.push(median(b));
    }
    live = await liveCrawls(corpus, path.join(dir, 'live'));
    isolated = await isolationCrawls(corpus, path.join(dir, 'isolated'), LATENCY_MS);
    isolatedNoLatency = await isolationCrawls(corpus, path.join(dir, 'isolated-0'), 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const result = {
    sites: corpus.length,
    rounds: ROUNDS,
    brandbaseMedianMs: round(median(ours)),
    renditionsMedianMs: round(median(renditions)),
    brandbaseDecisionsMedianMs: round(median(decisions)),
    metascraperMedianMs: round(median(theirs)),
    brandbaseTotalMs: round(sum(ours)),
    renditionsTotalMs: round(sum(renditions)),
    brandbaseDecisionsTotalMs: round(sum(decisions)),
    metascraperTotalMs: round(sum(theirs)),
    ratio: round(sum(ours) / sum(theirs)),
    withRenditionsRatio: round((sum(ours) + sum(renditions)) / sum(theirs)),
    decisionsRatio: round(sum(decisions) / sum(theirs)),
    liveLatencyMs: LATENCY_MS,
    liveCrawlMedianMs: round(median(live)),
    liveCrawlTotalMs: round(sum(live)),
    isolation: {
      latencyMs: LATENCY_MS,
      ...isolationFigures(isolated, sum),
      noLatency: isolationFigures(isolatedNoLatency, sum),
    },
  };
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  else {
    console.log(`extraction, ${result.sites} sites × ${ROUNDS} rounds, no network (pages and files in memory)`);
    console.log(`  metascraper logo+image          median ${result.metascraperMedianMs} ms/site   total ${result.metascraperTotalMs} ms`);
    console.log(`  Brandbase extraction (record)   median ${result.brandbaseMedianMs} ms/site   total ${result.brandbaseTotalMs} ms`);
    console.log(`  Brandbase rendition stage       median ${result.renditionsMedianMs} ms/site   total ${result.renditionsTotalMs} ms`);
    console.log(`  Brandbase decisions only        median ${result.brandbaseDecisionsMedianMs} ms/site   total ${result.brandbaseDecisionsTotalMs} ms`);
    console.log(`  ratio, extraction producing the full record / metascraper: ${result.ratio} (target ≤ 1)`);
    console.log(`  ratio, extraction + renditions of new logo files (first crawl) / metascraper: ${result.withRenditionsRatio}`);
    console.log(`  ratio, same job (candidate URLs from HTML) / metascraper: ${result.decisionsRatio}`);
    console.log(`live crawl over loopback, every answer after ${LATENCY_MS} ms: median ${result.liveCrawlMedianMs} ms/site   total ${result.liveCrawlTotalMs} ms`);
    for (const [label, figures] of [[`every answer after ${LATENCY_MS} ms`, result.isolation], ['no added latency', result.isolation.noLatency]] as const) {
      console.log(`crawl isolation, live crawl over loopback, ${label} (total ms over ${result.sites} sites, median of ${LIVE_ROUNDS}):`);
      console.log(`  in process ${figures.inProcessTotalMs}   worker process ${figures.processTotalMs} (×${figures.processRatio})   worker thread ${figures.threadTotalMs} (×${figures.threadRatio})`);
    }
  }
}

/** Each site crawled as `brandbase crawl` would, from a server LATENCY_MS away; median wall time per site of 3. */
async function liveCrawls(corpus: EvalSite[], dir: string): Promise<number[]> {
  const server = await serveVirtualHosts(Object.fromEntries(corpus.map((s) => [s.host, s.files])), { latencyMs: LATENCY_MS });
  const fetcher = new SafeFetcher({ hostMap: server.hostMap });
  const assets = new LocalAssetStore({ dir });
  const times: number[] = [];
  try {
    for (const site of corpus) {
      const runs: number[] = [];
      for (let i = 0; i < LIVE_ROUNDS; i++) runs.push(await timed(() => crawlBrand(site.host, { fetcher, assets }, { timeoutMs: 20_000 })));
      times.push(median(runs));
    }
  } finally {
    await server.close();
  }
  return times;
}

type CrawlVariant = 'inProcess' | 'process' | 'thread';
/** Untimed passes over the corpus per variant first: a worker's JIT warms up on its own (a long-lived worker's state). */
const WARM_PASSES = 3;

/**
 * Each site crawled in process, in a worker process and in a worker thread (one worker each, as `brandbase crawl`
 * would use), interleaved; median wall time per site of LIVE_ROUNDS, after WARM_PASSES untimed passes per variant.
 */
async function isolationCrawls(corpus: EvalSite[], dir: string, latencyMs: number): Promise<Record<CrawlVariant, number[]>> {
  const server = await corpusServer(latencyMs);
  const fetcher = new SafeFetcher({ hostMap: server.hostMap });
  const assets = new LocalAssetStore({ dir });
  const config = loadConfig({ BRANDBASE_DATA_DIR: dir, BRANDBASE_CRAWL_HOSTS: JSON.stringify(server.hostMap), BRANDBASE_LOG_LEVEL: 'warn' });
  const pool = (mode: 'process' | 'thread') =>
    new IsolatedCrawler({ entry: crawlWorkerEntry(), config, assetsDir: dir, logger: silentLogger(), mode, workers: 1, memoryMb: 1024, heapMb: 1024, hardLimitMs: 60_000 });
  const pools = { process: pool('process'), thread: pool('thread') };
  const crawl: Record<CrawlVariant, (host: string) => Promise<unknown>> = {
    inProcess: (host) => crawlBrand(host, { fetcher, assets }, { timeoutMs: 20_000 }),
    process: (host) => pools.process.crawl(host),
    thread: (host) => pools.thread.crawl(host),
  };
  const variants = Object.keys(crawl) as CrawlVariant[];
  const times: Record<CrawlVariant, number[]> = { inProcess: [], process: [], thread: [] };
  try {
    await Promise.all([pools.process.warm(), pools.thread.warm()]);
    for (let pass = 0; pass < WARM_PASSES; pass++) for (const variant of variants) for (const site of corpus) await crawl[variant](site.host);
    for (const site of corpus) {
      const runs: Record<CrawlVariant, number[]> = { inProcess: [], process: [], thread: [] };
      for (let i = 0; i < LIVE_ROUNDS; i++) for (const variant of variants) runs[variant].push(await timed(() => crawl[variant](site.host)));
      for (const variant of variants) times[variant].push(median(runs[variant]));
    }
  } finally {
    await Promise.all([pools.process.close(), pools.thread.close()]);
    await server.close();
  }
  return times;
}

/** bench/corpus-server.ts in its own process: the site answers from elsewhere for every variant alike. */
async function corpusServer(latencyMs: number): Promise<{ hostMap: Record<string, string>; close(): Promise<void> }> {
  const child = fork(path.join(import.meta.dirname, 'corpus-server.ts'), [String(latencyMs)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const hostMap = await new Promise<Record<string, string>>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { hostMap: Record<string, string> }).hostMap));
    child.once('exit', (code) => reject(new Error(`bench/corpus-server.ts exited ${code}`)));
  });
  return { hostMap, close: () => new Promise((resolve) => (child.once('exit', () => resolve()), child.disconnect())) };
}

function isolationFigures(times: Record<CrawlVariant, number[]>, sum: (xs: number[]) => number) {
  const total = (variant: CrawlVariant) => sum(times[variant]);
  return {
    inProcessTotalMs: round(total('inProcess')),
    processTotalMs: round(total('process')),
    threadTotalMs: round(total('thread')),
    processRatio: round(total('process') / total('inProcess')),
    threadRatio: round(total('thread') / total('inProcess')),
    inProcessMedianMs: round(median(times.inProcess)),
    processMedianMs: round(median(times.process)),
    threadMedianMs: round(median(times.thread)),
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

await main();
