/**
 * Where the full-record extraction's time goes (docs/performance.md, issue 4 item 9): the same 65 sites and
 * in-memory fetcher as bench/extraction.ts, crawled ROUNDS times with V8's sampling profiler on, then a share
 * per stage (inclusive: a sample counts for a stage when the stage is anywhere on its stack). The raw profile is
 * written to --out for Chrome DevTools.
 *
 *   node --import tsx bench/extraction-profile.ts [--rounds 8] [--out extraction.cpuprofile]
 */
import { writeFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crawlBrand } from '../src/crawl/crawl-brand.js';
import { LocalAssetStore } from '../src/assets/local/local-asset-store.js';
import { buildEvalSites } from '../eval/logos/eval-sites.js';
import { argValue, memoryFetcher } from './memory-fetcher.js';

const ROUNDS = Number(argValue('--rounds') ?? 8);
const OUT = argValue('--out') ?? 'extraction.cpuprofile';

/** Stages by the function that starts them (name and file), in the order printed. */
const STAGES: [label: string, fn: string, file: string][] = [
  ['image files ingested, in all', 'ingestImage', 'src/media/ingest-image.ts'],
  ['  of which sniffed, decoded, sized, shrunk', 'prepareSafely', 'src/media/ingest-image.ts'],
  ['  of which analysed (theme, colours, edges, dHash)', 'describe', 'src/media/ingest-image.ts'],
  ['asset files written (chosen ones)', 'put', 'src/assets/local/local-asset-store.ts'],
  ['HTML pages parsed', 'parseHtmlPage', 'src/crawl/page/html-page.ts'],
  ['company and industries', 'extractFirmographics', 'src/crawl/fields/company/firmographics.ts'],
  ['logo and icon candidates', 'findMarkCandidates', 'src/crawl/fields/logos/logo-candidates.ts'],
  ['colours', 'extractColors', 'src/crawl/fields/colors/colors.ts'],
  ['fonts', 'extractFonts', 'src/crawl/fields/fonts/fonts.ts'],
];

async function main(): Promise<void> {
  const corpus = await buildEvalSites();
  const fetcher = memoryFetcher(Object.fromEntries(corpus.map((s) => [s.host, s.files])));
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-profile-'));
  let folders = 0;
  const round = async (): Promise<void> => {
    for (const site of corpus) {
      const folder = path.join(dir, String(folders++));
      await mkdir(folder);
      await crawlBrand(site.host, { fetcher, assets: new LocalAssetStore({ dir: folder }) }, { timeoutMs: 20_000 });
    }
  };
  const session = new Session();
  try {
    await round(); // warm-up: JIT, caches
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const started = performance.now();
    for (let i = 0; i < ROUNDS; i++) await round();
    const ms = (performance.now() - started) / ROUNDS / corpus.length;
    const { profile } = await session.post('Profiler.stop');
    await writeFile(OUT, JSON.stringify(profile));
    report(profile, ms, corpus.length);
  } finally {
    session.disconnect();
    await rm(dir, { recursive: true, force: true });
  }
}

function report(profile: Profiler.Profile, msPerSite: number, sites: number): void {
  const shares = inclusiveShares(profile);
  console.log(`full record, ${sites} sites × ${ROUNDS} rounds: ${msPerSite.toFixed(2)} ms per site; share of samples:`);
  for (const [label, fn, file] of STAGES) console.log(`  ${pct(shares.get(`${fn} ${file}`) ?? 0)}  ${label}`);
  console.log(`  ${pct(shares.get('(idle) ') ?? 0)}  waiting (sharp decoding on its threads, file system)`);
  console.log(`  ${pct(shares.get('(garbage collector) ') ?? 0)}  garbage collection`);
  console.log(`profile written to ${OUT}`);
}

/** Share of samples with each function (name + file below the project root) anywhere on the stack. */
function inclusiveShares(profile: Profiler.Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const samples = profile.samples ?? [];
  const counts = new Map<string, number>();
  for (const id of samples) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame) break;
      const key = `${frame.functionName} ${frame.url.replace(/^.*?\/(src|node_modules)\//, '$1/')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return new Map([...counts].map(([key, count]) => [key, count / Math.max(1, samples.length)]));
}

function pct(share: number): string {
  return `${(share * 100).toFixed(1).padStart(5)} %`;
}

await main();
