/**
 * BRANDBASE_TRUST_PROXY (docs/configuration.md, docs/deployment.md "A load balancer in front"): whose X-Forwarded-For
 * gives the client address. The behaviour through HTTP is tested with the per-address search limit
 * (test/brand-pages/brand-pages.test.ts); here, what the setting accepts and refuses.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('the trusted-proxy setting', () => {
  it('trusts nobody by default, anybody with true, and the listed addresses or subnets otherwise', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ BRANDBASE_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ BRANDBASE_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ BRANDBASE_TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,fd00::/8' }).trustProxy).toEqual(['10.0.0.5', '10.1.0.0/16', 'fd00::/8']);
  });

  it('refuses anything else, naming the setting', () => {
    expect(() => loadConfig({ BRANDBASE_TRUST_PROXY: 'nginx.internal' })).toThrow(ConfigError);
    expect(() => loadConfig({ BRANDBASE_TRUST_PROXY: 'yes' })).toThrow(/BRANDBASE_TRUST_PROXY must be true or addresses/);
  });
});
