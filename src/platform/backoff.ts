/** Exponential backoff: the delay before try n + 1 after `attempts` tries, `baseMs` × 2^(attempts − 1), at most `maxMs`. */
export function backoffDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), maxMs);
}
