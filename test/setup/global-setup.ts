/**
 * Vitest global setup: probes the optional backends once per run (optional-backends.ts), hands the result to the
 * test files (`inject('postgres')`, `inject('chromium')`) and says at the start of the run what will be skipped.
 * The end-of-run count of skipped tests is printed by skip-report-reporter.ts.
 */
import type { TestProject } from 'vitest/node';
import { probeChromium, probePostgres } from './optional-backends.js';
import { skipBanner } from './skip-banner.js';

export default async function setup(project: TestProject): Promise<void> {
  const postgres = await probePostgres(process.env['BRANDBASE_TEST_PG_URL']);
  const chromium = probeChromium(process.env['BRANDBASE_CHROMIUM_PATH']);
  project.provide('postgres', postgres);
  project.provide('chromium', chromium);
  const lines = [
    postgres.skipReason && `PostgreSQL suites will be SKIPPED: ${postgres.skipReason}`,
    chromium.skipReason && `Rendering (Chromium) tests will be SKIPPED: ${chromium.skipReason}`,
  ].filter((line): line is string => Boolean(line));
  if (lines.length > 0) process.stderr.write(skipBanner(lines));
}
