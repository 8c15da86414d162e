/**
 * A client ID (`?c=`, spec 5.4) is admitted here for every product that takes one, search and the logo CDN alike,
 * through the client-ID gate (billing/client-id-gate.ts: referrers, throughput per client ID and per address, the
 * monthly allowance). Transports pass what they read (the ID, the address, the Referer host, whether a key was sent)
 * and map the ApiError of a refusal; they admit nothing themselves.
 */
import type { ClientIdGate, ClientIdGrant, ClientIdRefusal, ClientIdRequest } from '../domain/client-ids.js';
import { ApiError, type ErrorCode } from '../domain/errors.js';

/** A refusal as the error registry's ApiError: the code in `x-bf-error` and in the body, Retry-After when given. */
export function refusalError(refusal: ClientIdRefusal, documentation: string): ApiError {
  const headers: Record<string, string> = refusal.retryAfterSeconds === undefined ? {} : { 'retry-after': String(refusal.retryAfterSeconds) };
  return new ApiError(refusal.code as ErrorCode, refusal.message, { code: refusal.code, documentation }, headers);
}

/** Admits (and counts) one request on the client ID's product, or throws its refusal. */
export async function admitClientId(gate: ClientIdGate, request: ClientIdRequest, documentation: string): Promise<ClientIdGrant> {
  const admitted = await gate.admit(request);
  if (!admitted.ok) throw refusalError(admitted, documentation);
  return admitted;
}
