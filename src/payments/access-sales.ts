/**
 * Standing access (spec 5.3, ADR 0029): `POST /v2/agents/access?usd=N` takes one x402 or MPP payment of N US
 * dollars and returns, once, an API key preloaded with 20 prepaid credits per dollar plus an MCP token.
 *
 * Order of work, so that no payment is taken twice and no key is lost:
 * 1. the payment is read (400 malformed) and its amount checked against N (402, nothing charged);
 * 2. a purchase already made with this payment is delivered again only to the exact request (same proof) within
 *    three minutes and only if no response carried it yet; otherwise 409 `credential_already_delivered`;
 * 3. otherwise the payment is verified (facilitator / mppx), claimed in the store (one claim per authorization,
 *    across processes), settled, and the purchase (ledger row, organization, key, token, credits) is written in
 *    one transaction; then exactly one response takes delivery (a conditional update) and the sealed copy of the
 *    secrets is wiped. An error after settlement answers 503 `access_purchase_pending`: retry the exact request.
 */
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import { HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server';
import type { PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { Credential, Receipt } from 'mppx';
import { evm, Mppx } from 'mppx/server';
import { getAddress, type Hex } from 'viem';
import { generateApiKeySecret } from '../billing/api-key-secret.js';
import { CREDITS_PER_USD } from '../billing/billing.js';
import { generateMcpToken } from '../billing/mcp-token-secret.js';
import { ACCESS_RETRY_WINDOW_MS, ACCESS_ROUTE, type AccessPurchase, type AgentPayer } from '../domain/access-purchases.js';
import { ApiError } from '../domain/errors.js';
import { apiKeyUrn, newId, organizationUrn } from '../domain/ids.js';
import { x402ClaimKey, type PaymentClaim, type PaymentMethod } from '../domain/payments.js';
import type { X402Settings } from '../domain/x402-settings.js';
import type { Logger } from '../platform/logger.js';
import type { Organization } from '../domain/accounts.js';
import type { AccessStore } from './access-store.js';
import type { PaymentLedger, PaymentStore } from './payment-store.js';
import { openAccessSecrets, sealAccessSecrets, type AccessSecrets } from './access-seal.js';
import { ledgerTransactionHash } from './ledger-evm-signer.js';
import { MPP_HEADERS } from './mpp-payments.js';
import type { Presented } from './presented-payment.js';
import { embeddedFacilitator, readPaymentSignature, validTooLong, X402_HEADERS, X402_VALID_TOO_LONG } from './x402-payments.js';
import type { CardPayments, CardSaleHooks } from './access-card.js';

/** The stablecoin's decimals (USDC-style assets: 6), as in MppPayments. */
const DECIMALS = 6;
const UNITS_PER_USD = 10n ** BigInt(DECIMALS);

/** The payment presented with the purchase, as the transport read it. */
export type AccessPayment = { protocol: 'x402'; header: string } | { protocol: 'mpp'; authorization: string };

/** A completed purchase's answer: status 200, the body and the receipt headers. */
export interface AccessAnswer {
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

export interface AccessSalesOptions {
  access: AccessStore;
  payments: PaymentStore & PaymentLedger;
  /** Billing's organizations (declared here, not imported: payments depends on no part of the store facade, which is being taken apart). */
  accounts: { getOrganization(id: string): Promise<Organization | null> };
  settings: X402Settings;
  /** The MPP challenge key (shared with pay-per-request); null: MPP's evm method is off. */
  mppSecretKey: string | null;
  /** Card payments over MPP (access-card.ts); null or absent: no cards. */
  card?: CardPayments | null;
  publicUrl: string;
  /** The installation key (platform/sealed-box.ts), read on first use: half of the seal key of undelivered secrets. */
  installationKey: () => Buffer;
  logger: Logger;
  now?: () => Date;
  /** Called with the organization whose prepaid credits grew (the usage meter reloads it). */
  onCredits?: (orgId: string) => void;
  /**
   * Runs after the purchase is committed and before it is delivered. A failure here (or in the delivery) answers
   * 503 `access_purchase_pending`; tests inject one to exercise the retry rule.
   */
  beforeDelivery?: (purchase: AccessPurchase) => Promise<void>;
}

interface MppAuthorization {
  from: string;
  to: string;
  value: string;
  validBefore: string;
  nonce: string;
}

export class AccessSales {
  /** Standing access is sold here (payments/standing-access.ts: the port the transports hold). */
  readonly purchasable = true;
  readonly #server: x402ResourceServer;
  readonly #mppx: ReturnType<typeof createMppx> | null;
  readonly #card: CardPayments | null;
  #ready: Promise<void> | null = null;
  readonly #now: () => Date;

  constructor(private readonly o: AccessSalesOptions) {
    const s = o.settings;
    const client = s.facilitatorUrl === null ? embeddedFacilitator(o.payments, s) : new HTTPFacilitatorClient({ url: s.facilitatorUrl });
    this.#server = new x402ResourceServer(client).register(s.network as `${string}:${string}`, new ExactEvmScheme());
    this.#mppx = o.mppSecretKey === null ? null : createMppx(o, (payload) => this.#settleOnLedger(payload));
    this.#now = o.now ?? (() => new Date());
    this.#card = o.card ?? null;
  }

  /** Payments are on: a purchase goes on to its amount and payment. */
  admitPurchase(): void {}

  /** What the GET offer lists as accepted payments. */
  paymentMethods(): Record<string, unknown>[] {
    const s = this.o.settings;
    const x402 = { protocol: 'x402', version: 2, scheme: 'exact', network: s.network, asset: s.asset, payTo: s.payTo, header: 'PAYMENT-SIGNATURE' };
    const mpp = { protocol: 'mpp', method: 'evm', intent: 'charge', network: s.network, asset: s.asset, header: 'Authorization: Payment' };
    return [x402, ...(this.#mppx === null ? [] : [mpp]), ...(this.#card === null ? [] : [this.#card.paymentMethod()])];
  }

  /** The 402 challenges for N dollars: `PAYMENT-REQUIRED` (x402) and `WWW-Authenticate: Payment` (MPP). */
  async challenge(usd: number, error?: string): Promise<Record<string, string>> {
    const requirements = await this.#requirements(usd);
    const required = await this.#server.createPaymentRequiredResponse([requirements], this.#resource(usd), error);
    const headers: Record<string, string> = { [X402_HEADERS.required]: encodePaymentRequiredHeader(required), 'cache-control': 'no-store' };
    const { url, description } = this.#resource(usd);
    const payment: string[] = [];
    if (this.#mppx !== null) {
      const result = await this.#mppx.evm.charge({ amount: String(usd), description })(new Request(url, { method: 'POST' }));
      const header = result.status === 402 ? result.challenge.headers.get(MPP_HEADERS.challenge) : null;
      if (header !== null) payment.push(header);
    }
    const card = this.#card === null ? null : await this.#card.challenge(usd, url, description);
    if (card !== null) payment.push(card);
    // Several `Payment` challenges in one header, comma-joined (RFC 9110 11.6.1); mppx clients read the list.
    if (payment.length > 0) headers[MPP_HEADERS.challenge] = payment.join(', ');
    return headers;
  }

  /** Sells standing access for `usd` dollars paid with `payment` (see the file comment for the order of work). */
  async purchase(usd: number, payment: AccessPayment): Promise<AccessAnswer> {
    const presented = payment.protocol === 'x402' ? await this.#presentX402(usd, payment.header) : await this.#presentMpp(usd, payment.authorization);
    const price = BigInt(usd) * presented.unitsPerUsd;
    if (presented.claim.amount !== price) throw await this.#refusal('payment_invalid', usd, `amount_mismatch: this offer costs ${price} base units (${usd} USD)`);
    const existing = await this.o.access.findAccessPurchase(presented.claim.key);
    if (existing !== null) return this.#deliver(existing, presented, null);
    const held = await this.o.payments.findPaymentClaim(presented.claim.key);
    if (held !== null) return this.#resume(held.state, held.claim.route, held.transaction, presented, usd);
    await presented.verify();
    if (!(await this.o.payments.claimPayment(presented.claim))) throw pending();
    const settled = await presented.settle();
    await this.#recordSettlement(presented, settled.transaction);
    return this.#complete(presented, usd, settled.transaction, settled.headers);
  }

  /**
   * The settlement's ledger row, written (and the claim marked settled) as soon as the money moved: if the purchase
   * then fails to be written, the retry finds a settled claim with its transaction and completes the purchase,
   * also where nothing else could tell (a remote facilitator, Stripe).
   */
  async #recordSettlement(presented: Presented, transaction: string): Promise<void> {
    const c = presented.claim;
    try {
      await this.o.payments.recordPayment({ ...c, id: newId('pay'), claimKey: c.key, transaction, settledAt: this.#now() });
    } catch (error) {
      this.o.logger.error({ err: error, route: ACCESS_ROUTE, network: c.network }, 'access payment settled but its ledger row was not written; the client may retry');
      throw pending();
    }
  }

  /** The viewer's `agent` object of a key bought through standing access; null for every other key. */
  async agentOf(apiKeyId: string): Promise<Record<string, unknown> | null> {
    const payer = await this.o.access.agentOfApiKey(apiKeyId);
    return payer === null ? null : this.#agentBody(payer);
  }

  // ---- the purchase ----

  /**
   * A payment already claimed but not bought with: a lookup's payment (refused), one settled or moved on the
   * embedded ledger whose purchase was never written (a process stopped between settle and commit: completed
   * now), or one still being paid by another request (503, retry).
   */
  async #resume(state: 'claimed' | 'settled', route: string, transaction: string | null, presented: Presented, usd: number): Promise<AccessAnswer> {
    if (route !== ACCESS_ROUTE) throw await this.#refusal('payment_replayed', usd);
    const moved = transaction ?? (await presented.moved());
    if (state === 'settled' || moved !== null) {
      if (moved === null) throw pending();
      this.o.logger.warn({ route: ACCESS_ROUTE, network: presented.claim.network }, 'completing an access purchase whose payment moved without its purchase being written');
      return this.#complete(presented, usd, moved, presented.receipt(moved));
    }
    throw pending();
  }

  /** The transaction of an authorization the embedded ledger applied (null with a remote facilitator). */
  async #ledgerTransaction(claim: PaymentClaim, nonce: string): Promise<string | null> {
    if (this.o.settings.facilitatorUrl !== null) return null;
    return this.o.payments.ledgerAuthorization(claim.network, claim.asset, claim.payer, nonce);
  }

  /** Writes the purchase (one transaction) and hands it to this response. */
  async #complete(presented: Presented, usd: number, transaction: string, receipt: Record<string, string>): Promise<AccessAnswer> {
    const now = this.#now();
    const credits = usd * CREDITS_PER_USD;
    const key = generateApiKeySecret();
    const token = generateMcpToken();
    const orgId = newId('org');
    const keyId = newId('key');
    const secrets: AccessSecrets = { apiKey: key.secret, mcpToken: token.token };
    const c = presented.claim;
    let purchase: AccessPurchase | null;
    try {
      purchase = await this.o.access.completeAccessPurchase({
        payment: { ...c, id: newId('pay'), claimKey: c.key, transaction, settledAt: now },
        payer: presented.payer,
        usd,
        credits,
        grant: { id: newId('use').replace(/^use_/, 'crg_'), credits, amountCents: usd * 100, reason: 'access-purchase', createdAt: now },
        fresh: {
          org: { id: orgId, name: orgName(presented.payer), plan: 'free', quota: 0, createdAt: now },
          apiKey: { id: keyId, orgId, name: 'Standing access', secretHash: key.secretHash, prefix: key.prefix, createdAt: now, revokedAt: null },
          mcpToken: { id: keyId.replace(/^key_/, 'mcp_'), orgId, apiKeyId: keyId, tokenHash: token.tokenHash, prefix: token.prefix, createdAt: now, revokedAt: null },
          sealed: sealAccessSecrets(this.o.installationKey(), c.key, presented.proof, secrets),
        },
        topUpSealed: sealAccessSecrets(this.o.installationKey(), c.key, presented.proof, { apiKey: '', mcpToken: '' }),
        paidAt: now,
      });
    } catch (error) {
      // The money moved; the purchase was not written. The exact request retried completes it (#resume).
      this.o.logger.error({ err: error, route: ACCESS_ROUTE }, 'access purchase not written after settlement; the client may retry');
      throw pending();
    }
    if (purchase === null) {
      const other = await this.o.access.findAccessPurchase(c.key);
      if (other === null) throw pending();
      return this.#deliver(other, presented, receipt);
    }
    this.o.onCredits?.(purchase.orgId);
    return this.#deliver(purchase, presented, receipt);
  }

  /**
   * Exactly one response takes delivery: the purchase must be undelivered, paid within the retry window, and the
   * proof presented must open its seal (the exact request). Anything else: 409 credential_already_delivered.
   */
  async #deliver(purchase: AccessPurchase, presented: Presented, receipt: Record<string, string> | null): Promise<AccessAnswer> {
    const now = this.#now();
    let secrets: AccessSecrets | null = null;
    let taken: Awaited<ReturnType<AccessStore['takeAccessDelivery']>>;
    const windowStart = new Date(now.getTime() - ACCESS_RETRY_WINDOW_MS);
    try {
      if (this.o.beforeDelivery) await this.o.beforeDelivery(purchase);
      // Seals outlive their window only until the next delivery attempt of any purchase.
      await this.o.access.wipeAccessSeals(windowStart);
      taken = await this.o.access.takeAccessDelivery(purchase.paymentKey, now, windowStart, (sealed) => {
        secrets = sealed === null ? null : openAccessSecrets(this.o.installationKey(), purchase.paymentKey, presented.proof, sealed);
        return secrets !== null;
      });
    } catch (error) {
      this.o.logger.error({ err: error, route: ACCESS_ROUTE }, 'access purchase written but not delivered; the client may retry');
      throw pending();
    }
    if (taken === null || secrets === null) throw new ApiError('credential_already_delivered', undefined, { code: 'credential_already_delivered' });
    return { body: await this.#body(taken.purchase, secrets), headers: receipt ?? (await this.#receiptOf(purchase, presented)) };
  }

  async #receiptOf(purchase: AccessPurchase, presented: Presented): Promise<Record<string, string>> {
    const stored = await this.o.payments.findPaymentClaim(purchase.paymentKey);
    return stored?.transaction ? presented.receipt(stored.transaction) : {};
  }

  async #body(purchase: AccessPurchase, secrets: AccessSecrets): Promise<Record<string, unknown>> {
    const org = await this.o.accounts.getOrganization(purchase.orgId);
    const fresh = !purchase.topUp;
    return {
      ...(fresh ? { apiKey: secrets.apiKey, mcpToken: secrets.mcpToken } : {}),
      topUp: purchase.topUp,
      key: { id: purchase.apiKeyId, urn: apiKeyUrn(purchase.orgId, purchase.apiKeyId) },
      organization: { id: purchase.orgId, urn: organizationUrn(purchase.orgId) },
      usd: purchase.usd,
      credits: { added: purchase.credits, balance: org?.prepaidCredits ?? null, perUsd: CREDITS_PER_USD },
      agent: this.#agentBody(purchase.payer),
      message: fresh
        ? 'Keep the API key and the MCP token now: they are shown once and cannot be shown again. Send "Authorization: Bearer <apiKey>"; GET /v2/viewer shows the key and its usage.'
        : 'The credits were added to the organization this wallet bought before; its API key keeps working with them. No new key or token is issued on a top-up.',
      viewer: `${this.o.publicUrl}/v2/viewer`,
    };
  }

  #agentBody(payer: AgentPayer): Record<string, unknown> {
    const offer = `${this.o.publicUrl}${ACCESS_ROUTE}`;
    if (payer.kind === 'wallet') {
      return {
        payer: 'wallet',
        wallet: { network: payer.network, address: payer.address },
        addCredits: { method: 'POST', url: `${offer}?usd={usd}`, howTo: 'Pay the access offer again from this wallet (same network and address): the credits are added to this key.' },
      };
    }
    return { payer: 'card', addCredits: { method: 'POST', url: `${offer}?usd={usd}`, howTo: 'A card names no wallet, so each card payment buys its own organization and key: buy a new key.' } };
  }

  // ---- x402 ----

  #initialized(): Promise<void> {
    this.#ready ??= this.#server.initialize().catch((error: unknown) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  async #requirements(usd: number): Promise<PaymentRequirements> {
    await this.#initialized();
    const s = this.o.settings;
    const [requirements] = await this.#server.buildPaymentRequirements({
      scheme: 'exact',
      network: s.network as `${string}:${string}`,
      payTo: s.payTo,
      price: { amount: (BigInt(usd) * UNITS_PER_USD).toString(), asset: s.asset, extra: { name: s.assetName, version: s.assetVersion } },
      maxTimeoutSeconds: s.maxTimeoutSeconds,
    });
    if (requirements === undefined) throw new Error('x402: no payment requirements for the configured network');
    return requirements;
  }

  #resource(usd: number): { url: string; description: string; mimeType: string } {
    return { url: `${this.o.publicUrl}${ACCESS_ROUTE}?usd=${usd}`, description: `Standing access: an API key with ${usd * CREDITS_PER_USD} prepaid credits.`, mimeType: 'application/json' };
  }

  async #refusal(code: 'payment_invalid' | 'payment_replayed' | 'payment_settlement_failed', usd: number, reason?: string): Promise<ApiError> {
    const body = { documentation: `${this.o.publicUrl}/docs/payments#standing-access`, ...(reason === undefined ? {} : { reason }) };
    return new ApiError(code, undefined, body, await this.challenge(usd, reason));
  }

  async #presentX402(usd: number, header: string): Promise<Presented> {
    const { payload, authorization: auth } = readPaymentSignature(header);
    const s = this.o.settings;
    const claim = this.#claim('x402', auth.from, auth.to, auth.value, auth.validBefore, auth.nonce);
    return {
      protocol: 'x402',
      proof: header,
      claim,
      payer: { kind: 'wallet', network: s.network, address: claim.payer },
      unitsPerUsd: UNITS_PER_USD,
      moved: () => this.#ledgerTransaction(claim, auth.nonce),
      verify: async () => {
        if (validTooLong(auth.validBefore, this.#now(), s.maxTimeoutSeconds)) throw await this.#refusal('payment_invalid', usd, X402_VALID_TOO_LONG);
        const requirements = await this.#requirements(usd);
        if (this.#server.findMatchingRequirements([requirements], payload) === undefined) {
          throw await this.#refusal('payment_invalid', usd, 'invalid_payment_requirements: the payment does not accept this offer');
        }
        const verified = await this.#server.verifyPayment(payload, requirements);
        if (!verified.isValid) throw await this.#refusal('payment_invalid', usd, verified.invalidReason ?? 'invalid_payment');
      },
      settle: async () => {
        const requirements = await this.#requirements(usd);
        const settled = await this.#server.settlePayment(payload, requirements).catch((error: unknown) => ({
          success: false as const,
          errorReason: error instanceof Error ? error.message : 'unexpected_settle_error',
          transaction: '',
          network: requirements.network,
        }));
        if (!settled.success) {
          await this.o.payments.releasePaymentClaim(claim.key);
          this.o.logger.warn({ reason: settled.errorReason, network: claim.network, route: ACCESS_ROUTE }, 'x402 settlement failed; nothing charged');
          throw await this.#refusal('payment_settlement_failed', usd, settled.errorReason);
        }
        return { transaction: settled.transaction, headers: { [X402_HEADERS.response]: encodePaymentResponseHeader(settled) } };
      },
      receipt: (transaction) => ({ [X402_HEADERS.response]: encodePaymentResponseHeader({ success: true, transaction, network: s.network as `${string}:${string}`, payer: auth.from }) }),
    };
  }

  // ---- MPP ----

  async #presentMpp(usd: number, authorization: string): Promise<Presented> {
    const mppx = this.#mppx;
    let credential: Credential.Credential<MppAuthorization>;
    try {
      credential = Credential.deserialize<MppAuthorization>(authorization);
    } catch (error) {
      throw await this.#refusal('payment_invalid', usd, error instanceof Error ? `malformed-credential: ${error.message}` : 'malformed-credential');
    }
    if (credential.challenge.method === 'stripe' && this.#card !== null) return this.#card.present(usd, authorization, credential, this.#cardHooks(usd));
    let auth: MppAuthorization;
    try {
      if (mppx === null || credential.challenge.method !== 'evm') throw new Error(`MPP method ${credential.challenge.method} is not accepted by this server`);
      auth = credential.payload;
      if (typeof auth.from !== 'string' || typeof auth.nonce !== 'string' || !/^\d{1,30}$/.test(String(auth.value)) || !/^\d{1,20}$/.test(String(auth.validBefore))) throw new Error('not an evm charge authorization');
    } catch (error) {
      throw await this.#refusal('payment_invalid', usd, error instanceof Error ? `malformed-credential: ${error.message}` : 'malformed-credential');
    }
    const claim = this.#claim('mpp', auth.from, auth.to, auth.value, auth.validBefore, auth.nonce);
    return {
      protocol: 'mpp',
      proof: authorization,
      claim,
      payer: { kind: 'wallet', network: this.o.settings.network, address: claim.payer },
      unitsPerUsd: UNITS_PER_USD,
      moved: () => this.#ledgerTransaction(claim, auth.nonce),
      verify: async () => {
        try {
          await mppx.validateCredential(authorization);
        } catch (error) {
          throw await this.#refusal('payment_invalid', usd, error instanceof Error ? error.message : 'verification-failed');
        }
        if (claim.payTo !== this.o.settings.payTo.toLowerCase()) throw await this.#refusal('payment_invalid', usd, 'recipient_mismatch');
      },
      settle: async () => {
        try {
          const receipt = await mppx.broadcastCredential(authorization);
          return { transaction: receipt.reference, headers: { [MPP_HEADERS.receipt]: Receipt.serialize(receipt), 'cache-control': 'private' } };
        } catch (error) {
          await this.o.payments.releasePaymentClaim(claim.key);
          const reason = error instanceof Error ? error.message : 'settlement failed';
          this.o.logger.warn({ reason, network: claim.network, route: ACCESS_ROUTE }, 'MPP settlement failed; nothing charged');
          throw await this.#refusal('payment_settlement_failed', usd, reason);
        }
      },
      receipt: (transaction) => ({
        [MPP_HEADERS.receipt]: Receipt.serialize(Receipt.from({ method: 'evm', reference: transaction, status: 'success', timestamp: this.#now().toISOString() })),
        'cache-control': 'private',
      }),
    };
  }

  #cardHooks(usd: number): CardSaleHooks {
    return {
      route: ACCESS_ROUTE,
      refuse: (reason) => this.#refusal('payment_invalid', usd, reason),
      settlementFailed: (reason) => this.#refusal('payment_settlement_failed', usd, reason),
      release: (key) => this.o.payments.releasePaymentClaim(key),
    };
  }

  #claim(method: PaymentMethod, from: string, to: string, value: string, validBefore: string, nonce: string): PaymentClaim {
    const s = this.o.settings;
    return {
      key: x402ClaimKey(s.network, s.asset, from, nonce),
      method,
      network: s.network,
      asset: s.asset.toLowerCase(),
      payer: from.toLowerCase(),
      payTo: String(to).toLowerCase(),
      amount: BigInt(value),
      route: ACCESS_ROUTE,
      claimedAt: this.#now(),
      validBefore: new Date(Number(validBefore) * 1000),
    };
  }

  /** mppx's settle hook: the transfer on the embedded ledger (single-use nonce and balance enforced there). */
  async #settleOnLedger(payload: MppAuthorization): Promise<{ reference: string }> {
    const s = this.o.settings;
    const transaction = ledgerTransactionHash(s.network, payload.from, payload.nonce);
    await this.o.payments.ledgerTransfer({ network: s.network, asset: s.asset, from: payload.from, to: payload.to, value: BigInt(payload.value), nonce: payload.nonce as Hex, transaction, at: this.#now() });
    return { reference: transaction };
  }
}

function createMppx(o: AccessSalesOptions, settle: (payload: MppAuthorization) => Promise<{ reference: string }>) {
  const s = o.settings;
  return Mppx.create({
    methods: [
      evm.charge({
        currency: getAddress(s.asset),
        chainId: Number(s.network.split(':')[1]),
        decimals: DECIMALS,
        authorization: { name: s.assetName, version: s.assetVersion },
        recipient: getAddress(s.payTo),
        settle: ({ payload }) => settle(payload as MppAuthorization),
      }),
    ],
    secretKey: o.mppSecretKey ?? '',
    realm: new URL(o.publicUrl).host,
  });
}

function pending(): ApiError {
  return new ApiError('access_purchase_pending', undefined, { code: 'access_purchase_pending' }, { 'retry-after': '2' });
}

/** An organization name that identifies the payer without a personal detail (an address is public on chain). */
function orgName(payer: AgentPayer): string {
  return payer.kind === 'wallet' ? `Agent wallet ${payer.address.slice(0, 10)}… (${payer.network})` : 'Agent (card)';
}
