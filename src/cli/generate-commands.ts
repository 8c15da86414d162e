/**
 * `brandbase generate-brands --count N [--seed S] [--from F] [--batch B]`: writes N realistic synthetic brands
 * (cli/generated-brand.ts: `.example` domains, deterministic per seed) into the configured store, B per
 * transaction through the store's bulk insert (multi-row statements; brands/store/bulk-brand-rows.ts). Numbers
 * F .. F+N-1 are written, so a store grows from 10k to 100k brands with `--from 10000 --count 90000`; a brand
 * already held is skipped, so running the same command twice writes nothing the second time. For load tests and
 * benches (docs/performance.md "A million brands"); a progress line on stderr, the summary on stdout.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { wholeNumber } from './whole-number.js';

interface GenerateOptions {
  count: number;
  seed: number;
  from: number;
  batch: number;
  json?: boolean;
}

export interface GenerateSummary {
  requested: number;
  inserted: number;
  skipped: number;
  seconds: number;
  brandsPerSecond: number;
}

function positive(value: string): number {
  const n = wholeNumber(value);
  if (n === 0) throw new InvalidArgumentError('expected a whole number >= 1');
  return n;
}

/** The progress line: rewritten in place on a terminal, one line per tenth of the run otherwise (logs, CI). */
function progressReporter(total: number, out: NodeJS.WriteStream = process.stderr): (done: number, started: number) => void {
  let nextTenth = 0.1;
  return (done, started) => {
    const rate = Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
    const line = `generate-brands: ${done.toLocaleString('en')} / ${total.toLocaleString('en')} brands (${rate.toLocaleString('en')}/s)`;
    if (out.isTTY) out.write(`\r${line}${done === total ? '\n' : ''}`);
    else if (done / total >= nextTenth || done === total) {
      out.write(`${line}\n`);
      while (nextTenth <= done / total) nextTenth += 0.1;
    }
  };
}

async function generate(opts: GenerateOptions): Promise<GenerateSummary> {
  const [{ cliConfig, withAdmin }, { generatedBrand }] = await Promise.all([import('./cli-runtime.js'), import('./generated-brand.js')]);
  return withAdmin(cliConfig(), async ({ brands }) => {
    const report = progressReporter(opts.count);
    const now = new Date();
    const started = Date.now();
    let inserted = 0;
    for (let done = 0; done < opts.count; ) {
      const size = Math.min(opts.batch, opts.count - done);
      const batch = Array.from({ length: size }, (_, i) => generatedBrand(opts.seed, opts.from + done + i, now));
      inserted += await brands.insertBrands(batch);
      done += size;
      report(done, started);
    }
    const seconds = (Date.now() - started) / 1000;
    return { requested: opts.count, inserted, skipped: opts.count - inserted, seconds, brandsPerSecond: Math.round(inserted / Math.max(seconds, 0.001)) };
  });
}

export function registerGenerateCommands(program: Command): void {
  program
    .command('generate-brands')
    .description('write synthetic brands (.example domains) into the store in bulk, for load tests and benches')
    .requiredOption('--count <n>', 'how many brands to write', positive)
    .option('--seed <n>', 'the same seed writes the same brands', wholeNumber, 1)
    .option('--from <n>', 'number of the first brand (grow a store: --from 10000 --count 90000)', wholeNumber, 0)
    .option('--batch <n>', 'brands per transaction', positive, 5000)
    .option('--json', 'print one JSON object')
    .action(async (opts: GenerateOptions) => {
      const summary = await generate(opts);
      if (opts.json) console.log(JSON.stringify(summary));
      else console.log(`inserted ${summary.inserted} brands (${summary.skipped} already held) in ${summary.seconds.toFixed(1)} s: ${summary.brandsPerSecond} brands/s`);
    });
}
