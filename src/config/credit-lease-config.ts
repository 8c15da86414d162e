/**
 * Credit lease settings (docs/configuration.md, "Billing"; docs/billing.md#credits-across-processes; ADR 0040).
 * Each API process serves reservations from blocks of credits it leased; a process that dies holds its block until
 * the lease expires.
 */

/** Reported like config.ts's ConfigError (the CLI prints it as a user error by its name). */
class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export interface CreditLeaseConfig {
  /** A lease not renewed for this long expires: the credits a crashed process held come back after it. */
  leaseMs: number;
  /** Credits a process leases at a time while plenty are left (near the limit, only what requests wait for). */
  block: number;
}

export const CREDIT_LEASE_ENV_VARS = ['BRANDBASE_CREDIT_LEASE_MS', 'BRANDBASE_CREDIT_BLOCK'] as const;

function integer(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

export function loadCreditLeaseConfig(env: Env): CreditLeaseConfig {
  // Below a second, renewals (every quarter of the lease) would be a steady write load of their own.
  return { leaseMs: integer(env, 'BRANDBASE_CREDIT_LEASE_MS', 30_000, 1000), block: integer(env, 'BRANDBASE_CREDIT_BLOCK', 50, 1) };
}
