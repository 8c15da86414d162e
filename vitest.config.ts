import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Safety nets only (no test asserts on time): tests that start `brandbase serve` processes wait for them to load
    // TypeScript and start their crawl workers, which on a busy 2-core machine takes several times longer than idle.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: keep file parallelism modest so crawl and server tests do not starve each other.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
