/**
 * x402 v2 for paid routes (spec 5.2, ADR 0028), over the official packages: `x402HTTPResourceServer` builds the
 * `PAYMENT-REQUIRED` challenge, matches and verifies `PAYMENT-SIGNATURE` through a facilitator, and settles. The
 * facilitator is a remote one (BRANDBASE_X402_FACILITATOR_URL) or the embedded `x402Facilitator` with
 * `@x402/evm`'s ExactEvmScheme over the store's ledger (ledger-evm-signer.ts), fully offline.
 *
 * What this adds to the packages: a malformed header answers 400 (the package would treat it as no payment), and
 * each verified authorization is claimed in the store before the answer is produced, so one payment serves one
 * answer across processes and restarts; it is settled only when the answer is charged, before it is sent.
 */
import { x402Facilitator } from '@x402/core/facilitator';
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader, encodePaymentRequiredHeader } from '@x402/core/http';
import { HTTPFacilitatorClient, x402HTTPResourceServer, x402ResourceServer, type FacilitatorClient, type HTTPRequestContext, type RouteConfig } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { ApiError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { x402ClaimKey, type PaymentClaim } from '../domain/payments.js';
import type { Logger } from '../platform/logger.js';
import type { PaymentLedger, PaymentStore } from './payment-store.js';
import type { PaidRequest } from '../usecases/payment-payer.js';
import type { PaidRoute, PaymentProtocol } from '../usecases/credential-payer.js';
import { LedgerEvmSigner } from './ledger-evm-signer.js';
import type { X402Settings } from '../domain/x402-settings.js';

/** The header names of the x402 v2 HTTP transport. */
export const X402_HEADERS = { required: 'PAYMENT-REQUIRED', signature: 'payment-signature', response: 'PAYMENT-RESPONSE' } as const;

export interface Authorization {
  from: string;
  to: string;
  value: string;
  validBefore: string;
  nonce: string;
}

/** How far a payer's clock may run ahead of this server's when an authorization's validity is bounded. */
export const X402_CLOCK_SKEW_SECONDS = 60;

/** The reason (x402's code for a bad `validBefore`) of a refused authorization that stays valid too long. */
export const X402_VALID_TOO_LONG = 'invalid_exact_evm_payload_authorization_valid_before';

/**
 * Whether an authorization stays valid longer than the challenge allows (issue 33): its `validBefore` is later than
 * now + `maxTimeoutSeconds` (the challenge's window, which x402 clients sign as `validBefore`) + the clock skew. A
 * payment signed to last ten years would otherwise be a bearer instrument for ten years, and its claim could never be
 * reconciled away (ADR 0028) until it expired.
 */
export function validTooLong(validBefore: string, now: Date, maxTimeoutSeconds: number): boolean {
  return BigInt(validBefore) > BigInt(Math.floor(now.getTime() / 1000) + maxTimeoutSeconds + X402_CLOCK_SKEW_SECONDS);
}

/** The fields this server relies on, checked before anything else reads the payload (400 otherwise). */
export function authorizationOf(payload: unknown): Authorization | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as { x402Version?: unknown; accepted?: unknown; payload?: { signature?: unknown; authorization?: Record<string, unknown> } };
  if (p.x402Version !== 2 || typeof p.accepted !== 'object' || p.accepted === null || typeof p.payload?.signature !== 'string') return null;
  const a = p.payload.authorization;
  if (!a) return null;
  for (const field of ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce']) if (typeof a[field] !== 'string') return null;
  if (!/^\d{1,30}$/.test(a.value as string) || !/^\d{1,20}$/.test(a.validBefore as string)) return null;
  return a as unknown as Authorization;
}

/**
 * Reads a `PAYMENT-SIGNATURE` header: its payload and the authorization this server relies on; 400
 * `payment_malformed` when it cannot be read. Pay-per-request and standing access read it here alike.
 */
export function readPaymentSignature(header: string): { payload: PaymentPayload; authorization: Authorization } {
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(header);
  } catch {
    throw new ApiError('payment_malformed');
  }
  const authorization = authorizationOf(decoded);
  if (authorization === null) throw new ApiError('payment_malformed');
  return { payload: decoded as PaymentPayload, authorization };
}

