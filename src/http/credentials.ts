import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../billing/authenticator.js';
import type { RouteClass } from '../billing/billing.js';
import type { ActiveSession } from '../dashboard-accounts/dashboard-accounts.js';
import { CredentialPayers, readCredential, requestDigest, type Credential, type CredentialRoute } from '../usecases/credential-payer.js';
import type { Payer, Receipt, UsageSnapshot } from '../usecases/payer.js';
import { X402_HEADERS } from '../payments/x402-payments.js';
import type { AppDeps } from './app-deps.js';
import { docUrl } from './doc-urls.js';
import { paymentRequiredBody, STANDING_ACCESS_SUMMARY } from './payment-bodies.js';

export type { CredentialRoute } from '../usecases/credential-payer.js';

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

/** The one credential-to-payer resolver of an app (usecases/credential-payer.ts), built from its deps once. */
const resolvers = new WeakMap<AppDeps, CredentialPayers<ActiveSession>>();

export function credentialPayers(deps: AppDeps): CredentialPayers<ActiveSession> {
  let resolver = resolvers.get(deps);
  if (!resolver) {
    resolver = new CredentialPayers<ActiveSession>({
      apiKeys: deps.authenticator,
      mcpTokens: deps.mcp?.tokens ?? null,
      sessions: deps.dashboard ?? null,
      billing: deps.billing,
      x402: deps.payments ?? null,
      mpp: deps.mpp ?? null,
      bodies: { paymentRequired: (template) => paymentRequiredBody(deps.publicUrl, template), agentAccess: () => agentAccessBody(deps.publicUrl) },
    });
    resolvers.set(deps, resolver);
  }
  return resolver;
}

/** Verifies a keyed credential: 401 malformed header, 402/401 none, 403 unknown or revoked key. */
export function authenticate(deps: AppDeps, request: FastifyRequest, route: CredentialRoute): Promise<Principal> {
  return credentialPayers(deps).principal(credentialOf(request), route);
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
  return credentialPayers(deps).payer(credentialOf(request), route, routeClass, () => digestOf(request));
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

export function agentAccessBody(publicUrl: string): Record<string, unknown> {
  return {
    offer: `${publicUrl}/v2/agents/access`,
    description: `No API key? ${STANDING_ACCESS_SUMMARY}`,
    documentation: docUrl(publicUrl, 'standingAccess'),
  };
}
