/**
 * When a failed delivery is tried again (docs/webhooks.md, "Retry schedule"; ADR 0031). Up to 15 attempts: the
 * first when the delivery is created, then after the delays below, each ±20% jitter so endpoints that came back
 * are not hit by every waiting delivery at once. Without jitter the 15th attempt comes 159.85 h (6.66 days) after
 * the first: "about a week" (spec section 3).
 */

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

/** RETRY_DELAYS_MS[n - 1] is the delay after failed attempt n, before attempt n + 1. */
export const RETRY_DELAYS_MS: readonly number[] = [5 * S, 1 * MIN, 5 * MIN, 15 * MIN, 30 * MIN, 1 * H, 2 * H, 4 * H, 8 * H, 12 * H, 24 * H, 24 * H, 36 * H, 48 * H];

/** Attempts in all, the first included; after a failed 15th the delivery is abandoned. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** ±20% (Svix's choice). */
export const RETRY_JITTER = 0.2;

/**
 * The delay after failed attempt `attempt` (1-based), or null when it was the last. `random` is in [0, 1): 0.5 gives
 * the nominal delay, 0 the shortest (−20%), values near 1 the longest (+20%).
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + RETRY_JITTER * (2 * random() - 1)));
}
