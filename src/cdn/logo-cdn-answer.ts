/**
 * One logo CDN request (issue 20 item 3, docs/logo-cdn.md, ADR 0034): the client ID is admitted on the `logo`
 * product (usecases/client-id-admission.ts, as search admits its own; this file sits in cdn/ because the CDN draws on the use cases, never the reverse), then the CDN answers the parsed request for the
 * admitted organization. The route (http/cdn/) parses the URL grammar, negotiates the format and writes headers.
 */
import type { CdnAnswer, LogoCdn } from './logo-cdn.js';
import type { LogoCdnRequest } from './logo-cdn-request.js';
import type { ClientIdGate, ClientIdRequest } from '../domain/client-ids.js';
import { admitClientId } from '../usecases/client-id-admission.js';

export interface LogoCdnUseCaseDeps {
  gate: ClientIdGate;
  cdn: Pick<LogoCdn, 'answer'>;
}

export interface LogoCdnResult {
  answer: CdnAnswer;
  /** Past the monthly volume but under the hard ceiling (soft allowance, ADR 0033): served, and said so. */
  overAllowance: boolean;
}

/** Throws the gate's refusal (an ApiError with the code, message and Retry-After) before anything is read. */
export async function answerLogoRequest(
  deps: LogoCdnUseCaseDeps,
  client: Omit<ClientIdRequest, 'product'>,
  logo: LogoCdnRequest,
  documentation: string,
  requestId?: string,
): Promise<LogoCdnResult> {
  const admitted = await admitClientId(deps.gate, { ...client, product: 'logo' }, documentation);
  return { answer: await deps.cdn.answer(logo, admitted.orgId, requestId), overAllowance: admitted.overAllowance };
}
