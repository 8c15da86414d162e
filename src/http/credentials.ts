import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCredential, type Principal } from '../billing/authenticator.js';
import type { RouteClass } from '../billing/billing.js';
import { ApiError } from '../domain/errors.js';
import { ApiKeyPayer } from '../usecases/api-key-payer.js';
import type { Payer, UsageSnapshot } from '../usecases/payer.js';
import { PaymentPayer } from '../usecases/payment-payer.js';
import { X402_HEADERS } from '../payments/x402-payments.js';
import { x402Context } from './x402-request.js';
import type { AppDeps } from './app-deps.js';
import { docUrl } from './doc-urls.js';
import { paymentRequiredBody, STANDING_ACCESS_SUMMARY } from './payment-bodies.js';

/**
 * What a route answers when no credential at all is sent (spec 7.1): brand routes 402 with the payment body,
 * the batch 401 ("no key sent (batch)"), the viewer 401 with the access offer.
 */
export type MissingCredential =
  /** `payable`: the route takes a payment instead (x402, docs/payments.md) and completes it (completePayment). */
  | { answer: 'payment'; route: string; payable?: boolean }
  | { answer: 'unauthorized' }
  | { answer: 'agent-access' };

/** A `c` query parameter: how a client ID is sent (spec 5.4). */
function clientIdSent(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.c === 'string' && query.c !== '';
}

/** Verifies the credential: 401 malformed header, 402/401 none, 403 unknown or revoked key. */
export async function authenticate(deps: AppDeps, request: FastifyRequest, missing: MissingCredential): Promise<Principal> {
  const credential = readCredential(request.headers.authorization);
  // A client ID (publishable, issue 20) opens search and the logo CDN only: refused clearly on keyed routes.
  if (credential.kind === 'none' ? clientIdSent(request) : credential.kind === 'bearer' && credential.token.startsWith('cid_')) throw new ApiError('client_id_not_accepted');
  if (credential.kind === 'none') {
    if (missing.answer === 'payment') {
      const challenge =
        deps.payments && missing.payable
          ? { ...(await deps.payments.challenge(x402Context(request))), ...(deps.mpp ? await deps.mpp.challenge(missing.route) : {}), 'cache-control': 'no-store' }
          : {};
      throw new ApiError('payment_required', undefined, paymentRequiredBody(deps.publicUrl, missing.route), challenge);
    }
    if (missing.answer === 'agent-access') throw new ApiError('missing_credentials', undefined, { agentAccess: agentAccessBody(deps.publicUrl) });
    throw new ApiError('missing_credentials');
  }
  return deps.authenticator.authenticate(credential.token);
}

/**
 * The payer of a billable route: the credential's organization, admitted for the route class (403 without
 * credits or plan, 429 over throughput). Pay-per-request payers will be chosen here from the request's headers.
 */
export async function payerOf(deps: AppDeps, request: FastifyRequest, missing: MissingCredential, route: RouteClass): Promise<Payer> {
  const signature = request.headers[X402_HEADERS.signature];
  // An API key wins over a payment (spec 5.1 before 5.2); a payment is read only where the route is paid.
  if (typeof signature === 'string' && request.headers.authorization === undefined && deps.payments && missing.answer === 'payment' && missing.payable) {
    return new PaymentPayer(await deps.payments.verify(x402Context(request), signature, missing.route));
  }
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Payment ') && deps.mpp && missing.answer === 'payment' && missing.payable) {
    return new PaymentPayer(await deps.mpp.verify(authorization, missing.route));
  }
  return ApiKeyPayer.admit(deps.billing, await authenticate(deps, request, missing), route);
}

/**
 * Completes a paid request once its answer is known and before it is sent: settles a charged answer (its
 * `PAYMENT-RESPONSE` receipt goes on the reply) or releases the payment of one that cost nothing. A failed
 * settlement throws: the answer is withheld. No-op for every other payer.
 */
export function completePayment(payer: Payer, reply: FastifyReply): Promise<void> | null {
  // Not async for the other payers: a keyed cached lookup should not pay for a promise it does not need.
  if (!(payer instanceof PaymentPayer)) return null;
  return payer.complete().then((headers) => {
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  });
}

/** `x-api-key-quota` and `x-api-key-approximate-usage` on billable answers (spec 4.3, 5.1). */
export function setUsageHeaders(reply: FastifyReply, usage: UsageSnapshot | null): void {
  if (!usage) return;
  reply.header('x-api-key-quota', String(usage.quota));
  reply.header('x-api-key-approximate-usage', String(usage.approximateUsed));
}

export function agentAccessBody(publicUrl: string): Record<string, unknown> {
  return {
    offer: `${publicUrl}/v2/agents/access`,
    description: `No API key? ${STANDING_ACCESS_SUMMARY}`,
    documentation: docUrl(publicUrl, 'standingAccess'),
  };
}
