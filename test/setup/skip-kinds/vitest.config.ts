/**
 * The configuration of the skip report's own test (test/setup/skip-report.test.ts): one fixture file holding every
 * kind of skip, run with PostgreSQL, Chromium and the spec text all "missing" (provided, not probed), and the real
 * reporter. Not part of the suite: `vitest run` never picks up `*.fixture.ts`.
 */
import { defineConfig } from 'vitest/config';
import baseConfig from '../../../vitest.config.js';

const missing = (what: string) => ({ use: null, skipReason: `${what} missing (fixture)` });

export default defineConfig({
  root: import.meta.dirname,
  test: {
    include: ['*.fixture.ts'],
    tags: [...(baseConfig.test?.tags ?? []), { name: 'turned-off', description: 'a tag whose definition skips its tests', skip: true }],
    provide: { postgres: missing('PostgreSQL'), chromium: missing('Chromium'), specText: missing('spec text') },
    reporters: ['json', '../skip-report-reporter.ts'],
  },
});
