/** The crawl queue's admission policy (ADR 0050), as a pure function of the counts, the owner's standing and the rules. */
import { describe, expect, it } from 'vitest';
import { isPaidStanding, queueAdmission, queueShare, type QueueAdmissionRules, type QueueStanding } from '../../src/domain/queue-admission.js';

const DAY = 86_400_000;
const RULES: QueueAdmissionRules = { maxDepth: 1000, paidReserve: 250, maxPerOrg: 100, maxPerNewOrg: 10, maxPerClientId: 20, newOrgAgeMs: 7 * DAY, paidMinSpendCents: 1000 };
const paid: QueueStanding = { channel: 'api', plan: 'paid', ageMs: 0, spentCents: 0 };
/** A standing-access account bought for a dollar a moment ago: the free plan, 100 cents spent. */
const dollar: QueueStanding = { channel: 'api', plan: 'free', ageMs: 60_000, spentCents: 100 };
const operator: QueueStanding = { channel: 'operator', plan: null, ageMs: null, spentCents: 0 };
const wallet: QueueStanding = { channel: 'api', plan: null, ageMs: null, spentCents: 0 };

const admit = (standing: QueueStanding, queued: number, ownerActive: number, rules = RULES) => queueAdmission(standing, { queued, ownerActive }, rules);

describe('queue shares', () => {
  it('a paid plan or real spend is paid; a dollar is not', () => {
    expect(isPaidStanding(paid, RULES)).toBe(true);
    expect(isPaidStanding({ ...dollar, spentCents: 1000 }, RULES)).toBe(true);
    expect(isPaidStanding(dollar, RULES)).toBe(false);
    expect(isPaidStanding(wallet, RULES)).toBe(false);
  });

  it('a new unpaid organization (or an owner with no organization) gets the small share; age lifts it', () => {
    expect(queueShare(paid, RULES)).toBe(100);
    expect(queueShare(dollar, RULES)).toBe(10);
    expect(queueShare(wallet, RULES)).toBe(10);
    expect(queueShare({ ...dollar, ageMs: 7 * DAY }, RULES)).toBe(100);
    expect(queueShare(operator, RULES)).toBe(Number.POSITIVE_INFINITY);
  });

  it('a client ID has its own share, never more than its organization\'s', () => {
    expect(queueShare({ ...paid, channel: 'client' }, RULES)).toBe(20);
    expect(queueShare({ ...dollar, channel: 'client' }, RULES)).toBe(10);
    expect(queueShare({ ...paid, channel: 'client' }, { ...RULES, maxPerOrg: 5 })).toBe(5);
  });
});

describe('queueAdmission', () => {
  it('refuses everyone at the depth, the operator included', () => {
    for (const standing of [paid, dollar, operator]) expect(admit(standing, 1000, 0)).toEqual({ admitted: false, reason: 'depth', scope: 'queue', count: 1000 });
  });

  it('refuses an owner at its share (scope owner), whatever room is left', () => {
    expect(admit(paid, 0, 100)).toEqual({ admitted: false, reason: 'share', scope: 'owner', count: 100 });
    expect(admit(dollar, 0, 10)).toMatchObject({ admitted: false, reason: 'share', scope: 'owner' });
    expect(admit(dollar, 0, 9)).toEqual({ admitted: true });
  });

  it('eleven (or any number of) dollar accounts fill at most the general pool; a paid organization still queues', () => {
    // The general pool is maxDepth - paidReserve = 750 places.
    expect(admit(dollar, 749, 0)).toEqual({ admitted: true });
    expect(admit(dollar, 750, 0)).toEqual({ admitted: false, reason: 'reserve', scope: 'queue', count: 750 });
    expect(admit({ ...dollar, ageMs: 30 * DAY }, 750, 0)).toMatchObject({ admitted: false, reason: 'reserve' });
    expect(admit(wallet, 750, 0)).toMatchObject({ admitted: false, reason: 'reserve' });
    expect(admit(paid, 750, 0)).toEqual({ admitted: true });
    expect(admit({ ...dollar, spentCents: 1000 }, 750, 0)).toEqual({ admitted: true });
    expect(admit(operator, 999, 0)).toEqual({ admitted: true });
  });

  it('never lets a client ID queue from the reserve, even a paid organization\'s', () => {
    expect(admit({ ...paid, channel: 'client' }, 749, 0)).toEqual({ admitted: true });
    expect(admit({ ...paid, channel: 'client' }, 750, 0)).toMatchObject({ admitted: false, reason: 'reserve', scope: 'queue' });
  });

  it('back-pressure: inside the reserve the cap shrinks with the room, so the biggest holders are refused first', () => {
    // Room 250 of 250: the full share; room 125: half of it; room 1: one job.
    expect(admit(paid, 750, 99)).toEqual({ admitted: true });
    expect(admit(paid, 875, 49)).toEqual({ admitted: true });
    expect(admit(paid, 875, 50)).toEqual({ admitted: false, reason: 'pressure', scope: 'queue', count: 875 });
    expect(admit(paid, 999, 1)).toMatchObject({ admitted: false, reason: 'pressure' });
    // An owner holding nothing is admitted to the very last place.
    expect(admit(paid, 999, 0)).toEqual({ admitted: true });
  });

  it('with no reserve, admission is the depth and the shares alone (the bounds before ADR 0050)', () => {
    const rules = { ...RULES, paidReserve: 0 };
    expect(admit(dollar, 999, 0, rules)).toEqual({ admitted: true });
    expect(admit(paid, 999, 99, rules)).toEqual({ admitted: true });
  });

  it('a reserve as large as the depth keeps the whole queue for paid organizations', () => {
    const rules = { ...RULES, paidReserve: 5000 };
    expect(admit(dollar, 0, 0, rules)).toMatchObject({ admitted: false, reason: 'reserve' });
    expect(admit(paid, 0, 0, rules)).toEqual({ admitted: true });
  });
});
