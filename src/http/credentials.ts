import type { FastifyRequest } from 'fastify';
import { readCredential, type Principal } from '../billing/authenticator.js';
import { ApiError } from '../domain/errors.js';
import type { AppDeps } from './app-deps.js';
import { paymentRequiredBody } from './payment-bodies.js';

/**
 * The credential check of billable brand routes (spec 7.1): no credential at all → 402 with the payment body;
 * a malformed Authorization header → 401; an unknown or revoked key → 403; an organization without any credits
 * → 403, with `x-bf-error: paid_plan_required` on the free plan.
 */
export async function requireApiKey(deps: AppDeps, request: FastifyRequest, routeTemplate: string): Promise<Principal> {
  const credential = readCredential(request.headers.authorization);
  if (credential.kind === 'none') {
    throw new ApiError('payment_required', undefined, paymentRequiredBody(deps.publicUrl, routeTemplate));
  }
  const principal = await deps.authenticator.authenticate(credential.token);
  if (principal.org.quota <= 0) throw new ApiError(principal.org.plan === 'free' ? 'paid_plan_required' : 'no_credits');
  return principal;
}
