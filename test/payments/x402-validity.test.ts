/** The longest validity of an x402 authorization (issue 33, docs/payments.md): the boundary, on a fixed clock. */
import { describe, expect, it } from 'vitest';
import { validTooLong, X402_CLOCK_SKEW_SECONDS } from '../../src/payments/x402-payments.js';

describe('validTooLong', () => {
  const now = new Date('2026-03-15T12:00:00.400Z');
  const nowSeconds = Math.floor(now.getTime() / 1000);

  it('accepts validBefore up to now + maxTimeoutSeconds + the clock skew, and refuses one second more', () => {
    expect(validTooLong(String(nowSeconds + 300), now, 300)).toBe(false);
    expect(validTooLong(String(nowSeconds + 300 + X402_CLOCK_SKEW_SECONDS), now, 300)).toBe(false);
    expect(validTooLong(String(nowSeconds + 300 + X402_CLOCK_SKEW_SECONDS + 1), now, 300)).toBe(true);
  });

  it('refuses ten years and any 20-digit value, without losing precision', () => {
    expect(validTooLong(String(nowSeconds + 10 * 365 * 86_400), now, 300)).toBe(true);
    expect(validTooLong('99999999999999999999', now, 86_400)).toBe(true);
  });

  it('leaves expired ones to the facilitator (not too long)', () => {
    expect(validTooLong(String(nowSeconds - 10), now, 300)).toBe(false);
    expect(validTooLong('0', now, 300)).toBe(false);
  });
});
