/**
 * Card payments for standing access (spec 5.3: "over MPP also by card"; ADR 0029): MPP's `stripe` charge method
 * from mppx. The challenge names the amount in cents, the currency (usd) and the Stripe network profile; the
 * client answers with a Shared Payment Token in `Authorization: Payment`. The charge is made by Stripe
 * (BRANDBASE_MPP_STRIPE_SECRET_KEY) or, offline, by the embedded card processor over the store. A card names no
 * wallet: every card purchase buys its own organization and key.
 */
import { Challenge, Receipt, type Credential } from 'mppx';
import { Mppx, stripe } from 'mppx/server';
import type { AgentPayer } from '../domain/access-purchases.js';
import type { PaymentClaim } from '../domain/payments.js';
import type { Logger } from '../platform/logger.js';
import { hashCardToken, type EmbeddedCardProcessor } from './embedded-card-processor.js';
import { MPP_HEADERS } from './mpp-payments.js';
import type { Presented } from './presented-payment.js';

/** US cents per dollar: card amounts are in the currency's smallest unit. */
const CENTS_PER_USD = 100n;
const CARD: AgentPayer = { kind: 'card' };

export interface CardPaymentOptions {
  /** The MPP challenge key (HMAC binding), shared with the evm method. */
  secretKey: string;
  realm: string;
  /** The Stripe business network profile the challenge names. */
  networkId: string;
  /** The embedded card processor, or null when Stripe charges (then `stripeSecretKey` is set). */
  processor: EmbeddedCardProcessor | null;
  stripeSecretKey: string | null;
  logger: Logger;
  now: () => Date;
}

/** What the card presenter needs from the sale: the refusal it answers with and the claim release. */
export interface CardSaleHooks {
  refuse(reason: string): Promise<Error>;
  settlementFailed(reason: string): Promise<Error>;
  release(claimKey: string): Promise<void>;
  route: string;
}

interface CardChallengeRequest {
  amount?: unknown;
  currency?: unknown;
  methodDetails?: { networkId?: unknown };
}

function createCardMppx(o: CardPaymentOptions) {
  const common = { networkId: o.networkId, currency: 'usd', decimals: 2, paymentMethodTypes: ['card'] };
  const method = o.processor !== null ? stripe.charge({ ...common, client: o.processor }) : stripe.charge({ ...common, secretKey: o.stripeSecretKey ?? '' });
  return Mppx.create({ methods: [method], secretKey: o.secretKey, realm: o.realm });
}

export class CardPayments {
  readonly #mppx: ReturnType<typeof createCardMppx>;

  constructor(private readonly o: CardPaymentOptions) {
    this.#mppx = createCardMppx(o);
  }

  /** What the GET offer lists. */
  paymentMethod(): Record<string, unknown> {
    return {
      protocol: 'mpp',
      method: 'stripe',
      intent: 'charge',
      paymentMethodTypes: ['card'],
      currency: 'usd',
      networkId: this.o.networkId,
      processor: this.o.processor === null ? 'stripe' : 'embedded',
      header: 'Authorization: Payment',
    };
  }

  /** The `WWW-Authenticate: Payment … method="stripe"` challenge for `usd` dollars. */
  async challenge(usd: number, url: string, description: string): Promise<string | null> {
    const result = await this.#mppx.stripe.charge({ amount: String(usd), description })(new Request(url, { method: 'POST' }));
    return result.status === 402 ? result.challenge.headers.get(MPP_HEADERS.challenge) : null;
  }

  /** The card payment in `authorization` (already deserialized as `credential`); throws the refusal when malformed. */
  async present(usd: number, authorization: string, credential: Credential.Credential, hooks: CardSaleHooks): Promise<Presented> {
    const spt = (credential.payload as { spt?: unknown } | null)?.spt;
    const request = credential.challenge.request as CardChallengeRequest;
    if (typeof spt !== 'string' || spt === '' || typeof request.amount !== 'string' || !/^\d{1,12}$/.test(request.amount)) {
      throw await hooks.refuse('malformed-credential: not a card charge credential');
    }
    const claim = this.#claim(spt, BigInt(request.amount), credential.challenge.expires, hooks.route);
    return {
      protocol: 'mpp',
      proof: authorization,
      claim,
      payer: CARD,
      unitsPerUsd: CENTS_PER_USD,
      verify: async () => this.#verify(credential.challenge, request, hooks),
      settle: async () => this.#settle(authorization, claim, hooks),
      moved: async () => (this.o.processor === null ? null : this.o.processor.chargeOf(spt)),
      receipt: (transaction) => this.#receipt(transaction),
    };
  }

  #claim(spt: string, amount: bigint, expires: string | undefined, route: string): PaymentClaim {
    const now = this.o.now();
    const network = `stripe:${this.o.networkId}`;
    return {
      // One token pays once, whichever request carries it; the token itself is never stored.
      key: `mpp:card:${network}:${hashCardToken(spt)}`,
      method: 'mpp',
      network,
      asset: 'usd',
      payer: 'card',
      payTo: network,
      amount,
      route,
      claimedAt: now,
      validBefore: expires === undefined ? new Date(now.getTime() + 300_000) : new Date(expires),
    };
  }

  /** The challenge is ours (HMAC), unexpired, in US dollars on our network; mppx re-checks all of it when charging. */
  async #verify(challenge: Challenge.Challenge, request: CardChallengeRequest, hooks: CardSaleHooks): Promise<void> {
    if (!Challenge.verify(challenge, { secretKey: this.o.secretKey })) throw await hooks.refuse('invalid-challenge: the challenge was not issued by this server');
    if (challenge.expires !== undefined && new Date(challenge.expires).getTime() <= this.o.now().getTime()) throw await hooks.refuse('payment-expired: the challenge has expired');
    if (request.currency !== 'usd' || request.methodDetails?.networkId !== this.o.networkId) throw await hooks.refuse('invalid-challenge: not a card charge of this server');
  }

  async #settle(authorization: string, claim: PaymentClaim, hooks: CardSaleHooks): Promise<{ transaction: string; headers: Record<string, string> }> {
    try {
      const receipt = await this.#mppx.broadcastCredential(authorization);
      return { transaction: receipt.reference, headers: { [MPP_HEADERS.receipt]: Receipt.serialize(receipt), 'cache-control': 'private' } };
    } catch (error) {
      await hooks.release(claim.key);
      const reason = error instanceof Error ? error.message : 'card charge failed';
      this.o.logger.warn({ reason, network: claim.network, route: hooks.route }, 'card charge failed; nothing charged');
      throw await hooks.settlementFailed(reason);
    }
  }

  #receipt(transaction: string): Record<string, string> {
    const receipt = Receipt.from({ method: 'stripe', reference: transaction, status: 'success', timestamp: this.o.now().toISOString() });
    return { [MPP_HEADERS.receipt]: Receipt.serialize(receipt), 'cache-control': 'private' };
  }
}
