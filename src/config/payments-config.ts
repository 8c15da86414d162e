/**
 * Payment settings (docs/configuration.md, "Payments"; ADR 0028). The defaults serve the embedded, offline case:
 * x402 on Base Sepolia's USDC, settled by the embedded facilitator over the store's ledger. Production sets a
 * facilitator URL, a mainnet network and asset, and the operator's own receiving address.
 */
import { EMBEDDED_CARD_NETWORK } from '../domain/access-purchases.js';
import type { X402Settings } from '../domain/x402-settings.js';

/** Reported like config.ts's ConfigError (the CLI prints it as a user error by its name). */
class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** The x402 settings (domain/x402-settings.ts), whether payments are on, and MPP's. */
export interface PaymentsConfig extends X402Settings {
  /** Pay-per-request on (default) or off (a 402 then carries no payment challenge). */
  enabled: boolean;
  /** MPP (`WWW-Authenticate: Payment`, mppx evm method) on the embedded ledger; off with a remote facilitator. */
  mpp: boolean;
  /** HMAC key binding MPP challenges (at least 32 characters); null: a random key per process. */
  mppSecretKey: string | null;
  /** Card payments for standing access over MPP (mppx `stripe` method): spec 5.3 "over MPP also by card". */
  card: boolean;
  /** Stripe secret key: cards are charged by Stripe; null: by the embedded card processor (offline demos, tests). */
  stripeSecretKey: string | null;
  /** The Stripe business network profile id card challenges name (EMBEDDED_CARD_NETWORK without Stripe). */
  stripeNetworkId: string;
}

export const PAYMENT_ENV_VARS = [
  'BRANDBASE_PAYMENTS',
  'BRANDBASE_X402_NETWORK',
  'BRANDBASE_X402_ASSET',
  'BRANDBASE_X402_ASSET_NAME',
  'BRANDBASE_X402_ASSET_VERSION',
  'BRANDBASE_X402_PAY_TO',
  'BRANDBASE_X402_PRICE_UNITS',
  'BRANDBASE_X402_MAX_TIMEOUT_SECONDS',
  'BRANDBASE_X402_FACILITATOR_URL',
  'BRANDBASE_MPP',
  'BRANDBASE_MPP_SECRET_KEY',
  'BRANDBASE_MPP_CARD',
  'BRANDBASE_MPP_STRIPE_SECRET_KEY',
  'BRANDBASE_MPP_STRIPE_NETWORK_ID',
] as const;

