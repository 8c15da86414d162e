import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Probes once per run for a PostgreSQL server and a Chromium executable; the tests needing one that is not
    // there are skipped (only ever through test/helpers/optional.ts, which tags them), and the run says so loudly
    // at its start and counts them exactly at its end (test/setup/).
    // build-program.ts compiles dist/ first: the tests that start `brandbase` run what users run.
    globalSetup: ['test/setup/build-program.ts', 'test/setup/global-setup.ts'],
    tags: [
      { name: 'postgres', description: 'needs a PostgreSQL server (BRANDBASE_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/test)' },
      { name: 'chromium', description: 'needs a Chromium executable (BRANDBASE_CHROMIUM_PATH, default /usr/bin/chromium)' },
      // What each Chromium test covers (test/helpers/optional.ts needsChromium), counted apart when Chromium is missing.
      { name: 'chromium-browser', description: 'the served pages (dashboard, brand pages) driven in Chromium' },
      { name: 'chromium-palette', description: 'a palette built from a Chromium render' },
      { name: 'chromium-ssrf', description: 'the Chromium SSRF trap' },
      { name: 'chromium-render', description: 'the crawl rendering pages in Chromium' },
      { name: 'spec-text', description: 'reads the interface contract text (../shared/spec beside the repository)' },
    ],
    // Safety nets only (no test asserts on time): tests that start `brandbase serve` processes wait for them to load
    // and start their crawl workers, which on a busy 2-core machine takes several times longer than idle.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: keep file parallelism modest so crawl and server tests do not starve each other.
    maxWorkers: 2,
    reporters: ['default', './test/setup/skip-report-reporter.ts'],
  },
});
