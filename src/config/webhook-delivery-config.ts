/**
 * Webhook delivery settings (docs/configuration.md, "Webhook delivery"; docs/webhooks.md "Delivery"; ADR 0031).
 */
import { isIP } from 'node:net';

/** Reported like config.ts's ConfigError (the CLI prints it as a user error by its name). */
class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export interface WebhookDeliveryConfig {
  /** IP addresses deliveries leave from, in turn (bound as the socket's local address); empty: the system's default. */
  sourceAddresses: readonly string[];
  /** Total time of one delivery attempt (connect, request, response head and excerpt). */
  timeoutMs: number;
  /** Deliveries one process sends at once (0: this process sends none; the fan-out still runs). */
  senders: number;
}

export const WEBHOOK_DELIVERY_ENV_VARS = ['BRANDBASE_WEBHOOK_SOURCE_ADDRESSES', 'BRANDBASE_WEBHOOK_TIMEOUT_MS', 'BRANDBASE_WEBHOOK_SENDERS'] as const;

function whole(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got ${raw}`);
  return value;
}

export function loadWebhookDeliveryConfig(env: Env): WebhookDeliveryConfig {
  const raw = env.BRANDBASE_WEBHOOK_SOURCE_ADDRESSES?.trim() ?? '';
  const sourceAddresses = raw === '' ? [] : raw.split(',').map((a) => a.trim()).filter((a) => a !== '');
  for (const address of sourceAddresses) {
    if (isIP(address) === 0) throw new ConfigError(`BRANDBASE_WEBHOOK_SOURCE_ADDRESSES must list IP addresses separated by commas, got ${address}`);
  }
  return {
    sourceAddresses: Object.freeze(sourceAddresses),
    timeoutMs: whole(env, 'BRANDBASE_WEBHOOK_TIMEOUT_MS', 15_000, 1_000, 60_000),
    senders: whole(env, 'BRANDBASE_WEBHOOK_SENDERS', 4, 0, 64),
  };
}