/** A placeholder receiving address for the embedded ledger; a remote facilitator requires a real one. */
export const EMBEDDED_PAY_TO = '0x000000000000000000000000000000000000b4b4';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function text(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

function address(env: Env, name: string, fallback: string): string {
  const value = text(env, name) ?? fallback;
  if (!ADDRESS.test(value)) throw new ConfigError(`${name} must be a 0x-prefixed 20-byte hex address, got "${value}"`);
  return value;
}

export function loadPaymentsConfig(env: Env): PaymentsConfig {
  const switchValue = text(env, 'BRANDBASE_PAYMENTS') ?? 'on';
  if (switchValue !== 'on' && switchValue !== 'off') throw new ConfigError(`BRANDBASE_PAYMENTS must be on or off, got "${switchValue}"`);
  const network = text(env, 'BRANDBASE_X402_NETWORK') ?? 'eip155:84532';
  if (!/^eip155:\d+$/.test(network)) throw new ConfigError(`BRANDBASE_X402_NETWORK must be a CAIP-2 EVM network such as eip155:8453, got "${network}"`);
  const price = text(env, 'BRANDBASE_X402_PRICE_UNITS') ?? '100000';
  if (!/^[1-9]\d{0,15}$/.test(price)) throw new ConfigError(`BRANDBASE_X402_PRICE_UNITS must be a positive whole number of base units, got "${price}"`);
  const timeout = text(env, 'BRANDBASE_X402_MAX_TIMEOUT_SECONDS') ?? '300';
  if (!/^\d+$/.test(timeout) || Number(timeout) < 60 || Number(timeout) > 86_400) throw new ConfigError(`BRANDBASE_X402_MAX_TIMEOUT_SECONDS must be 60 to 86400, got "${timeout}"`);
  const facilitatorUrl = text(env, 'BRANDBASE_X402_FACILITATOR_URL');
  if (facilitatorUrl !== null && !/^https?:\/\//.test(facilitatorUrl)) throw new ConfigError(`BRANDBASE_X402_FACILITATOR_URL must be an http(s) URL, got "${facilitatorUrl}"`);
  if (facilitatorUrl !== null && text(env, 'BRANDBASE_X402_PAY_TO') === null) throw new ConfigError('BRANDBASE_X402_PAY_TO is required with BRANDBASE_X402_FACILITATOR_URL: payments must reach your own address');
  const mpp = text(env, 'BRANDBASE_MPP') ?? (facilitatorUrl === null ? 'on' : 'off');
  if (mpp !== 'on' && mpp !== 'off') throw new ConfigError(`BRANDBASE_MPP must be on or off, got "${mpp}"`);
  if (mpp === 'on' && facilitatorUrl !== null) throw new ConfigError('BRANDBASE_MPP=on settles on the embedded ledger only: unset BRANDBASE_X402_FACILITATOR_URL or set BRANDBASE_MPP=off');
  const mppSecretKey = text(env, 'BRANDBASE_MPP_SECRET_KEY');
  if (mppSecretKey !== null && mppSecretKey.length < 32) throw new ConfigError('BRANDBASE_MPP_SECRET_KEY must be at least 32 characters');
  return {
    mpp: mpp === 'on',
    mppSecretKey,
    ...cardSettings(env, mpp === 'on', facilitatorUrl),
    enabled: switchValue === 'on',
    network,
    asset: address(env, 'BRANDBASE_X402_ASSET', '0x036CbD53842c5426634e7929541eC2318f3dCF7e'),
    assetName: text(env, 'BRANDBASE_X402_ASSET_NAME') ?? 'USDC',
    assetVersion: text(env, 'BRANDBASE_X402_ASSET_VERSION') ?? '2',
    payTo: address(env, 'BRANDBASE_X402_PAY_TO', EMBEDDED_PAY_TO),
    priceUnits: BigInt(price),
    maxTimeoutSeconds: Number(timeout),
    facilitatorUrl,
  };
}

/**
 * Card payments (standing access only): on by default wherever they can be taken, i.e. with a Stripe secret key,
 * or offline (MPP on the embedded ledger) with the embedded card processor.
 */
function cardSettings(env: Env, mpp: boolean, facilitatorUrl: string | null): Pick<PaymentsConfig, 'card' | 'stripeSecretKey' | 'stripeNetworkId'> {
  const stripeSecretKey = text(env, 'BRANDBASE_MPP_STRIPE_SECRET_KEY');
  const embeddedPossible = mpp && facilitatorUrl === null;
  const card = text(env, 'BRANDBASE_MPP_CARD') ?? (stripeSecretKey !== null || embeddedPossible ? 'on' : 'off');
  if (card !== 'on' && card !== 'off') throw new ConfigError(`BRANDBASE_MPP_CARD must be on or off, got "${card}"`);
  if (stripeSecretKey !== null && !/^(sk|rk)_(live|test)_\w+$/.test(stripeSecretKey)) throw new ConfigError('BRANDBASE_MPP_STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…)');
  if (card === 'on' && stripeSecretKey === null && !embeddedPossible) {
    throw new ConfigError('BRANDBASE_MPP_CARD=on needs BRANDBASE_MPP_STRIPE_SECRET_KEY, or the embedded card processor (BRANDBASE_MPP=on without BRANDBASE_X402_FACILITATOR_URL)');
  }
  const networkId = text(env, 'BRANDBASE_MPP_STRIPE_NETWORK_ID');
  if (card === 'on' && stripeSecretKey !== null && networkId === null) throw new ConfigError('BRANDBASE_MPP_STRIPE_NETWORK_ID is required with BRANDBASE_MPP_STRIPE_SECRET_KEY (your Stripe business network profile id)');
  return { card: card === 'on', stripeSecretKey, stripeNetworkId: networkId ?? EMBEDDED_CARD_NETWORK };
}
