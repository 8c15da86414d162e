/**
 * Search by name (`GET /v2/search/{name}?c=CLIENT_ID`, issue 20): the client ID admits the request (the gate counts
 * it on the organization's search allowance, apart from API-key credits); a search that cannot answer is given
 * back (503 `temporarily_unavailable` is not counted, spec 7.2). Transport-free, like every use case.
 */
import type { ClientIdGate, ClientIdRefusal, ClientIdRequest } from '../domain/client-ids.js';
import { ApiError, type ErrorCode } from '../domain/errors.js';
import type { SearchHit } from '../domain/search-hit.js';

/** The port this use case calls: the search service (src/search/brand-search.ts) is injected by main/. */
export interface NameSearch {
  search(query: string, limit: number): Promise<SearchHit[]>;
}

export interface SearchUseCaseDeps {
  gate: ClientIdGate;
  brands: NameSearch;
}

export interface SearchAnswer {
  hits: SearchHit[];
  /** The organization is past its monthly search allowance (soft): the answer says so in a header. */
  overAllowance: boolean;
}

/** A refusal as the error registry's ApiError: the code in `x-bf-error` and in the body, Retry-After when given. */
export function refusalError(refusal: ClientIdRefusal, documentation: string): ApiError {
  const headers: Record<string, string> = refusal.retryAfterSeconds === undefined ? {} : { 'retry-after': String(refusal.retryAfterSeconds) };
  return new ApiError(refusal.code as ErrorCode, refusal.message, { code: refusal.code, documentation }, headers);
}

export async function searchBrands(
  deps: SearchUseCaseDeps,
  request: Omit<ClientIdRequest, 'product'>,
  query: { name: string; limit: number },
  documentation: string,
): Promise<SearchAnswer> {
  const admitted = await deps.gate.admit({ ...request, product: 'search' });
  if (!admitted.ok) throw refusalError(admitted, documentation);
  try {
    return { hits: await deps.brands.search(query.name, query.limit), overAllowance: admitted.overAllowance };
  } catch (error) {
    deps.gate.release?.(admitted, 'search');
    throw error;
  }
}
