/**
 * Vitest reporter that ends every run that skipped anything with an exact count of the tests not run, by why: each
 * optional backend that was missing (tests tagged by test/helpers/optional.ts), todos, and tests skipped otherwise
 * (`.skip`, a name or tag filter), so "all passed" can never hide "half not run". A run without Chromium also says
 * how many browser, palette and SSRF-trap tests it did not run. Its own test: test/setup/skip-report.test.ts.
 */
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { CHROMIUM_KINDS, CHROMIUM_TAG, POSTGRES_TAG, SPEC_TAG, type BackendProbe, type ChromiumKind } from './optional-backends.js';
import { skipBanner } from './skip-banner.js';

/** The probes the global setup provided (test/setup/global-setup.ts); a missing one counts as "there". */
export interface Probes {
  postgres?: BackendProbe;
  chromium?: BackendProbe;
  specText?: BackendProbe;
}

export interface SkipCounts {
  /** Every test collected in state `skipped`, whatever the reason: the sum of the fields below. */
  total: number;
  postgres: number;
  chromium: Record<ChromiumKind, number>;
  specText: number;
  todo: number;
  /** `.skip`, `.only` elsewhere, a `-t` name filter, a tags filter, a tag defined with `skip: true`. */
  other: number;
}

export default class SkipReportReporter implements Reporter {
  private vitest: Vitest | undefined;


  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const provided = this.vitest?.getRootProject().getProvidedContext() as Probes | undefined;
    const lines = skipReport(countSkips(testModules, provided ?? {}), provided ?? {});
    // stderr: it survives quiet reporters.
    if (lines.length > 0) process.stderr.write(skipBanner(lines));
  }
}

function missing(probe: BackendProbe | undefined): boolean {
  return Boolean(probe?.skipReason);
}

/** Sorts every skipped test into exactly one reason, the first that applies. */
export function countSkips(testModules: ReadonlyArray<TestModule>, probes: Probes): SkipCounts {
  const counts: SkipCounts = { total: 0, postgres: 0, chromium: { browser: 0, palette: 0, ssrf: 0, render: 0 }, specText: 0, todo: 0, other: 0 };
  for (const testModule of testModules) {
    for (const test of testModule.children.allTests()) {
      if (test.result().state !== 'skipped') continue;
      counts.total += 1;
      classify(test, probes, counts);
    }
  }
  return counts;
}

function classify(test: TestCase, probes: Probes, counts: SkipCounts): void {
  if (test.options.mode === 'todo') counts.todo += 1;
  else if (test.tags.includes(POSTGRES_TAG) && missing(probes.postgres)) counts.postgres += 1;
  else if (test.tags.includes(CHROMIUM_TAG) && missing(probes.chromium)) counts.chromium[chromiumKind(test)] += 1;
  else if (test.tags.includes(SPEC_TAG) && missing(probes.specText)) counts.specText += 1;
  else counts.other += 1;
}

function chromiumKind(test: TestCase): ChromiumKind {
  const kind = CHROMIUM_KINDS.find((k) => test.tags.includes(`${CHROMIUM_TAG}-${k}`));
  // A Chromium test without a kind is counted as rendering; the discipline test keeps every one tagged with its kind.
  return kind ?? 'render';
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The closing note's lines: empty when nothing was skipped. */
export function skipReport(counts: SkipCounts, probes: Probes): string[] {
  if (counts.total === 0) return [];
  const lines: string[] = [];
  if (counts.postgres > 0) lines.push(`PostgreSQL tests SKIPPED: ${probes.postgres?.skipReason ?? ''}; ${plural(counts.postgres, 'test')} not run`);
  const c = counts.chromium;
  const chromium = c.browser + c.palette + c.ssrf + c.render;
  if (chromium > 0) {
    lines.push(
      `Chromium tests SKIPPED: ${probes.chromium?.skipReason ?? ''}; ${plural(chromium, 'test')} not run: ` +
        `${c.browser} browser (dashboard, brand pages), ${c.palette} palette (built from a render), ${c.ssrf} SSRF trap (Chromium), ${c.render} other rendering`,
    );
  }
  if (counts.specText > 0) lines.push(`Spec text tests SKIPPED: ${probes.specText?.skipReason ?? ''}; ${plural(counts.specText, 'test')} not run`);
  if (counts.todo > 0) lines.push(`${plural(counts.todo, 'todo test')} not written yet`);
  if (counts.other > 0) lines.push(`${plural(counts.other, 'test')} skipped by .skip, .only elsewhere, or a name or tag filter`);
  lines.push(`In all ${plural(counts.total, 'test')} not run.`);
  return lines;
}
