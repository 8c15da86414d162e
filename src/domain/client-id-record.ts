/**
 * Client IDs as stored (issue 20, spec 5.4): publishable, so kept plain (unlike API keys, which are hashed). The
 * gate that admits requests with them is the port in client-ids.ts.
 */
import type { ClientIdProduct } from './client-ids.js';

/** `cid_` + 24 base32 characters: never the shape of an API key (`bb_live_…`), so neither passes for the other. */
export const CLIENT_ID_PATTERN = /^cid_[a-z2-7]{24}$/;

export interface ClientIdRecord {
  id: string;
  orgId: string;
  name: string;
  /** Hosts allowed to embed it (`example.com` exactly, `*.example.com` any subdomain); empty: any referrer. */
  allowedReferrers: string[];
  /** When true, a request without Referer/Origin is refused; by default server-side fetches are allowed. */
  requireReferrer: boolean;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Requests counted for one client ID, product and billing period (added to what is stored). */
export interface ClientIdUsageEntry {
  clientId: string;
  orgId: string;
  product: ClientIdProduct;
  /** Billing period key, `YYYY-MM`. */
  period: string;
  requests: number;
}

/** `example.com` or `*.example.com`, lower case: the only shapes an allowed referrer may take. */
const REFERRER_HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$|^localhost$/;

export function isReferrerPattern(value: string): boolean {
  return value.length <= 253 && REFERRER_HOST.test(value);
}

/** Whether `host` (lower case) is allowed by the patterns; an empty list allows every host. */
export function referrerAllowed(patterns: readonly string[], host: string): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((p) => (p.startsWith('*.') ? host.endsWith(p.slice(1)) && host.length > p.length - 1 : host === p));
}
