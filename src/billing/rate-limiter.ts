/**
 * Per-organization request throughput limit: a token bucket per organization, in this process's memory. The
 * bucket holds up to one minute's allowance and refills continuously at `perMinute / 60` tokens per second, so
 * a steady rate at the limit always passes and a burst may use what the quiet time saved (at most one minute's).
 * With several API processes each process limits on its own.
 */
interface Bucket {
  tokens: number;
  /** Epoch ms of the last refill. */
  at: number;
  perMinute: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly maxBuckets = 100_000,
  ) {}

  /** Takes one token; false when the organization is over its limit. `perMinute` 0 means no limit. */
  take(orgId: string, perMinute: number): boolean {
    return this.takeOrWait(orgId, perMinute, 1) === 0;
  }

  /**
   * Takes `tokens` (e.g. a GraphQL query's cost) at once, or none: 0 when taken, else the milliseconds until the
   * bucket will hold them (Infinity when `tokens` is more than a minute's allowance, which never fits).
   */
  takeOrWait(orgId: string, perMinute: number, tokens: number): number {
    if (perMinute <= 0 || tokens <= 0) return 0;
    const now = this.clock();
    let bucket = this.buckets.get(orgId);
    if (!bucket || bucket.perMinute !== perMinute) {
      if (!bucket && this.buckets.size >= this.maxBuckets) this.evictFull(now);
      // A changed limit starts from a full bucket of the new size (never more than what was left plus the change).
      bucket = { tokens: bucket ? Math.min(perMinute, bucket.tokens + Math.max(0, perMinute - bucket.perMinute)) : perMinute, at: now, perMinute };
      this.buckets.set(orgId, bucket);
    }
    const elapsed = Math.max(0, now - bucket.at);
    bucket.tokens = Math.min(perMinute, bucket.tokens + (elapsed * perMinute) / 60_000);
    bucket.at = now;
    if (bucket.tokens < tokens) return tokens > perMinute ? Infinity : Math.max(1, Math.ceil(((tokens - bucket.tokens) * 60_000) / perMinute));
    bucket.tokens -= tokens;
    return 0;
  }

  /** Drops buckets that have refilled completely: forgetting them changes nothing. */
  private evictFull(now: number): void {
    for (const [orgId, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) * bucket.perMinute) / 60_000 >= bucket.perMinute) this.buckets.delete(orgId);
    }
    if (this.buckets.size >= this.maxBuckets) this.buckets.clear();
  }
}
