/**
 * A last line of defence against processes a test started and could not stop (a test that failed before its
 * cleanup, a helper that threw mid-start): every tracked child still running when the test file ends is killed
 * (an afterAll hook registered on the file by importing this module; vitest kills its workers with a signal, so
 * a process 'exit' handler would never run). Tests still stop their processes in afterAll/afterEach/finally; this
 * only catches what slips through.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';

const live = new Set<ChildProcess>();

async function killAll(): Promise<void> {
  const running = [...live].filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    running.map((child) => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      return exited;
    }),
  );
  live.clear();
}

// Registered while the importing test file is being collected: it runs after that file's own afterAll hooks.
afterAll(killAll);

/** Tracks `child` until it exits; returns it for chaining. */
export function reapOnExit<T extends ChildProcess>(child: T): T {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}
