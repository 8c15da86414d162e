/** Payment settings: defaults for the embedded offline case, and the refusals that keep money settings exact. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';

const loadPaymentsConfig = (env: Record<string, string>) => loadConfig(env).payments;

describe('payment settings', () => {
  it('default to x402 and MPP on Base Sepolia USDC, 100000 base units, settled by the embedded facilitator', () => {
    expect(loadPaymentsConfig({})).toEqual({
      enabled: true,
      network: 'eip155:84532',
      asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      assetName: 'USDC',
      assetVersion: '2',
      payTo: '0x000000000000000000000000000000000000b4b4',
      priceUnits: 100_000n,
      maxTimeoutSeconds: 300,
      facilitatorUrl: null,
      mpp: true,
      mppSecretKey: null,
      card: true,
      stripeSecretKey: null,
      stripeNetworkId: 'brandbase-embedded',
    });
  });

  it('cards: the embedded processor offline, Stripe with a key and its network profile, refused where neither can charge', () => {
    const remote = { BRANDBASE_X402_FACILITATOR_URL: 'https://x402.org/facilitator', BRANDBASE_X402_PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' };
    expect(loadPaymentsConfig(remote)).toMatchObject({ mpp: false, card: false });
    expect(() => loadPaymentsConfig({ ...remote, BRANDBASE_MPP_CARD: 'on' })).toThrow(/BRANDBASE_MPP_CARD=on needs BRANDBASE_MPP_STRIPE_SECRET_KEY/);
    expect(() => loadPaymentsConfig({ ...remote, BRANDBASE_MPP_STRIPE_SECRET_KEY: 'sk_test_abc123' })).toThrow(/BRANDBASE_MPP_STRIPE_NETWORK_ID is required/);
    expect(loadPaymentsConfig({ ...remote, BRANDBASE_MPP_STRIPE_SECRET_KEY: 'sk_test_abc123', BRANDBASE_MPP_STRIPE_NETWORK_ID: 'profile_123' })).toMatchObject({
      card: true,
      stripeSecretKey: 'sk_test_abc123',
      stripeNetworkId: 'profile_123',
    });
    expect(loadPaymentsConfig({ BRANDBASE_MPP_CARD: 'off' })).toMatchObject({ mpp: true, card: false });
  });

  it('a remote facilitator needs the operator’s own payee and turns MPP off by default', () => {
    expect(() => loadPaymentsConfig({ BRANDBASE_X402_FACILITATOR_URL: 'https://x402.org/facilitator' })).toThrow(/BRANDBASE_X402_PAY_TO is required/);
    const remote = loadPaymentsConfig({ BRANDBASE_X402_FACILITATOR_URL: 'https://x402.org/facilitator', BRANDBASE_X402_PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' });
    expect(remote).toMatchObject({ facilitatorUrl: 'https://x402.org/facilitator', mpp: false });
    expect(() => loadPaymentsConfig({ BRANDBASE_X402_FACILITATOR_URL: 'https://x402.org/facilitator', BRANDBASE_X402_PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C', BRANDBASE_MPP: 'on' })).toThrow(/embedded ledger only/);
  });

  it.each([
    ['BRANDBASE_X402_PRICE_UNITS', '0.10'],
    ['BRANDBASE_X402_PRICE_UNITS', '0'],
    ['BRANDBASE_X402_PAY_TO', '0x1234'],
    ['BRANDBASE_X402_NETWORK', 'base-sepolia'],
    ['BRANDBASE_X402_MAX_TIMEOUT_SECONDS', '5'],
    ['BRANDBASE_PAYMENTS', 'yes'],
    ['BRANDBASE_MPP_SECRET_KEY', 'short'],
    ['BRANDBASE_MPP_CARD', 'yes'],
    ['BRANDBASE_MPP_STRIPE_SECRET_KEY', 'pk_live_123'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadPaymentsConfig({ [name]: value })).toThrow(name);
  });
});
