import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteClass } from '../billing/billing.js';
import { readCredential, requestDigest, type Credential, type CredentialRoute, type Principal } from '../usecases/credential-payer.js';
import type { Payer, Receipt, UsageSnapshot } from '../usecases/payer.js';
import { X402_HEADERS } from '../payments/x402-payments.js';
import type { AppDeps } from './app-deps.js';

export type { CredentialRoute } from '../usecases/credential-payer.js';

/**
 * The HTTP side of the one credential-to-payer path: reads the request's headers and hands them to the resolver main/
 * built (`AppDeps.credentials`, usecases/credential-payer.ts). Nothing here authenticates or admits anything.
 */

/** A `c` query parameter: how a client ID is sent (spec 5.4). */
function clientIdSent(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.c === 'string' && query.c !== '';
}

/** The request's credential, read from its headers (401 `malformed_authorization` for an unknown scheme). */
export function credentialOf(request: FastifyRequest): Credential {
  const signature = request.headers[X402_HEADERS.signature];
  return readCredential({ authorization: request.headers.authorization, paymentSignature: typeof signature === 'string' ? signature : undefined, clientIdSent: clientIdSent(request) });
}

/** Verifies a keyed credential: 401 malformed header, 402/401 none, 403 unknown or revoked key. */
export function authenticate(deps: AppDeps, request: FastifyRequest, route: CredentialRoute): Promise<Principal> {
  return deps.credentials.principal(credentialOf(request), route);
}

/** What identifies this request for a payment made for it: path and query, and the body. */
function digestOf(request: FastifyRequest): string {
  return requestDigest([request.url, request.body === undefined ? '' : JSON.stringify(request.body)]);
}

/**
 * The payer of a billable route (usecases/credential-payer.ts): a payment where the route answers 402, else the
 * credential's organization admitted for the route class (403 without credits or plan, 429 over throughput).
 */
export function payerOf(deps: AppDeps, request: FastifyRequest, route: CredentialRoute, routeClass: RouteClass): Promise<Payer> {
  return deps.credentials.payer(credentialOf(request), route, routeClass, () => digestOf(request));
}

/** `x-api-key-quota` and `x-api-key-approximate-usage` on billable answers (spec 4.3, 5.1). */
export function setUsageHeaders(reply: FastifyReply, usage: UsageSnapshot | null): void {
  if (!usage) return;
  reply.header('x-api-key-quota', String(usage.quota));
  reply.header('x-api-key-approximate-usage', String(usage.approximateUsed));
}

/** The usage headers and a payment's receipt (`PAYMENT-RESPONSE`, `Payment-Receipt`) of a charged answer. */
export function setChargeHeaders(reply: FastifyReply, charged: { usage: UsageSnapshot | null; receipt: Receipt }): void {
  setUsageHeaders(reply, charged.usage);
  for (const name in charged.receipt) reply.header(name, charged.receipt[name]);
}
