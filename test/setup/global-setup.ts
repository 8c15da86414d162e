/**
 * Vitest global setup: probes the optional backends once per run (optional-backends.ts), hands the result to the
 * test files (provide/inject of `postgres`, `chromium` and `specText`, read only by test/helpers/optional.ts, which
 * gates and tags the tests needing them) and says at the start of the run what will be skipped.
 * The end-of-run count of skipped tests is printed by skip-report-reporter.ts.
 */
import type { TestProject } from 'vitest/node';
import { probeChromium, probePostgres, probeSpecText } from './optional-backends.js';
import { skipBanner } from './skip-banner.js';

export default async function setup(project: TestProject): Promise<void> {
  const postgres = await probePostgres(process.env['BRANDBASE_TEST_PG_URL']);
  const chromium = probeChromium(process.env['BRANDBASE_CHROMIUM_PATH']);
  project.provide('postgres', postgres);
  const specText = probeSpecText();
  project.provide('chromium', chromium);
  project.provide('specText', specText);
  const lines = [
    postgres.skipReason && `PostgreSQL suites will be SKIPPED: ${postgres.skipReason}`,
    chromium.skipReason && `Chromium tests (browser, palette, SSRF trap, rendering) will be SKIPPED: ${chromium.skipReason}`,
    specText.skipReason && `Spec text tests will be SKIPPED: ${specText.skipReason}`,
  ].filter((line): line is string => Boolean(line));
  if (lines.length > 0) process.stderr.write(skipBanner(lines));
}
