/**
 * The embedded card processor (ADR 0029): card payments over MPP (`stripe` charge method of mppx) without a
 * Stripe account, for offline demos and tests, as the embedded facilitator is for x402. It has the one method
 * mppx calls on a Stripe SDK client, `paymentIntents.create`, and charges single-use card tokens kept (as hashes)
 * in the store: the stand-in for Stripe's Shared Payment Tokens, which an agent's platform grants for one payment
 * up to a limit. A token is issued by `brandbase payments card-token` (embedded processor only) or `issueToken`.
 * Refusals read like Stripe's errors; the same idempotency key answers the same charge again with the
 * `idempotent-replayed` header, as Stripe does. Production sets BRANDBASE_MPP_STRIPE_SECRET_KEY instead.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CardRefusal } from '../domain/access-purchases.js';
import type { AccessStore } from './access-store.js';

/** Tokens look like Stripe's test SPTs, with our prefix: `spt_bb_<43 base64url chars>` (256 random bits). */
export const CARD_TOKEN_PREFIX = 'spt_bb_';

const REFUSALS: Readonly<Record<CardRefusal, string>> = {
  no_such_token: 'No such shared payment token',
  token_expired: 'The shared payment token has expired',
  token_used: 'The shared payment token was already used',
  amount_too_large: "The amount exceeds the shared payment token's limit",
  currency_mismatch: "The currency does not match the shared payment token's",
};

export class CardDeclinedError extends Error {
  constructor(readonly reason: CardRefusal) {
    super(REFUSALS[reason]);
    this.name = 'CardDeclinedError';
  }
}

export function hashCardToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** What mppx sends to `paymentIntents.create` (the fields this processor reads). */
interface PaymentIntentParams {
  amount: number;
  currency: string;
  shared_payment_granted_token: string;
}

export class EmbeddedCardProcessor {
  /** The Stripe SDK shape mppx's `stripe.charge({ client })` calls. */
  readonly paymentIntents = {
    create: (params: PaymentIntentParams, options?: { idempotencyKey?: string }) => this.#create(params, options?.idempotencyKey),
  };

  constructor(
    private readonly store: Pick<AccessStore, 'issueCardToken' | 'chargeCardToken' | 'cardTokenCharge'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A new token that may be charged once, up to `maxAmount` cents, until `expiresInSeconds` from now. */
  async issueToken(options: { maxAmount: bigint; currency?: string; expiresInSeconds?: number }): Promise<{ token: string; expiresAt: Date }> {
    const token = CARD_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const createdAt = this.now();
    const expiresAt = new Date(createdAt.getTime() + (options.expiresInSeconds ?? 3600) * 1000);
    await this.store.issueCardToken({ tokenHash: hashCardToken(token), currency: (options.currency ?? 'usd').toLowerCase(), maxAmount: options.maxAmount, expiresAt, createdAt });
    return { token, expiresAt };
  }

  /** The payment intent a token was charged under (a purchase whose charge happened but was not written). */
  chargeOf(token: string): Promise<string | null> {
    return this.store.cardTokenCharge(hashCardToken(token));
  }

  async #create(params: PaymentIntentParams, idempotencyKey: string | undefined): Promise<{ id: string; status: string; lastResponse: { headers: Record<string, string> } }> {
    if (!Number.isSafeInteger(params.amount) || params.amount <= 0) throw new Error('Invalid amount');
    const result = await this.store.chargeCardToken({
      tokenHash: hashCardToken(params.shared_payment_granted_token),
      amount: BigInt(params.amount),
      currency: params.currency,
      // Without a key every call is its own charge: a fresh random key can never match a stored one.
      idempotencyHash: hashCardToken(idempotencyKey ?? randomBytes(16).toString('hex')),
      paymentIntent: `pi_bb_${randomBytes(12).toString('hex')}`,
      at: this.now(),
    });
    if (!result.ok) throw new CardDeclinedError(result.reason);
    return { id: result.paymentIntent, status: 'succeeded', lastResponse: { headers: result.replayed ? { 'idempotent-replayed': 'true' } : {} } };
  }
}
