/**
 * `npm run eval`: extraction quality on labelled fixture corpora, printed as scoreboards.
 * Each suite lives in its own folder and exports `run(): Promise<EvalReport>`; this runner prints them all and
 * exits non-zero when a suite misses one of its targets.
 *
 *   eval/logos/   logos, icons, types, themes, tags, third-party exclusion, per-site time   (issue 4)
 *   eval/record/  colours, fonts, company, industries, NSFW                                 (issue 5)
 *   eval/images/  image tags and categories on labelled real images (fetched from Debian)   (issue 16)
 *   eval/palette/ palette primary role and dark theme, parsed CSS and Chromium render       (issue 17)
 *   eval/industries/  the industry classifier on held-out text: accuracy, coverage, calibration (issue 16)
 *   eval/transactions/  card descriptors to merchants: precision on answered, recall          (issue 21)
 *   eval/search/  search by name: top-1 and top-3 on labelled queries (SQLite; PostgreSQL with BRANDBASE_EVAL_PG_URL) (issue 20)
 *
 * `npm run eval -- --real ../shared/corpus` additionally runs suites that support real pages (optional; the
 * corpus is not part of the repository). `--only NAME[,NAME]` runs only those suites' folders (e.g. `--only
 * industries,palette`).
 *
 * Every figure says what it is, `regression` or `held-out` (issue 32), never "accuracy" by default:
 * - regression: material written together with the rules, or read while they were written or tuned (the generated
 *   sites, the search queries that are docs/search.md's examples, the iana.org recording, real pages read while the
 *   name and description rules were written). It shows every documented path still works; it predicts nothing.
 * - held-out: material the rules and models were never written, fitted or tuned against (text held out from a
 *   classifier's training, cross-validation folds, lists written and then never tuned on). Only these are evidence
 *   of quality on unseen input.
 */
export interface EvalMetric {
  name: string;
  value: number;
  /** Target the issue sets; `higher` means value must be >= target, `lower` means <=. */
  target?: { value: number; direction: 'higher' | 'lower' };
  unit?: '%' | 'ms' | 'count' | 'ratio';
  /** What the figure is (see the top of this file); regression when not said. */
  kind?: MetricKind;
}

export type MetricKind = 'regression' | 'held-out';

const KIND_HEADINGS: Record<MetricKind, string> = {
  regression: 'regression: written with the rules or read while writing them (every documented path works; not accuracy)',
  'held-out': 'held-out: never written, fitted or tuned against (the only figures that say anything about unseen input)',
};

export interface EvalReport {
  suite: string;
  sites: number;
  metrics: EvalMetric[];
  /** Human-readable failure cases that remain. */
  failures: string[];
  /** What a reader needs to read the figures right (what was excluded, and why). */
  notes?: string[];
}

export type EvalSuite = (options: { realCorpus: string | null }) => Promise<EvalReport>;

function passes(metric: EvalMetric): boolean {
  if (!metric.target) return true;
  return metric.target.direction === 'higher' ? metric.value >= metric.target.value : metric.value <= metric.target.value;
}

function format(metric: EvalMetric): string {
  const value = metric.unit === '%' ? `${(metric.value * 100).toFixed(1)}%` : metric.value.toFixed(metric.unit === 'count' ? 0 : 2);
  const target = metric.target ? ` (target ${metric.target.direction === 'higher' ? '≥' : '≤'} ${metric.unit === '%' ? `${metric.target.value * 100}%` : metric.target.value})` : '';
  return `  ${passes(metric) ? 'ok  ' : 'MISS'} ${metric.name.padEnd(44)} ${value}${target}`;
}

async function loadSuites(only: readonly string[] | null): Promise<EvalSuite[]> {
  const suites: EvalSuite[] = [];
  for (const path of ['./logos/suite.js', './record/suite.js', './industries/suite.js', './palette/suite.js', './images/suite.js', './search/suite.js', './transactions/suite.js']) {
    if (only && !only.includes(path.split('/')[1] ?? '')) continue;
    try {
      const mod = (await import(path)) as { run: EvalSuite };
      suites.push(mod.run);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    }
  }
  return suites;
}

async function main(): Promise<void> {
  const realIndex = process.argv.indexOf('--real');
  const realCorpus = realIndex >= 0 ? (process.argv[realIndex + 1] ?? null) : null;
  const onlyIndex = process.argv.indexOf('--only');
  const only = onlyIndex >= 0 ? (process.argv[onlyIndex + 1] ?? '').split(',').filter(Boolean) : null;
  let ok = true;
  for (const suite of await loadSuites(only)) {
    const report = await suite({ realCorpus });
    console.log(`\n${report.suite} — ${report.sites} sites`);
    for (const kind of Object.keys(KIND_HEADINGS) as MetricKind[]) {
      const metrics = report.metrics.filter((metric) => (metric.kind ?? 'regression') === kind);
      if (metrics.length === 0) continue;
      console.log(` ${KIND_HEADINGS[kind]}`);
      for (const metric of metrics) {
        console.log(format(metric));
        ok &&= passes(metric);
      }
    }
    if (report.notes?.length) console.log(`  notes:\n${report.notes.map((n) => `    - ${n}`).join('\n')}`);
    if (report.failures.length) console.log(`  remaining failure cases:\n${report.failures.map((f) => `    - ${f}`).join('\n')}`);
  }
  if (!ok) process.exitCode = 1;
}

await main();
