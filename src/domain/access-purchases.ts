/**
 * Standing access (spec 5.3, ADR 0029): one payment of N US dollars buys an API key preloaded with 20 prepaid
 * credits per dollar plus an MCP token. The records the store keeps and the rules on N. Pure types and rules.
 */
import type { ApiKeyRecord, CreditGrant, NewOrganization } from './accounts.js';
import type { PaymentMethod, PaymentRecord } from './payments.js';

/** The smallest and largest purchase in whole US dollars (spec 8 states a single payment of 500). */
export const ACCESS_MIN_USD = 1;
export const ACCESS_MAX_USD = 500;

/** Spec 5.3: the first successful retry of the exact request within three minutes of the payment gets the key. */
export const ACCESS_RETRY_WINDOW_MS = 180_000;

/** The network id card challenges name when the embedded card processor takes the payments (no Stripe account). */
export const EMBEDDED_CARD_NETWORK = 'brandbase-embedded';

/** The route every access payment is recorded under (payments ledger, `brandbase payments list`). */
export const ACCESS_ROUTE = '/v2/agents/access';

/**
 * `usd` as sent in the query: a whole number of US dollars from ACCESS_MIN_USD to ACCESS_MAX_USD, digits only
 * (no sign, no decimals, no exponent), so the price in base units and the credits are exact integers. Null when
 * it is anything else.
 */
export function parseAccessUsd(raw: unknown): number | null {
  if (typeof raw !== 'string' || !/^[1-9]\d{0,3}$/.test(raw)) return null;
  const usd = Number(raw);
  return usd >= ACCESS_MIN_USD && usd <= ACCESS_MAX_USD ? usd : null;
}

/** Who paid: a wallet (network and address: it owns the organization it bought) or a card (names no wallet). */
export type AgentPayer = { kind: 'wallet'; network: string; address: string } | { kind: 'card' };

/** What one access payment bought, as stored (never a secret: the key and token are held as hashes elsewhere). */
export interface AccessPurchase {
  /** The payment's claim key (domain/payments.ts x402ClaimKey): one authorization buys once. */
  paymentKey: string;
  method: PaymentMethod;
  payer: AgentPayer;
  usd: number;
  credits: number;
  orgId: string;
  apiKeyId: string;
  /** True when the payment topped up the organization its wallet bought before (no new key, no new token). */
  topUp: boolean;
  paidAt: Date;
  /** When the response carrying the purchase was handed to the transport; null while it may still be retried. */
  deliveredAt: Date | null;
}

/** The secrets of a new purchase, created before the transaction; the store keeps only hashes (and the seal). */
export interface NewAccessCredentials {
  org: NewOrganization;
  apiKey: ApiKeyRecord;
  mcpToken: McpTokenRecord;
  /** The key and token, encrypted with a key derived from the payment proof (ADR 0029); wiped on delivery. */
  sealed: string;
}

/** Everything the purchase transaction writes; see AccessStore.completeAccessPurchase. */
export interface AccessPurchaseCompletion {
  payment: PaymentRecord;
  payer: AgentPayer;
  usd: number;
  credits: number;
  /** The grant to write; its orgId is filled by the store (new or the wallet's organization). */
  grant: Omit<CreditGrant, 'orgId'>;
  /** Used when the payer owns no organization yet (always for a card). */
  fresh: NewAccessCredentials;
  /** Stored instead of `fresh.sealed` on a top-up: seals nothing secret, but only the same proof opens it. */
  topUpSealed: string;
  paidAt: Date;
}

/** An MCP token (spec 5.4) as stored: only its hash; the MCP server (a later issue) authenticates with it. */
export interface McpTokenRecord {
  id: string;
  orgId: string;
  apiKeyId: string;
  /** SHA-256 of the token, hex. */
  tokenHash: string;
  /** The first characters, to tell tokens apart. Not secret. */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** A delivery taken by exactly one response: the purchase and, for a new key, its sealed secrets. */
export interface AccessDelivery {
  purchase: AccessPurchase;
  sealed: string | null;
}

/**
 * A card payment token of the embedded card processor (ADR 0029): the offline stand-in for a Stripe Shared
 * Payment Token (SPT) that an agent's platform grants for one payment up to `maxAmount` cents. Single use; only
 * its SHA-256 is stored.
 */
export interface CardTokenRecord {
  tokenHash: string;
  currency: string;
  /** The most the token may be charged, in the currency's smallest unit (cents). */
  maxAmount: bigint;
  expiresAt: Date;
  createdAt: Date;
}

/** One charge of a card token (what a PaymentIntent created with it records). */
export interface CardCharge {
  tokenHash: string;
  amount: bigint;
  currency: string;
  /** SHA-256 of the caller's idempotency key: the same key answers the same charge again, never a second one. */
  idempotencyHash: string;
  /** The payment intent id this charge is recorded under when it is new. */
  paymentIntent: string;
  at: Date;
}

/** Why the embedded card processor refused a charge (worded like the processor's own errors). */
export type CardRefusal = 'no_such_token' | 'token_expired' | 'token_used' | 'amount_too_large' | 'currency_mismatch';

export type CardChargeResult = { ok: true; paymentIntent: string; replayed: boolean } | { ok: false; reason: CardRefusal };