/** The embedded facilitator: the official facilitator code over the store's ledger. */
export function embeddedFacilitator(ledger: PaymentLedger, settings: X402Settings): FacilitatorClient {
  const facilitator = new x402Facilitator();
  const signer = new LedgerEvmSigner(ledger, { network: settings.network, asset: settings.asset, name: settings.assetName, version: settings.assetVersion });
  registerExactEvmScheme(facilitator, { signer, networks: settings.network as `${string}:${string}` });
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    // The facilitator answers synchronously; the client interface is asynchronous.
    // (Its networks are typed as plain strings; they are the CAIP-2 ids registered above.)
    getSupported: () => Promise.resolve(facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient['getSupported']>>),
  };
}

export class X402Payments implements PaymentProtocol {
  readonly #http: x402HTTPResourceServer;
  #ready: Promise<void> | null = null;

  constructor(
    private readonly store: PaymentStore & PaymentLedger,
    readonly settings: X402Settings,
    private readonly publicUrl: string,
    private readonly logger: Logger,
    /** The body every 402 of a paid route carries (spec 7.1), given the route template. */
    private readonly refusalBody: (route: string) => Record<string, unknown>,
    private readonly now: () => Date = () => new Date(),
  ) {
    const client = settings.facilitatorUrl === null ? embeddedFacilitator(store, settings) : new HTTPFacilitatorClient({ url: settings.facilitatorUrl });
    const server = new x402ResourceServer(client).register(settings.network as `${string}:${string}`, new ExactEvmScheme());
    // One requirement for every paid route: whichever route asks is paid (the route declares it, never a list kept
    // here), and the challenge's `resource` is the asking route's template (`#contextOf`).
    const requirement: RouteConfig = {
      accepts: {
        scheme: 'exact',
        network: settings.network as `${string}:${string}`,
        payTo: settings.payTo,
        price: { amount: settings.priceUnits.toString(), asset: settings.asset, extra: { name: settings.assetName, version: settings.assetVersion } },
        maxTimeoutSeconds: settings.maxTimeoutSeconds,
      },
      description: 'One brand lookup; a 404 is not charged.',
      mimeType: 'application/json',
    };
    this.#http = new x402HTTPResourceServer(server, requirement);
  }

