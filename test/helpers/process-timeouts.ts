/**
 * Hang guards, not speed targets, for tests that start processes (`brandbase serve`, the CLI, peer processes):
 * a process loads the built program (or, for peer scripts, TypeScript through tsx), opens its store and starts its crawl workers,
 * which on a busy 2-core machine (load 4, the suite's own files in parallel) takes many times what it takes idle.
 * No test asserts on these; they only bound how long a hung test takes to fail.
 */
import { vi } from 'vitest';

/** One test of a file that starts processes (several CLI runs, a server start, crawls). */
export const PROCESS_TEST_TIMEOUT_MS = 240_000;
/** A hook of such a file (beforeAll starting a server after a few CLI runs). */
export const PROCESS_HOOK_TIMEOUT_MS = 300_000;
/** From spawning `brandbase serve` to its first /healthz answer. */
export const SERVER_START_DEADLINE_MS = 180_000;
/** One `brandbase` CLI command (a `crawl` included); the process is killed past it. */
export const CLI_RUN_TIMEOUT_MS = 120_000;

/**
 * Gives every test and hook of the calling file the process timeouts. Called on import by the helpers that start
 * processes, so a test file that uses them gets the timeouts without having to remember; a test may still pass
 * its own (larger) timeout.
 */
export function useProcessTimeouts(testTimeoutMs = PROCESS_TEST_TIMEOUT_MS): void {
  vi.setConfig({ testTimeout: testTimeoutMs, hookTimeout: Math.max(PROCESS_HOOK_TIMEOUT_MS, testTimeoutMs) });
}
