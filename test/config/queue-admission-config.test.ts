/**
 * The crawl queue's admission settings (docs/configuration.md, ADR 0050): the reserve and the smaller shares default to
 * fractions of the depth and of the organization's share, an explicit value wins, and no share exceeds the organization's.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('the crawl queue admission settings', () => {
  it('default to a quarter of the depth in reserve, a tenth and a fifth of the share, 7 days, $10', () => {
    expect(loadConfig({}).queueAdmission).toEqual({ maxDepth: 1000, paidReserve: 250, maxPerOrg: 100, maxPerNewOrg: 10, maxPerClientId: 20, newOrgAgeMs: 604_800_000, paidMinSpendCents: 1000 });
    expect(loadConfig({ BRANDBASE_QUEUE_MAX_DEPTH: '30', BRANDBASE_QUEUE_MAX_PER_ORG: '3' }).queueAdmission).toMatchObject({ paidReserve: 7, maxPerNewOrg: 1, maxPerClientId: 1 });
  });

  it('take explicit values; a smaller share never exceeds the organization\'s', () => {
    const rules = loadConfig({
      BRANDBASE_QUEUE_PAID_RESERVE: '0', BRANDBASE_QUEUE_MAX_PER_NEW_ORG: '500', BRANDBASE_QUEUE_MAX_PER_CLIENT_ID: '3',
      BRANDBASE_QUEUE_NEW_ORG_AGE_MS: '0', BRANDBASE_QUEUE_PAID_MIN_SPEND_CENTS: '0',
    }).queueAdmission;
    expect(rules).toMatchObject({ paidReserve: 0, maxPerNewOrg: 100, maxPerClientId: 3, newOrgAgeMs: 0, paidMinSpendCents: 0 });
    expect(() => loadConfig({ BRANDBASE_QUEUE_MAX_PER_CLIENT_ID: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ BRANDBASE_QUEUE_PAID_RESERVE: '-1' })).toThrow(/BRANDBASE_QUEUE_PAID_RESERVE must be an integer/);
  });
});
