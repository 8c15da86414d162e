/**
 * MPP, the "Payment" HTTP authentication scheme (spec 5.2, ADR 0028), over the `mppx` package with its `evm`
 * method: the 402 carries a `WWW-Authenticate: Payment` challenge next to x402's; a retry with
 * `Authorization: Payment <credential>` is validated by mppx (challenge binding, amount, recipient, validity,
 * EIP-712 signature), claimed like an x402 payment (same claim key: one EIP-3009 authorization pays once, whichever
 * protocol carries it), and settled by mppx through our settle hook on the embedded ledger once the answer is
 * known. Each challenge is bound (mppx's `scope`, inside the challenge's HMAC) to the request it answers: method,
 * route template and a digest of the identifier and body, so a credential pays for that request only, and the same
 * credential presented again within two minutes of its settled payment serves a retry of that request, never another
 * one, and is never charged twice (spec 5.2.4).
 */
import { Receipt } from 'mppx';
import { evm, Mppx } from 'mppx/server';
import { getAddress, type Hex } from 'viem';
import { ApiError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { x402ClaimKey, type PaymentClaim } from '../domain/payments.js';
import type { Logger } from '../platform/logger.js';
import type { PaymentLedger, PaymentStore } from './payment-store.js';
import type { PaidRequest } from '../usecases/payment-payer.js';
import { paidRequestScope, type PaidRoute, type PaymentProtocol } from '../usecases/credential-payer.js';
import { ledgerTransactionHash } from './ledger-evm-signer.js';
import { X402_CLOCK_SKEW_SECONDS } from './x402-payments.js';
import type { X402Settings } from '../domain/x402-settings.js';

/** Spec 5.2.4: an MPP-paid request whose response was lost may be retried with the same credential this long. */
export const MPP_RETRY_WINDOW_MS = 120_000;

export const MPP_HEADERS = { challenge: 'www-authenticate', receipt: 'payment-receipt' } as const;

interface AuthorizationPayload {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

/** The refusal reason of an authorization that stays valid after the challenge it answers expires (issue 33). */
export const MPP_VALID_TOO_LONG = 'EVM authorization stays valid after its challenge expires';

/**
 * Whether a signed authorization outlives the challenge it answers by more than the clock skew x402 allows: mppx's
 * client signs `validBefore` = the challenge's `expires` (5 minutes, inside the challenge's HMAC) and mppx only checks
 * that it has not passed, so without this a credential valid for ten years would be accepted.
 */
export function validPastChallenge(validBefore: string, challengeExpires: string | undefined, now: Date): boolean {
  const expiresMs = challengeExpires === undefined ? now.getTime() + 300_000 : Date.parse(challengeExpires);
  return BigInt(validBefore) > BigInt(Math.floor(expiresMs / 1000) + X402_CLOCK_SKEW_SECONDS);
}

/** Base units as the decimal string mppx prices in (`100000` with 6 decimals is `0.1`). */
function decimalAmount(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction === '' ? (units / scale).toString() : `${units / scale}.${fraction}`;
}

export class MppPayments implements PaymentProtocol {
  readonly #mppx;
  readonly #amount: string;
  readonly #chainId: number;

  constructor(
    private readonly store: PaymentStore & PaymentLedger,
    private readonly settings: X402Settings,
    secretKey: string,
    private readonly publicUrl: string,
    private readonly logger: Logger,
    private readonly refusalBody: (route: string) => Record<string, unknown>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#chainId = Number(settings.network.split(':')[1]);
    this.#amount = decimalAmount(settings.priceUnits, 6);
    this.#mppx = Mppx.create({
      methods: [
        evm.charge({
          currency: getAddress(settings.asset),
          chainId: this.#chainId,
          decimals: 6,
          authorization: { name: settings.assetName, version: settings.assetVersion },
          recipient: getAddress(settings.payTo),
          settle: ({ payload }) => this.#settleOnLedger(payload),
        }),
      ],
      secretKey,
      realm: new URL(publicUrl).host,
    });
  }

  /**
   * The `WWW-Authenticate: Payment` challenge for a 402 of `route`, bound to that request (its scope is a digest:
   * never the requested identifier).
   */
  async challenge(route: PaidRoute): Promise<Record<string, string>> {
    const charge = this.#mppx.evm.charge({ amount: this.#amount, description: 'One brand lookup; a 404 is not charged.', scope: paidRequestScope(route) });
    const result = await charge(new Request(`${this.publicUrl}${route.template}`));
    if (result.status !== 402) return {};
    const header = result.challenge.headers.get(MPP_HEADERS.challenge);
    return header === null ? {} : { [MPP_HEADERS.challenge]: header };
  }

  /**
   * Validates `Authorization: Payment …` for `paidRoute`: 402 `payment_invalid` (with a fresh challenge) when mppx
   * refuses it, including a credential whose challenge was issued for another request.
   */
  async verify(authorization: string, paidRoute: PaidRoute): Promise<PaidRequest> {
    const route = paidRoute.template;
    let payload: AuthorizationPayload;
    try {
      const validated = await this.#mppx.validateCredential(authorization, { scope: paidRequestScope(paidRoute) });
      payload = validated.credential.payload as AuthorizationPayload;
      if (validPastChallenge(payload.validBefore, validated.credential.challenge.expires, this.now())) throw new Error(MPP_VALID_TOO_LONG);
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'invalid credential';
      throw new ApiError('payment_invalid', undefined, { ...this.refusalBody(route), reason }, await this.challenge(paidRoute));
    }
    return this.#paidRequest(authorization, payload, route);
  }

  #paidRequest(authorization: string, payload: AuthorizationPayload, route: string): PaidRequest {
    const asset = this.settings.asset.toLowerCase();
    const claim: PaymentClaim = {
      key: x402ClaimKey(this.settings.network, asset, payload.from, payload.nonce),
      method: 'mpp',
      network: this.settings.network,
      asset,
      payer: payload.from.toLowerCase(),
      payTo: payload.to.toLowerCase(),
      amount: BigInt(payload.value),
      route,
      claimedAt: this.now(),
      validBefore: new Date(Number(payload.validBefore) * 1000),
    };
    /** Set when the credential is a retry of a payment already settled: its transaction. */
    let paidBefore: string | null = null;
    return {
      account: `mpp:${claim.payer}`,
      claim: async () => {
        if (await this.store.claimPayment(claim)) return;
        const held = await this.store.findPaymentClaim(claim.key);
        const fresh = held !== null && this.now().getTime() - held.claim.claimedAt.getTime() <= MPP_RETRY_WINDOW_MS;
        if (held?.state === 'settled' && held.transaction !== null && held.claim.method === 'mpp' && held.claim.route === route && fresh) {
          paidBefore = held.transaction;
          return;
        }
        throw new ApiError('payment_replayed', undefined, this.refusalBody(route));
      },
      release: async () => {
        if (paidBefore === null) await this.store.releasePaymentClaim(claim.key);
      },
      settle: async () => {
        if (paidBefore !== null) return this.#receiptHeaders(paidBefore);
        let receipt: Receipt.Receipt;
        try {
          receipt = await this.#mppx.broadcastCredential(authorization);
        } catch (error) {
          await this.store.releasePaymentClaim(claim.key);
          const reason = error instanceof Error ? error.message : 'settlement failed';
          this.logger.warn({ reason, network: claim.network }, 'MPP settlement failed; answer withheld, nothing charged');
          throw new ApiError('payment_settlement_failed', undefined, { ...this.refusalBody(route), reason });
        }
        await this.store.recordPayment({ ...claim, id: newId('pay'), claimKey: claim.key, transaction: receipt.reference, settledAt: this.now() });
        return { [MPP_HEADERS.receipt]: Receipt.serialize(receipt), 'cache-control': 'private' };
      },
    };
  }

  #receiptHeaders(transaction: string): Record<string, string> {
    const receipt = Receipt.from({ method: 'evm', reference: transaction, status: 'success', timestamp: this.now().toISOString() });
    return { [MPP_HEADERS.receipt]: Receipt.serialize(receipt), 'cache-control': 'private' };
  }

  /** mppx's settle hook: the transfer on the embedded ledger (single-use nonce and balance enforced there). */
  async #settleOnLedger(payload: AuthorizationPayload): Promise<{ reference: string }> {
    const transaction = ledgerTransactionHash(this.settings.network, payload.from, payload.nonce);
    await this.store.ledgerTransfer({
      network: this.settings.network,
      asset: this.settings.asset,
      from: payload.from,
      to: payload.to,
      value: BigInt(payload.value),
      nonce: payload.nonce as Hex,
      transaction,
      at: this.now(),
    });
    return { reference: transaction };
  }
}
