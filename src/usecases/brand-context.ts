/**
 * The brand context (`GET /v2/context/{domain}`, the MCP tool `get_brand_context`; docs/context.md, ADR 0035):
 * the brand is found as a lookup finds it (cache, store, a live crawl of the domain unless `cachedOnly`), then its
 * context profile is read or built lazily from the context evidence of its last crawl. Billed like a lookup: one
 * credit held, charged only when a context is returned (the operator's own brand is free). A held brand whose last
 * crawl kept no context evidence answers `generation_in_progress` (503, a re-crawl queued, never charged), or
 * `not_indexed` under `cachedOnly`.
 */
import type { BrandContext } from '../domain/brand-context.js';
import type { CrawlFailureReason } from '../domain/crawl-failures.js';
import { ApiError } from '../domain/errors.js';
import type { Readings } from '../domain/identifiers.js';
import { charged, type Charged, type Payer } from './payer.js';
import type { UseCaseDeps } from './use-case-deps.js';

/** Seconds a client should wait before asking again for a context being generated (a crawl takes a few). */
export const CONTEXT_RETRY_AFTER_SECONDS = 15;

export interface ContextRequest {
  /** A domain reading (the context takes a domain, website URL or email address: spec 1 rule 4). */
  readings: Readings;
  /** Answer from what is held only: no crawl, no re-crawl queued (spec 4.6). */
  cachedOnly: boolean;
  /** The transport's request id, carried into a live crawl's and a queued re-crawl's log lines (`reqId`, ADR 0039). */
  requestId?: string;
}

export type ContextAnswer =
  | { status: 'found'; context: BrandContext; domain: string }
  | { status: 'not_indexed'; domain: string | null }
  | { status: 'not_found'; message: string; domain: string | null; reason?: CrawlFailureReason };

interface ContextRun {
  deps: UseCaseDeps;
  request: ContextRequest;
  owner: string | null;
}

async function runContext({ deps, request, owner }: ContextRun): Promise<ContextAnswer> {
  const requestId = request.requestId === undefined ? {} : { requestId: request.requestId };
  const found = await deps.lookup.lookup(request.readings, { cachedOnly: request.cachedOnly, allowNsfw: undefined, owner, ...requestId });
  if (found.status !== 'found') return found;
  const domain = found.brand.stored.brand.domain;
  const context = deps.contexts ? await deps.contexts.contextOf(found.brand) : null;
  if (context) return { status: 'found', context, domain };
  if (request.cachedOnly) return { status: 'not_indexed', domain };
  // Crawled before contexts existed (or with evidence of an older version): the re-crawl keeps the pages' text.
  const queued = await deps.scheduler.schedule(domain, owner, request.requestId);
  if (queued === 'full') throw new ApiError('temporarily_unavailable', undefined, {}, { 'retry-after': String(CONTEXT_RETRY_AFTER_SECONDS) });
  throw new ApiError('generation_in_progress', undefined, {}, { 'retry-after': String(CONTEXT_RETRY_AFTER_SECONDS) });
}

function contextCost({ deps }: ContextRun, answer: ContextAnswer): number {
  return answer.status === 'found' ? deps.rule.brandCost({ domain: answer.domain }) : 0;
}

/** One context: one credit held before it runs, charged only when a context is returned. */
export function brandContext(deps: UseCaseDeps, payer: Payer, request: ContextRequest): Promise<Charged<ContextAnswer>> {
  return charged(deps.rule.payerFor(payer, request.readings), 1, 'single', 'brand.context', { deps, request, owner: payer.account }, runContext, contextCost);
}
