import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCredential, type Principal } from '../billing/authenticator.js';
import type { RouteClass } from '../billing/billing.js';
import { ApiError } from '../domain/errors.js';
import type { AppDeps } from './app-deps.js';
import { paymentRequiredBody } from './payment-bodies.js';

/**
 * What a route answers when no credential at all is sent (spec 7.1): brand routes 402 with the payment body,
 * the batch 401 ("no key sent (batch)"), the viewer 401 with the access offer.
 */
export type MissingCredential = { answer: 'payment'; route: string } | { answer: 'unauthorized' } | { answer: 'agent-access' };

/** Verifies the credential: 401 malformed header, 402/401 none, 403 unknown or revoked key. */
export async function authenticate(deps: AppDeps, request: FastifyRequest, missing: MissingCredential): Promise<Principal> {
  const credential = readCredential(request.headers.authorization);
  if (credential.kind === 'none') {
    if (missing.answer === 'payment') throw new ApiError('payment_required', undefined, paymentRequiredBody(deps.publicUrl, missing.route));
    if (missing.answer === 'agent-access') throw new ApiError('missing_credentials', undefined, { agentAccess: agentAccessBody(deps.publicUrl) });
    throw new ApiError('missing_credentials');
  }
  return deps.authenticator.authenticate(credential.token);
}

/** Authentication plus the organization checks of a billable route: 403 without credits, 429 over throughput. */
export async function authorize(deps: AppDeps, request: FastifyRequest, missing: MissingCredential, route: RouteClass): Promise<Principal> {
  const principal = await authenticate(deps, request, missing);
  await deps.billing.assertCanUse(principal.org, route);
  deps.billing.admit(principal.org);
  return principal;
}

/** `x-api-key-quota` and `x-api-key-approximate-usage` on billable answers (spec 4.3, 5.1). */
export async function setUsageHeaders(deps: AppDeps, reply: FastifyReply, principal: Principal): Promise<void> {
  reply.header('x-api-key-quota', String(principal.org.quota));
  reply.header('x-api-key-approximate-usage', String(await deps.billing.approximateUsed(principal.org)));
}

export function agentAccessBody(publicUrl: string): Record<string, unknown> {
  return {
    offer: `${publicUrl}/v2/agents/access`,
    description: 'No API key? Buy standing access: an API key preloaded with prepaid credits (20 credits per US dollar), paid per request over x402 or MPP.',
    documentation: `${publicUrl}/docs#standing-access`,
  };
}
