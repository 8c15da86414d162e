/**
 * The closing skip report (skip-report-reporter.ts) is exact: run on a fixture holding every kind of skip (skipIf,
 * runIf, .skip, todo, a tag defined to skip, describe-level skips, and each requirement of test/helpers/optional.ts
 * unmet), it counts each test once under its reason, and its total equals what vitest itself reports as not run.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(import.meta.dirname, 'skip-kinds/vitest.config.ts');

interface JsonReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

describe('the end-of-run skip report', () => {
  let json: JsonReport;
  let banner: string;

  beforeAll(async () => {
    const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [vitest, 'run', '--config', CONFIG], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      maxBuffer: 16 * 1024 * 1024,
    });
    json = JSON.parse(stdout.slice(stdout.indexOf('{'))) as JsonReport;
    banner = stderr;
  });

  it('counts every kind of skip once, under its reason', () => {
    expect(banner).toContain('PostgreSQL tests SKIPPED: PostgreSQL missing (fixture); 3 tests not run');
    expect(banner).toContain(
      'Chromium tests SKIPPED: Chromium missing (fixture); 5 tests not run: 2 browser (dashboard, brand pages), 1 palette (built from a render), 1 SSRF trap (Chromium), 1 other rendering',
    );
    expect(banner).toContain('Spec text tests SKIPPED: spec text missing (fixture); 1 test not run');
    expect(banner).toContain('2 todo tests not written yet');
    expect(banner).toContain('6 tests skipped by .skip, .only elsewhere, or a name or tag filter');
    expect(banner).toContain('In all 17 tests not run.');
  });

  it('its total is what vitest itself did not run', () => {
    expect(json).toMatchObject({ numTotalTests: 18, numPassedTests: 1, numFailedTests: 0 });
    expect(json.numPendingTests + json.numTodoTests).toBe(17);
  });
});
