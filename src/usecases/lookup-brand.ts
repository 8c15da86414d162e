import type { CachedBrand } from '../brands/brand-cache.js';
import type { CrawlFailureReason } from '../domain/crawl-failures.js';
import type { Readings } from '../domain/identifiers.js';
import { answeredRecord, paletteText } from './palette-splice.js';
import { charged, type Charged, type Payer } from './payer.js';
import type { UseCaseDeps } from './use-case-deps.js';

export interface LookupRequest {
  readings: Readings;
  /** Answer from the store only; never crawl or queue (spec 4.1). */
  cachedOnly: boolean;
  /** unset: NSFW brands are returned flagged; false: they answer 404; true: returned. */
  allowNsfw: boolean | undefined;
  palette: boolean;
  /** The transport's request id, carried into a live crawl's log lines (`reqId`, ADR 0039). */
  requestId?: string;
}

export type LookupAnswer =
  /** `record` is the JSON answer (palette spliced in when requested). */
  | { status: 'found'; brand: CachedBrand; record: Buffer | string; domain: string | null }
  | { status: 'not_indexed'; domain: string | null }
  /** `reason`: why the crawl failed (now or within the failure memory); absent for every other 404. */
  | { status: 'not_found'; message: string; domain: string | null; reason?: CrawlFailureReason };

interface Lookup {
  deps: UseCaseDeps;
  request: LookupRequest;
  owner: string | null;
}

async function runLookup({ deps, request, owner }: Lookup): Promise<LookupAnswer> {
  const result = await deps.lookup.lookup(request.readings, { cachedOnly: request.cachedOnly, allowNsfw: request.allowNsfw, owner, ...(request.requestId === undefined ? {} : { requestId: request.requestId }) });
  if (result.status !== 'found') return result;
  const palette = request.palette ? await paletteText(deps.palettes, result.brand) : undefined;
  return { status: 'found', brand: result.brand, record: answeredRecord(result.brand, palette), domain: result.domain };
}

function lookupCost({ deps }: Lookup, answer: LookupAnswer): number {
  return answer.status === 'found' ? deps.rule.brandCost(answer.brand.stored.brand) : 0;
}

/**
 * A single brand lookup (spec 4.1): cache, store, then a live crawl for a domain. One credit is held before it
 * runs and charged only when a brand is returned (the operator's own brand is free).
 */
export function lookupBrand(deps: UseCaseDeps, payer: Payer, request: LookupRequest): Promise<Charged<LookupAnswer>> {
  return charged(deps.rule.payerFor(payer, request.readings), 1, 'single', 'brand.lookup', { deps, request, owner: payer.account }, runLookup, lookupCost);
}
