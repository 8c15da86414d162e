/**
 * The keys of the dashboard (ADR 0043), all derived from one secret: BRANDBASE_SESSION_SECRET when set, otherwise a
 * random secret generated once and kept in the store (the first process to start writes it, every other process of
 * the fleet reads the same row), so sessions signed by one API process verify on every other with no setup.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DashboardAccountStore } from './dashboard-account-store.js';

/** The name of the stored secret (the dashboard_secrets row). */
export const SESSION_SECRET_NAME = 'session';

export interface DashboardKeys {
  /** HS256 key of the session JWTs. */
  jwt: Uint8Array;
  /** HMAC of a value for one purpose (CSRF token, sign-in code, rate-limit key): base64url. */
  mac(purpose: 'csrf' | 'code' | 'limit', value: string): string;
}

function derive(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`brandbase dashboard ${purpose}`).digest();
}

export function dashboardKeys(secret: string): DashboardKeys {
  const macKeys = { csrf: derive(secret, 'csrf'), code: derive(secret, 'code'), limit: derive(secret, 'limit') };
  return {
    jwt: new Uint8Array(derive(secret, 'jwt')),
    mac: (purpose, value) => createHmac('sha256', macKeys[purpose]).update(value).digest('base64url'),
  };
}

/** Resolves the secret once per process: the configured one, or the store's (created when missing). */
export function lazyDashboardKeys(store: DashboardAccountStore, configured: string | null): () => Promise<DashboardKeys> {
  let keys: Promise<DashboardKeys> | undefined;
  return () => {
    keys ??= (async () => dashboardKeys(configured ?? (await store.dashboardSecret(SESSION_SECRET_NAME, randomBytes(32).toString('hex'), new Date()))))();
    // A failed read (store down) is not remembered: the next request tries again.
    keys.catch(() => (keys = undefined));
    return keys;
  };
}

/** Constant-time comparison of two base64url MACs. */
export function sameMac(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
