/**
 * Every conditional skip goes through test/helpers/optional.ts, which tags it so the closing report counts it
 * (skip-report-reporter.ts). A bare skipIf / runIf / .skip / ctx.skip, or a test file reading the probes itself (to
 * skip by an early `return` or by not registering its tests), would be a test reported green that never ran.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const TEST_DIR = path.resolve(import.meta.dirname, '..');
/** The helper itself, and the skip report's fixture, which holds every kind of skip on purpose. */
const ALLOWED = new Set(['helpers/optional.ts', 'setup/skip-kinds/skip-kinds.fixture.ts']);
/** Written as pieces so that this file does not match itself. */
const BARE_SKIP = new RegExp(['\\.skip', 'If\\(|\\.run', 'If\\(|\\.(?:skip|todo)\\(|\\b(?:ctx|context|task)\\.skip\\(|inject\\(\'(?:postgres|chromium|specText)\'\\)'].join(''));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(TEST_DIR, path.join(entry.parentPath, entry.name)));
}

describe('skip discipline', () => {
  it('no test skips except through test/helpers/optional.ts', () => {
    const offenders = sources(TEST_DIR)
      .filter((file) => !ALLOWED.has(file))
      .flatMap((file) =>
        readFileSync(path.join(TEST_DIR, file), 'utf8')
          .split('\n')
          .map((line, i) => ({ line, where: `test/${file}:${i + 1}` }))
          .filter(({ line }) => BARE_SKIP.test(line))
          .map(({ line, where }) => `${where}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the pattern finds a bare skip (so the test above can fail)', () => {
    expect(BARE_SKIP.test(['describe.skip', "If(!pg)('x', () => {});"].join(''))).toBe(true);
    expect(BARE_SKIP.test(['const url = inj', "ect('postgres').use;"].join(''))).toBe(true);
    expect(BARE_SKIP.test('needsPostgres.describe(\'x\', () => {});')).toBe(false);
  });
});
