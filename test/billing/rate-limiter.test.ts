/**
 * The per-organization token bucket (src/billing/rate-limiter.ts): one token per request, or a request's cost at
 * once (GraphQL, issue 33), with the wait until it would fit; a clock the test holds and moves.
 */
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/billing/rate-limiter.js';

describe('RateLimiter', () => {
  it('takes a cost at once or not at all, and says how long until it fits', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(() => now);
    // 600 per minute: 10 a second, a full bucket of 600 to start.
    expect(limiter.takeOrWait('org_a', 600, 250)).toBe(0);
    expect(limiter.takeOrWait('org_a', 600, 250)).toBe(0);
    // 100 left: 250 needs 150 more, 15 s at 10 a second; nothing is taken.
    expect(limiter.takeOrWait('org_a', 600, 250)).toBe(15_000);
    expect(limiter.takeOrWait('org_a', 600, 100)).toBe(0);
    now += 25_000;
    expect(limiter.takeOrWait('org_a', 600, 250)).toBe(0);
    // Another organization has its own bucket.
    expect(limiter.takeOrWait('org_b', 600, 600)).toBe(0);
    expect(limiter.take('org_b', 600)).toBe(false);
    expect(limiter.take('org_a', 600)).toBe(false);
  });

  it('never fits more than a minute\'s allowance; 0 per minute means no limit', () => {
    const limiter = new RateLimiter(() => 0);
    expect(limiter.takeOrWait('org_a', 600, 601)).toBe(Infinity);
    expect(limiter.takeOrWait('org_a', 0, 1_000_000)).toBe(0);
    expect(limiter.take('org_a', 600)).toBe(true);
  });
});
