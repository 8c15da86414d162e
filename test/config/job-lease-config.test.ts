/**
 * BRANDBASE_JOB_LEASE_MS (docs/configuration.md, docs/deployment.md "When a process dies"): how long a claimed job is
 * leased; a lease a crawl could outlast would let a second worker claim a running crawl, so it is refused.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('the job lease setting', () => {
  it('defaults to two minutes and takes a longer value', () => {
    expect(loadConfig({}).jobLeaseMs).toBe(120_000);
    expect(loadConfig({ BRANDBASE_JOB_LEASE_MS: '300000' }).jobLeaseMs).toBe(300_000);
  });

  it('is refused when a crawl (budget plus kill grace) could outlast it, with both settings named', () => {
    expect(loadConfig({ BRANDBASE_JOB_LEASE_MS: '26000', BRANDBASE_CRAWL_TIMEOUT_MS: '20000', BRANDBASE_CRAWL_KILL_GRACE_MS: '5000' }).jobLeaseMs).toBe(26_000);
    const refuse = (env: Record<string, string>): void => void loadConfig(env);
    expect(() => refuse({ BRANDBASE_JOB_LEASE_MS: '25000' })).toThrow(ConfigError);
    expect(() => refuse({ BRANDBASE_JOB_LEASE_MS: '25000' })).toThrow(/BRANDBASE_CRAWL_TIMEOUT_MS \+ BRANDBASE_CRAWL_KILL_GRACE_MS \(25000\)/);
    expect(() => refuse({ BRANDBASE_CRAWL_TIMEOUT_MS: '200000' })).toThrow(/BRANDBASE_JOB_LEASE_MS must be longer/);
    expect(() => refuse({ BRANDBASE_JOB_LEASE_MS: 'soon' })).toThrow(/BRANDBASE_JOB_LEASE_MS must be an integer/);
  });
});
