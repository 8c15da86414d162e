/**
 * The persistence port. Features and the HTTP layer depend on this file only; `store/sqlite` and
 * `store/postgres` implement it, and one contract suite (test/store/store.contract.ts) proves both.
 * Every method is atomic on its own: a method that writes several rows writes all or none.
 */
import type { ApiKeyRecord, CreditGrant, NewOrganization, Organization, OrganizationPatch, UsageEntry, UsageNotice, UsageSummary } from '../domain/accounts.js';
import type { Brand } from '../domain/brand.js';
import type { Palette, PaletteEvidence } from '../domain/palette.js';
import type { BrandSavedEvent } from '../domain/brand-changes.js';
import type { CrawlFailureReason } from '../domain/crawl-failures.js';
import type { LedgerTransfer, PaymentClaim, PaymentQuery, PaymentRecord, PaymentTotal, StoredPaymentClaim } from '../domain/payments.js';
import type { ReferenceData } from '../refdata/reference-data.js';

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

/** The last failed crawl of a domain (the crawl failure memory, ADR 0016). */
export interface CrawlFailure {
  domain: string;
  reason: CrawlFailureReason;
  /** What went wrong, for logs and the operator; never sent to API clients. */
  message: string;
  /** Failures in a row, this one included (1 on the first). */
  strikes: number;
  failedAt: Date;
}

export interface BrandStore {
  getBrand(id: string): Promise<StoredBrand | null>;
  findBrandByIdentifier(ref: IdentifierRef): Promise<StoredBrand | null>;
  /**
   * Insert or replace the brand (keyed by `brand.id`) and attach the identifiers to it, in one transaction.
   * An identifier already attached to another brand is moved to this one.
   * The same transaction writes the `brand.saved` event (what changed against the record it replaces, read under
   * the write lock) and one delivery per subscribed consumer; the event is returned. No commit, no event.
   * It also appends the save to the brand write log (BrandWriteLog).
   */
  saveBrand(brand: StoredBrand, identifiers: IdentifierRef[]): Promise<BrandSavedEvent>;
  /** Returns false for an unknown brand. A status change is appended to the brand write log in the same transaction. */
  setBrandStatus(id: string, status: BrandStatus, at: Date): Promise<boolean>;
  listIdentifiers(brandId: string): Promise<IdentifierRef[]>;
  /** The domain's remembered crawl failure, or null (a primary-key read). */
  getCrawlFailure(domain: string): Promise<CrawlFailure | null>;
  /**
   * Remembers a failed crawl: inserts the row with one strike, or replaces reason, message and time and adds a
   * strike, in one statement (two processes failing at once both count). Returns the row as written.
   */
  recordCrawlFailure(failure: Omit<CrawlFailure, 'strikes'>): Promise<CrawlFailure>;
  /** Forgets the domains' failures (a crawl succeeded). */
  clearCrawlFailures(domains: readonly string[]): Promise<void>;
  /** Deletes failures older than `before`; returns how many. */
  pruneCrawlFailures(before: Date): Promise<number>;
}

export interface AccountStore {
  createOrganization(org: NewOrganization): Promise<Organization>;
  getOrganization(id: string): Promise<Organization | null>;
  listOrganizations(): Promise<Organization[]>;
  updateOrganization(id: string, patch: OrganizationPatch): Promise<Organization | null>;
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
  /** Per-source sums with createdAt in [from, to), plus the all-time prepaid balance, in one consistent read. */
  summarizeUsage(orgId: string, from: Date, to: Date): Promise<UsageSummary>;
}

export interface CreditStore {
  /** Appends a prepaid credit grant. */
  addCreditGrant(grant: CreditGrant): Promise<void>;
  listCreditGrants(orgId: string): Promise<CreditGrant[]>;
  /**
   * Records that a usage warning is being sent. Returns true only for the one caller that inserted the row:
   * (orgId, period, threshold) is unique, so two processes can never both send the same warning.
   */
  claimUsageNotice(notice: UsageNotice): Promise<boolean>;
  /** Drops a claim whose email could not be sent, so a later request may try again. */
  releaseUsageNotice(orgId: string, period: string, threshold: number): Promise<void>;
}

/** A delivery handed to a consumer; `attempts` counts this one (1 on the first delivery). */
export interface ClaimedBrandEvent {
  event: BrandSavedEvent;
  attempts: number;
}

/**
 * The brand event log (an outbox, docs/adr/0010-brand-events-outbox.md): every `brand.saved` event is delivered
 * at least once to every consumer subscribed when it was saved. Deliveries are leased: one whose consumer dies
 * before completing it becomes claimable again when the lease expires. Consumers must be idempotent.
 */
