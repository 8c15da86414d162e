/**
 * Search by name (`GET /v2/search/{name}?c=CLIENT_ID`, issue 20): the client ID admits the request (the gate counts
 * it on the organization's search allowance, apart from API-key credits); a search that cannot answer is given
 * back (503 `temporarily_unavailable` is not counted, spec 7.2). Transport-free, like every use case.
 */
import type { ClientIdGate, ClientIdRequest } from '../domain/client-ids.js';
import type { SearchHit } from '../domain/search-hit.js';
import { admitClientId } from './client-id-admission.js';

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

export async function searchBrands(
  deps: SearchUseCaseDeps,
  request: Omit<ClientIdRequest, 'product'>,
  query: { name: string; limit: number },
  documentation: string,
): Promise<SearchAnswer> {
  const admitted = await admitClientId(deps.gate, { ...request, product: 'search' }, documentation);
  try {
    return { hits: await deps.brands.search(query.name, query.limit), overAllowance: admitted.overAllowance };
  } catch (error) {
    deps.gate.release?.(admitted, 'search');
    throw error;
  }
}
