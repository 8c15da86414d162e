/**
 * The persistence port. Features and the HTTP layer depend on this file only; `store/sqlite` and
 * `store/postgres` implement it, and one contract suite (test/store/store.contract.ts) proves both.
 * Every method is atomic on its own: a method that writes several rows writes all or none.
 */
import type { Brand } from '../domain/brand.js';

export type IdentifierKind = 'domain' | 'ticker' | 'isin' | 'crypto';
export type BrandStatus = 'indexed' | 'removed';

/** The record as stored: the Brand without its per-request parts (palette) plus bookkeeping. */
export interface StoredBrand {
  brand: Brand;
  status: BrandStatus;
  /** When the record was last built from the brand's website. */
  crawledAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface IdentifierRef {
  kind: IdentifierKind;
  /** Normalised value: lower-case registrable domain; upper-case ticker/ISIN/crypto symbol. */
  value: string;
}

export type Plan = 'free' | 'paid';

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  /** Credits per billing period. */
  quota: number;
  createdAt: Date;
}

export interface NewOrganization {
  id: string;
  name: string;
  plan: Plan;
  quota: number;
  createdAt: Date;
}

export interface ApiKeyRecord {
  id: string;
  orgId: string;
  name: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  secretHash: string;
  /** The first characters of the key, kept so an operator can tell keys apart. Not secret. */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface UsageEntry {
  id: string;
  orgId: string;
  keyId: string | null;
  /** Integer credits; positive for a charge. Entries are appended, never updated. */
  credits: number;
  /** What was charged, e.g. `brand.lookup`. Never a URL or email address. */
  reason: string;
  createdAt: Date;
}

export interface BrandStore {
  getBrand(id: string): Promise<StoredBrand | null>;
  findBrandByIdentifier(ref: IdentifierRef): Promise<StoredBrand | null>;
  /**
   * Insert or replace the brand (keyed by `brand.id`) and attach the identifiers to it, in one transaction.
   * An identifier already attached to another brand is moved to this one.
   */
  saveBrand(brand: StoredBrand, identifiers: IdentifierRef[]): Promise<void>;
  setBrandStatus(id: string, status: BrandStatus, at: Date): Promise<boolean>;
  listIdentifiers(brandId: string): Promise<IdentifierRef[]>;
}

export interface AccountStore {
  createOrganization(org: NewOrganization): Promise<Organization>;
  getOrganization(id: string): Promise<Organization | null>;
  listOrganizations(): Promise<Organization[]>;
  updateOrganization(id: string, patch: Partial<Pick<Organization, 'name' | 'plan' | 'quota'>>): Promise<Organization | null>;
  createApiKey(key: ApiKeyRecord): Promise<void>;
  getApiKey(id: string): Promise<ApiKeyRecord | null>;
  findApiKeyBySecretHash(secretHash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(orgId: string): Promise<ApiKeyRecord[]>;
  /** Returns false when the key does not exist; revoking twice keeps the first revocation time. */
  revokeApiKey(id: string, at: Date): Promise<boolean>;
}

export interface UsageStore {
  /** Appends entries in one transaction: all are written or none (the usage meter flushes in groups). */
  appendUsage(entries: readonly UsageEntry[]): Promise<void>;
  /** Sum of credits charged to the organization with createdAt in [from, to). */
  sumUsage(orgId: string, from: Date, to: Date): Promise<number>;
}

export interface Store extends BrandStore, AccountStore, UsageStore {
  /** Applies pending migrations. Idempotent. */
  migrate(): Promise<void>;
  /** Cheap round trip used by readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
