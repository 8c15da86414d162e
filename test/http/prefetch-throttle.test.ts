/**
 * Free HEAD prefetches are throttled per organization (spec 4.2: "Prefetch requests may be throttled"): past
 * BRANDBASE_PREFETCH_PER_MINUTE an organization's HEAD answers 429 with `x-bf-error: rate_limited`, while other
 * organizations' prefetches and the throttled organization's paid lookups go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ BRANDBASE_PREFETCH_PER_MINUTE: '5' });
});
afterAll(async () => stack?.close());

describe('prefetch throttle', () => {
  it('429 rate_limited past the per-minute allowance, for that organization only', async () => {
    const { key } = await stack.newKey();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await stack.app.inject({ method: 'HEAD', url: `/v2/brands/throttled-${i}.test`, headers: bearer(key) });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.headers['x-bf-error']).toBe('rate_limited');
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429]);
    const { key: other } = await stack.newKey();
    expect((await stack.app.inject({ method: 'HEAD', url: '/v2/brands/other-org.test', headers: bearer(other) })).statusCode).toBe(202);
    // The throttle is on free prefetches only: a lookup by the same key is admitted (204: not held, nothing charged).
    expect((await stack.app.inject({ method: 'GET', url: '/v2/brands/throttled-0.test?cachedOnly=true', headers: bearer(key) })).statusCode).toBe(204);
  });
});
