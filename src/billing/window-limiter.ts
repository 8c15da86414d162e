/**
 * Throughput limit "N requests per window" (spec 8's client-ID limits): a token bucket per key holding up to N
 * tokens and refilling N per window continuously, so a steady rate at the limit passes, a burst may use what the
 * quiet time saved (at most N), and going over lifts as soon as the rate drops. In this process's memory, bounded
 * to `maxKeys` buckets (full buckets are forgotten first: forgetting one changes nothing). Several API processes
 * each enforce their share (ADR 0033). Unlike RateLimiter (per organization, per minute) it can take from two
 * buckets at once and says when the next request may pass.
 */
interface Bucket {
  tokens: number;
  at: number;
}

export interface TakeResult {
  ok: boolean;
  /** When refused: seconds until the emptiest bucket holds a token again (at least 1). */
  retryAfterSeconds: number;
}

export class WindowLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
    private readonly maxKeys = 200_000,
  ) {}

  /** Takes one token from every bucket, or from none when one of them is empty. */
  take(limits: readonly { key: string; limit: number }[]): TakeResult {
    const now = this.clock();
    const buckets = limits.map(({ key, limit }) => ({ bucket: this.#refill(key, limit, now), limit }));
    let wait = 0;
    for (const { bucket, limit } of buckets) if (bucket.tokens < 1) wait = Math.max(wait, ((1 - bucket.tokens) * this.windowMs) / limit);
    if (wait > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    for (const { bucket } of buckets) bucket.tokens -= 1;
    return { ok: true, retryAfterSeconds: 0 };
  }

  /** Gives one token back (a request that was not served, e.g. the search could not answer). */
  give(limits: readonly { key: string; limit: number }[]): void {
    for (const { key, limit } of limits) {
      const bucket = this.#buckets.get(key);
      if (bucket) bucket.tokens = Math.min(limit, bucket.tokens + 1);
    }
  }

  #refill(key: string, limit: number, now: number): Bucket {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= this.maxKeys) this.#evict(now, limit);
      bucket = { tokens: limit, at: now };
      this.#buckets.set(key, bucket);
      return bucket;
    }
    bucket.tokens = Math.min(limit, bucket.tokens + (Math.max(0, now - bucket.at) * limit) / this.windowMs);
    bucket.at = now;
    return bucket;
  }

  /** Forgets buckets idle for a whole window (they are full again); if none is, the oldest half. */
  #evict(now: number, _limit: number): void {
    for (const [key, bucket] of this.#buckets) if (now - bucket.at >= this.windowMs) this.#buckets.delete(key);
    if (this.#buckets.size < this.maxKeys) return;
    let drop = Math.ceil(this.#buckets.size / 2);
    for (const key of this.#buckets.keys()) {
      if (drop-- <= 0) break;
      this.#buckets.delete(key);
    }
  }
}
