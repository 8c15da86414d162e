import { newId } from '../domain/ids.js';
import type { ApiKeyRecord, Organization, Plan } from '../domain/accounts.js';
import type { AccountStore } from './billing-store.js';
import { generateApiKeySecret } from './api-key-secret.js';

export interface CreatedApiKey {
  id: string;
  orgId: string;
  name: string;
  /** The secret, returned exactly once; only its hash is stored. */
  key: string;
  prefix: string;
  createdAt: Date;
}

export interface AccountDefaults {
  freeQuota: number;
  paidQuota: number;
  /**
   * This process's cache of verified keys (the Authenticator): a revoked key is dropped from it at once, other
   * processes' caches within BRANDBASE_KEY_CACHE_MS. Absent where no key is verified (the CLI).
   */
  verifiedKeys?: { forget(keyId: string): void };
}

export class AccountError extends Error {
  constructor(
    readonly code: 'org_not_found' | 'key_not_found' | 'invalid_argument',
    message: string,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}

/** Operator administration of organizations and API keys (the CLI's back end). */
export class Accounts {
  constructor(
    private readonly store: AccountStore,
    private readonly defaults: AccountDefaults,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async createOrganization(input: { name: string; plan?: Plan; quota?: number }): Promise<Organization> {
    const name = input.name.trim();
    if (!name || name.length > 200) throw new AccountError('invalid_argument', 'Organization name must be 1 to 200 characters.');
    const plan = input.plan ?? 'free';
    const quota = input.quota ?? (plan === 'paid' ? this.defaults.paidQuota : this.defaults.freeQuota);
    if (!Number.isInteger(quota) || quota < 0) throw new AccountError('invalid_argument', 'Quota must be a whole number of credits >= 0.');
    return this.store.createOrganization({ id: newId('org'), name, plan, quota, createdAt: this.now() });
  }

  listOrganizations(): Promise<Organization[]> {
    return this.store.listOrganizations();
  }

  getOrganization(id: string): Promise<Organization | null> {
    return this.store.getOrganization(id);
  }

  async createApiKey(input: { orgId: string; name?: string }): Promise<CreatedApiKey> {
    const org = await this.store.getOrganization(input.orgId);
    if (!org) throw new AccountError('org_not_found', `No organization with id ${input.orgId}.`);
    const { secret, secretHash, prefix } = generateApiKeySecret();
    const record: ApiKeyRecord = {
      id: newId('key'),
      orgId: org.id,
      name: input.name?.trim() || 'Default key',
      secretHash,
      prefix,
      createdAt: this.now(),
      revokedAt: null,
    };
    await this.store.createApiKey(record);
    return { id: record.id, orgId: org.id, name: record.name, key: secret, prefix, createdAt: record.createdAt };
  }

  async revokeApiKey(keyId: string): Promise<ApiKeyRecord> {
    const revoked = await this.store.revokeApiKey(keyId, this.now());
    const key = revoked ? await this.store.getApiKey(keyId) : null;
    if (!key) throw new AccountError('key_not_found', `No API key with id ${keyId}.`);
    this.defaults.verifiedKeys?.forget(keyId);
    return key;
  }

  listApiKeys(orgId: string): Promise<ApiKeyRecord[]> {
    return this.store.listApiKeys(orgId);
  }
}
