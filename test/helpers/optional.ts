/**
 * The one way a test is skipped in this suite: every conditional skip goes through a requirement here, which tags the
 * skipped tests so that the end-of-run report (test/setup/skip-report-reporter.ts) counts each of them by what was
 * missing. A bare `describe.skipIf` / `it.skipIf` / `runIf` / early `return` would be a test reported as green that
 * never ran; test/setup/skip-discipline.test.ts fails the run if one appears outside this file.
 *
 * Usage: `needsPostgres.describe('name', () => ...)`, `needsChromium('browser').describe(...)`,
 * `needsChromium('ssrf').it('name', { timeout }, async () => ...)`.
 */
import { describe, inject, it, type SuiteOptions, type TestOptions } from 'vitest';
import { CHROMIUM_KINDS, CHROMIUM_TAG, POSTGRES_TAG, SPEC_TAG, type ChromiumKind } from '../setup/optional-backends.js';

type Body = () => void | Promise<void>;

export interface Gated {
  /** The tests of this describe run only when the requirement is met; each carries the requirement's tags. */
  describe(name: string, body: Body): void;
  describe(name: string, options: SuiteOptions, body: Body): void;
  /** This test runs only when the requirement is met, and carries the requirement's tags. */
  it(name: string, body: Body): void;
  it(name: string, options: TestOptions, body: Body): void;
  /** Whether the requirement is met (for code outside a test that must not start without it). */
  readonly met: boolean;
}

function tagsOf(options: TestOptions): string[] {
  const tags = options.tags;
  if (tags === undefined) return [];
  return Array.isArray(tags) ? tags : [tags];
}

/** A requirement met when `met`; the tests behind it carry `tags` (declared in vitest.config.ts). */
export function requirement(tags: string[], met: boolean): Gated {
  const withTags = <O extends TestOptions>(options: O): O => ({ ...options, tags: [...new Set([...tags, ...tagsOf(options)])] });
  return {
    met,
    describe(name: string, optionsOrBody: SuiteOptions | Body, maybeBody?: Body): void {
      const [options, body] = typeof optionsOrBody === 'function' ? [{}, optionsOrBody] : [optionsOrBody, maybeBody as Body];
      describe.skipIf(!met)(name, withTags(options), body);
    },
    it(name: string, optionsOrBody: TestOptions | Body, maybeBody?: Body): void {
      const [options, body] = typeof optionsOrBody === 'function' ? [{}, optionsOrBody] : [optionsOrBody, maybeBody as Body];
      it.skipIf(!met)(name, withTags(options), body);
    },
  };
}

/** The PostgreSQL this run uses (test/setup/global-setup.ts probed it), or null when the PostgreSQL tests are skipped. */
export const POSTGRES_URL: string | null = inject('postgres').use;
/** The Chromium executable this run uses (BRANDBASE_CHROMIUM_PATH, else /usr/bin/chromium), or null when skipped. */
export const CHROMIUM_PATH: string | null = inject('chromium').use;

/** Tests that need a PostgreSQL server. */
export const needsPostgres: Gated = requirement([POSTGRES_TAG], POSTGRES_URL !== null);

/**
 * Tests that need Chromium, by what they cover, so a run without it says how many of each it did not run:
 * `browser` (the served pages driven in a browser), `palette` (a palette built from a render), `ssrf` (the
 * Chromium SSRF trap), `render` (the crawl's other rendering tests).
 */
export function needsChromium(kind: ChromiumKind): Gated {
  if (!CHROMIUM_KINDS.includes(kind)) throw new Error(`unknown Chromium test kind ${kind}`);
  return requirement([CHROMIUM_TAG, `${CHROMIUM_TAG}-${kind}`], CHROMIUM_PATH !== null);
}

/** The interface contract's text (../shared/spec, beside the repository), or null when the tests reading it are skipped. */
export const SPEC_TEXT_PATH: string | null = inject('specText').use;
/** Tests that read the interface contract's text. */
export const needsSpecText: Gated = requirement([SPEC_TAG], SPEC_TEXT_PATH !== null);

/** No requirement: for a list of backends where only some need one (`{ name: 'SQLite', gate: always }`). */
export const always: Gated = requirement([], true);
