/** How long `until` waits by default: a hang guard for a busy 2-core machine, never a speed target. */
export const UNTIL_DEADLINE_MS = 45_000;

/**
 * Polls `check` until it holds: for waiting on an event the code under test offers no promise for. Throws with
 * `what` when the deadline passes, so a hang fails with a message instead of the test's timeout.
 */
export async function until(check: () => boolean | Promise<boolean>, what = 'the awaited condition', deadlineMs = UNTIL_DEADLINE_MS): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Polls `probe` until `done` holds for its value and returns that value; fails with the last value seen after the
 * deadline (a hang guard, never a speed target).
 */
export async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, deadlineMs = UNTIL_DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there after ${deadlineMs} ms: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
