import { ApiError } from '../domain/errors.js';
import type { ApiKeyRecord, Organization } from '../domain/accounts.js';
import type { AccountStore } from './billing-store.js';
import { hashApiKeySecret } from './api-key-secret.js';
import { ByteLru, stringBytes } from '../platform/byte-lru.js';

export interface Principal {
  key: ApiKeyRecord;
  org: Organization;
}

export type Credential = { kind: 'none' } | { kind: 'bearer'; token: string };

/** RFC 6750 `b64token` syntax; anything else after "Bearer " is a malformed header (401), not an unknown key. */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/** Reads the Authorization header. Throws 401 `malformed_authorization` for a header that is not a Bearer token. */
export function readCredential(header: string | undefined): Credential {
  if (header === undefined) return { kind: 'none' };
  const match = BEARER.exec(header.trim());
  if (!match?.[1]) throw new ApiError('malformed_authorization');
  return { kind: 'bearer', token: match[1] };
}

interface CacheEntry {
  principal: Principal;
  expires: number;
}

/** Default budget of verified keys kept (BRANDBASE_KEY_CACHE_MB): tens of thousands of keys. */
export const DEFAULT_KEY_CACHE_BYTES = 8 * 1024 * 1024;

/** Estimated heap of one entry: the token (the key) and the key and organization records, from their JSON length. */
function entryBytes(entry: CacheEntry, token: string): number {
  return stringBytes(token) + JSON.stringify(entry.principal).length * 3;
}

/**
 * Verifies API keys. Verified keys are cached for `cacheMs` so the lookup hot path does no database read; a
 * revocation made by this process takes effect at once, one made by another process (the CLI) within `cacheMs`.
 * Unknown keys are never cached, so a key created a moment ago works on its first request.
 */
export class Authenticator {
  /** Least recently used out, bounded by estimated bytes (ADR 0042). */
  private readonly cache: ByteLru<string, CacheEntry>;

  constructor(
    private readonly store: AccountStore,
    private readonly cacheMs: number,
    private readonly clock: () => number = Date.now,
    maxBytes = DEFAULT_KEY_CACHE_BYTES,
  ) {
    this.cache = new ByteLru(maxBytes, entryBytes);
  }

  async authenticate(token: string): Promise<Principal> {
    // Keyed by the token itself (memory only, never stored or logged): no hash on the cached path.
    const cached = this.cache.get(token);
    if (cached && cached.expires > this.clock()) return cached.principal;
    const hash = hashApiKeySecret(token);
    const key = await this.store.findApiKeyBySecretHash(hash);
    if (!key || key.revokedAt) {
      this.cache.delete(token);
      throw new ApiError('invalid_api_key');
    }
    const org = await this.store.getOrganization(key.orgId);
    if (!org) throw new ApiError('invalid_api_key');
    const principal = { key, org };
    if (this.cacheMs > 0) this.cache.set(token, { principal, expires: this.clock() + this.cacheMs });
    return principal;
  }

  /** Drops cached entries of a key (after a revocation in this process). */
  forget(keyId: string): void {
    for (const [token, entry] of [...this.cache.entries()]) if (entry.principal.key.id === keyId) this.cache.delete(token);
  }
}
