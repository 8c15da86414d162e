import { createHash, randomBytes } from 'node:crypto';

/** The vendor segment of every URN we mint (spec 2.9: `urn:<vendor>:...`). */
export const URN_VENDOR = 'brandbase';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

/**
 * Brand IDs are `brd_` plus 20 base32 characters derived from the registrable domain the brand was first
 * indexed under. The underscore can never appear in a hostname label we accept, a ticker, an ISIN or a crypto
 * symbol, so a brand ID is never mistaken for any of them (docs/identifiers.md). Deriving it from the first
 * domain makes the ID stable across re-crawls and identical across installs; it is stored, never recomputed,
 * so a brand that later moves to another domain keeps it.
 */
export const BRAND_ID_PATTERN = /^brd_[a-z2-7]{20}$/;

export function brandIdForDomain(domain: string): string {
  const digest = createHash('sha256').update(`brand:${domain}`).digest();
  return `brd_${base32(digest, 20)}`;
}

export function isBrandId(value: string): boolean {
  return BRAND_ID_PATTERN.test(value);
}

export function brandUrn(brandId: string): string {
  return `urn:${URN_VENDOR}:brand:${brandId}`;
}

export function organizationUrn(orgId: string): string {
  return `urn:${URN_VENDOR}:organization:${orgId}`;
}

export function apiKeyUrn(orgId: string, keyId: string): string {
  return `urn:${URN_VENDOR}:organization:${orgId}:api-key:${keyId}`;
}

/** A random prefixed ID for our own records (`org_`, `key_`, `job_`, ...). */
export function newId(prefix: 'org' | 'key' | 'job' | 'use' | 'req' | 'evt' | 'pay' | 'whk' | 'msg' | 'mco'): string {
  return `${prefix}_${base32(randomBytes(16), 24)}`;
}
