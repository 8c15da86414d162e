/**
 * Vitest reporter that ends every run with a loud note of the tests skipped for want of an optional backend
 * (tags `postgres` and `chromium`), how many and why, so "all passed" can never hide "half not run".
 */
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { CHROMIUM_TAG, POSTGRES_TAG, type BackendProbe } from './optional-backends.js';
import { skipBanner } from './skip-banner.js';

export default class SkipReportReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const provided = this.vitest?.getRootProject().getProvidedContext();
    const lines = [
      line('PostgreSQL suites', skippedWithTag(testModules, POSTGRES_TAG), provided?.postgres),
      line('Rendering (Chromium) tests', skippedWithTag(testModules, CHROMIUM_TAG), provided?.chromium),
    ].filter((text): text is string => text !== null);
    if (lines.length > 0) process.stderr.write(skipBanner(lines));
  }
}

function skippedWithTag(testModules: ReadonlyArray<TestModule>, tag: string): number {
  let skipped = 0;
  for (const testModule of testModules) {
    for (const test of testModule.children.allTests()) {
      if (test.tags.includes(tag) && test.result().state === 'skipped') skipped += 1;
    }
  }
  return skipped;
}

function line(what: string, skipped: number, probe: BackendProbe | undefined): string | null {
  // Tests skipped while the backend was there were skipped for another reason (.skip, a name filter): not ours to report.
  if (skipped === 0 || !probe?.skipReason) return null;
  return `${what} SKIPPED: ${probe.skipReason}; ${skipped} test${skipped === 1 ? '' : 's'} not run`;
}
