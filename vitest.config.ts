import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: keep file parallelism modest so crawl and server tests do not starve each other.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