export interface BrandEventStore {
  /** Registers a consumer (idempotent); events saved from now on are delivered to it. */
  subscribeBrandEvents(consumer: string, at: Date): Promise<void>;
  /** Leases the consumer's oldest due delivery until `now + leaseMs`; an expired lease is claimable again (attempts + 1). */
  claimBrandEvent(consumer: string, leaseMs: number, now?: Date): Promise<ClaimedBrandEvent | null>;
  /** Marks a claimed delivery done. A delivery not currently claimed is left as it is. */
  completeBrandEvent(consumer: string, eventId: string): Promise<void>;
  /** Records a failed attempt: the delivery is due again at `retryAt`, or ends `failed` when `retryAt` is null. */
  retryBrandEvent(consumer: string, eventId: string, error: string, retryAt: Date | null): Promise<void>;
}

/** One committed write of a brand (a save or a status change), numbered in commit order (ADR 0017). */
export interface BrandWrite {
  /** 1, 2, 3, ... with no gaps: every write has a higher number than every write committed before it. */
  seq: number;
  brandId: string;
  /** Domains the write attached to the brand (its own and its domain identifiers); empty for a status change. */
  domains: string[];
  /** The writing process's clock. */
  at: Date;
}

/**
 * The brand write log: what API processes poll to drop cached brands that another process wrote
 * (brands/brand-cache-sync.ts). `saveBrand` and `setBrandStatus` append to it in their own transaction. Rows older
 * than an hour are pruned by later writes, except the newest one, so `latestBrandWrite` never goes back.
 */
export interface BrandWriteLog {
  /** `seq` of the newest write; 0 when nothing was ever written. */
  latestBrandWrite(): Promise<number>;
  /** Writes with `seq > after`, oldest first, at most `limit`. */
  brandWritesAfter(after: number, limit: number): Promise<BrandWrite[]>;
}

/** A brand's palette evidence (from its latest crawl) and the palette built from it, if any (ADR 0023). */
export interface StoredPalette {
  brandId: string;
  /** As stored: a PaletteEvidence of some version (the builder checks `version`). */
  evidence: PaletteEvidence;
  observedAt: Date;
  palette: Palette | null;
  builtAt: Date | null;
}

/** Palette evidence and built palettes (spec 2.8's lazy rule). */
export interface PaletteStore {
  /** Keeps the evidence of the brand's latest crawl and forgets a palette built from older evidence. */
  savePaletteEvidence(brandId: string, evidence: PaletteEvidence, observedAt: Date): Promise<void>;
  getStoredPalette(brandId: string): Promise<StoredPalette | null>;
  /**
   * Stores the palette built from the evidence observed at `observedAt`. Returns false and writes nothing when that
   * evidence was replaced meanwhile (a re-crawl), so a slow build never overwrites a newer crawl's state.
   */
  savePalette(brandId: string, palette: Palette, observedAt: Date, builtAt: Date): Promise<boolean>;
}

/** Pay-per-request payments (migration 0010, ADR 0028): claims of authorizations and the ledger of settlements. */
export interface PaymentStore {
  /** Records the authorization before its answer is sent; false (nothing written) when it is already claimed. */
  claimPayment(claim: PaymentClaim): Promise<boolean>;
  /** The claim of `key` with its state and settlement transaction, or null. */
  findPaymentClaim(key: string): Promise<StoredPaymentClaim | null>;
  /** Forgets a claim that was never settled (the answer cost nothing), so the same payment can be used again. */
  releasePaymentClaim(key: string): Promise<void>;
  /** Writes the settlement's ledger row and marks its claim settled, once: false when it was already recorded. */
  recordPayment(payment: PaymentRecord): Promise<boolean>;
  /** Claims still unsettled that were taken before `before` (a process stopped between verify and settle). */
  unsettledPaymentClaims(before: Date): Promise<PaymentClaim[]>;
  /** Settlements, newest first. */
  listPayments(query: PaymentQuery): Promise<PaymentRecord[]>;
  summarizePayments(query: Omit<PaymentQuery, 'limit'>): Promise<PaymentTotal[]>;
}

/**
 * The embedded facilitator's ledger (ADR 0028): token balances and used EIP-3009 authorizations, as a token
 * contract would hold them, for offline demos and tests. Production uses a real facilitator and chain instead.
 */
export interface PaymentLedger {
  ledgerBalance(network: string, asset: string, address: string): Promise<bigint>;
  /** Adds `amount` base units to an address (demo funding; `brandbase payments fund`). */
  creditLedger(network: string, asset: string, address: string, amount: bigint): Promise<bigint>;
  /** The transaction that used an authorization, or null while it is unused. */
  ledgerAuthorization(network: string, asset: string, authorizer: string, nonce: string): Promise<string | null>;
  /** Marks the authorization used and moves the value, atomically; throws LedgerRefusal when it cannot. */
  ledgerTransfer(transfer: LedgerTransfer): Promise<void>;
}

/** ReferenceData (tickers, ISINs, ETFs, crypto assets) is declared in refdata/reference-data.ts. */
export interface Store extends BrandStore, BrandWriteLog, PaletteStore, BrandEventStore, AccountStore, UsageStore, CreditStore, ReferenceData, PaymentStore, PaymentLedger {
  /** Applies pending migrations. Idempotent. */
  migrate(): Promise<void>;
  /** Cheap round trip used by readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