  /** Asks the facilitator what it supports, once (a remote one on first use, not at start). */
  #initialized(): Promise<void> {
    this.#ready ??= this.#http.initialize().catch((error: unknown) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  /**
   * The x402 packages' view of a request to `route` (the `HTTPAdapter` of `@x402/core`): its URL is the route
   * template, so the challenge's `resource` never carries the requested identifier (an email address, a website URL).
   */
  #contextOf(route: PaidRoute, paymentHeader?: string): HTTPRequestContext {
    const url = `${this.publicUrl}${route.template}`;
    const adapter = {
      getHeader: (name: string) => (name.toLowerCase() === X402_HEADERS.signature ? paymentHeader : undefined),
      getMethod: () => route.method,
      getPath: () => route.template,
      getUrl: () => url,
      getAcceptHeader: () => 'application/json',
      getUserAgent: () => '',
    };
    return { adapter, path: route.template, method: route.method, ...(paymentHeader === undefined ? {} : { paymentHeader }) };
  }

  /** The `PAYMENT-REQUIRED` header of a 402 for a request that carries no payment. */
  async challenge(route: PaidRoute): Promise<Record<string, string>> {
    await this.#initialized();
    const result = await this.#http.processHTTPRequest(this.#contextOf(route));
    if (result.type !== 'payment-error') return {};
    const header = result.response.headers[X402_HEADERS.required];
    return header === undefined ? {} : { [X402_HEADERS.required]: header };
  }

  /**
   * Verifies the request's `PAYMENT-SIGNATURE` for `route`: 400 `payment_malformed` when it cannot be read, 402
   * `payment_invalid` when it stays valid longer than the challenge's window (`validTooLong`), 402
   * `payment_replayed` when this server already holds its claim (settled, or in use by another request), 402
   * `payment_invalid` (with the challenge and its reason) when the facilitator refuses it otherwise.
   */
  async verify(header: string, paidRoute: PaidRoute): Promise<PaidRequest> {
    const route = paidRoute.template;
    const { authorization } = readPaymentSignature(header);
    await this.#initialized();
    if (validTooLong(authorization.validBefore, this.now(), this.settings.maxTimeoutSeconds)) {
      throw new ApiError('payment_invalid', undefined, { ...this.refusalBody(route), reason: X402_VALID_TOO_LONG }, await this.#challengeWith(paidRoute, X402_VALID_TOO_LONG));
    }
    const context = this.#contextOf(paidRoute, header);
    const result = await this.#http.processHTTPRequest(context);
    if (result.type === 'payment-error') {
      // A settled authorization fails verification (its nonce is used): say it was used here, as documented.
      if (await this.#claimed(authorization)) throw new ApiError('payment_replayed', undefined, this.refusalBody(route));
      const reason = this.#reasonOf(result.response.headers[X402_HEADERS.required]);
      throw new ApiError('payment_invalid', undefined, { ...this.refusalBody(route), reason }, result.response.headers);
    }
    if (result.type !== 'payment-verified') throw new ApiError('payment_invalid', undefined, this.refusalBody(route));
    return this.#paidRequest(context, result.paymentPayload, result.paymentRequirements, result.declaredExtensions, authorization, route);
  }

  /** The challenge of a 402 that refuses a payment: the `PAYMENT-REQUIRED` header with `error` set to the reason. */
  async #challengeWith(route: PaidRoute, reason: string): Promise<Record<string, string>> {
    const header = (await this.challenge(route))[X402_HEADERS.required];
    return header === undefined ? {} : { [X402_HEADERS.required]: encodePaymentRequiredHeader({ ...decodePaymentRequiredHeader(header), error: reason }) };
  }

  /** Whether this server holds a claim on the authorization (the claim key of #paidRequest). */
  async #claimed(auth: Authorization): Promise<boolean> {
    return (await this.store.findPaymentClaim(x402ClaimKey(this.settings.network, this.settings.asset, auth.from, auth.nonce))) !== null;
  }

  #reasonOf(header: string | undefined): string {
    if (header === undefined) return 'invalid_payment';
    try {
      return decodePaymentRequiredHeader(header).error ?? 'invalid_payment';
    } catch {
      return 'invalid_payment';
    }
  }

  #paidRequest(
    context: HTTPRequestContext,
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    extensions: Record<string, unknown> | undefined,
    auth: Authorization,
    route: string,
  ): PaidRequest {
    const claim: PaymentClaim = {
      key: x402ClaimKey(requirements.network, requirements.asset, auth.from, auth.nonce),
      method: 'x402',
      network: requirements.network,
      asset: requirements.asset.toLowerCase(),
      payer: auth.from.toLowerCase(),
      payTo: requirements.payTo.toLowerCase(),
      amount: BigInt(requirements.amount),
      route,
      claimedAt: this.now(),
      validBefore: new Date(Number(auth.validBefore) * 1000),
    };
    return {
      account: `x402:${claim.payer}`,
      claim: async () => {
        if (!(await this.store.claimPayment(claim))) throw new ApiError('payment_replayed', undefined, this.refusalBody(route));
      },
      release: () => this.store.releasePaymentClaim(claim.key),
      settle: async () => {
        const settled = await this.#http.processSettlement(payload, requirements, extensions, { request: context });
        if (!settled.success) {
          await this.store.releasePaymentClaim(claim.key);
          this.logger.warn({ reason: settled.errorReason, network: claim.network }, 'x402 settlement failed; answer withheld, nothing charged');
          throw new ApiError('payment_settlement_failed', undefined, { ...this.refusalBody(route), reason: settled.errorReason }, settled.headers);
        }
        await this.store.recordPayment({ ...claim, id: newId('pay'), claimKey: claim.key, transaction: settled.transaction, settledAt: this.now() });
        return settled.headers;
      },
    };
  }

  /**
   * After a process stopped between verify and settle (ADR 0028): a claim older than `staleMs` whose
   * authorization the embedded ledger did use gets its ledger row (the money moved once); one whose authorization
   * expired unused is forgotten. Anything else is left alone: it may still be settling in another process.
   */
  async reconcile(staleMs: number): Promise<{ recorded: number; released: number }> {
    const now = this.now();
    let recorded = 0;
    let released = 0;
    for (const claim of await this.store.unsettledPaymentClaims(new Date(now.getTime() - staleMs))) {
      // The key ends with `:<payer>:<nonce>` (x402ClaimKey).
      const parts = claim.key.split(':');
      const payer = parts.at(-2);
      const nonce = parts.at(-1);
      const tx = this.settings.facilitatorUrl === null && payer && nonce ? await this.store.ledgerAuthorization(claim.network, claim.asset, payer, nonce) : null;
      if (tx !== null) {
        if (await this.store.recordPayment({ ...claim, id: newId('pay'), claimKey: claim.key, transaction: tx, settledAt: now })) recorded++;
      } else if (claim.validBefore <= now) {
        await this.store.releasePaymentClaim(claim.key);
        released++;
      }
    }
    return { recorded, released };
  }
}
