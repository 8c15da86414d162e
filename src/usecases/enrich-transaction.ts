/**
 * Transaction enrichment (spec 4.6, 7.2; issue 21; docs/transactions.md; ADR 0036): a card descriptor to the full
 * Brand of the merchant behind it. The matcher (transactions/merchant-matcher.ts) names a domain with a confidence;
 * the brand lookup then answers it exactly as `GET /v2/brands/{domain}` would, indexing it live when not held.
 * Billed like a lookup: one credit is held before and charged only when a brand is returned. "No confident
 * merchant" (400 `Failed to enrich transaction`) and every failure (503) cost nothing. The HTTP route and the MCP
 * tool `enrich_transaction` both call this function. Before any rule, the paying organization's own correction, then
 * the operator's aliases, decide (transactions/corrections/, ADR 0053): read from the store on every transaction.
 */
import type { CachedBrand } from '../brands/brand-cache.js';
import { CRAWL_FAILURES } from '../domain/crawl-failures.js';
import { ApiError } from '../domain/errors.js';
import type { Readings } from '../domain/identifiers.js';
import type { MatchSource, MerchantMatch, MerchantMatcher, TransactionInput } from '../transactions/merchant-matcher.js';
import type { CorrectionSource } from '../transactions/corrections/merchant-corrections.js';
import { answeredRecord } from './palette-splice.js';
import { charged, type Charged, type Payer } from './payer.js';
import type { UseCaseDeps } from './use-case-deps.js';

export type TransactionRequest = TransactionInput;

/** A rule's match, or a correction's (confidence 1, `correctionId` the correction that decided). */
export interface TransactionMatch extends Omit<MerchantMatch, 'source'> {
  source: MatchSource | CorrectionSource;
  correctionId?: string;
}

export interface TransactionAnswer {
  match: TransactionMatch;
  brand: CachedBrand;
  /** The Brand as `GET /v2/brands/{domain}` answers it (JSON bytes). */
  record: Buffer | string;
}

interface Enrichment {
  deps: UseCaseDeps;
  matcher: MerchantMatcher | undefined;
  request: TransactionRequest;
  owner: string | null;
}

/** 503 `temporarily_unavailable` with Retry-After: the caller should try again; nothing was charged. */
function unavailable(cause?: unknown): ApiError {
  const error = new ApiError('temporarily_unavailable', undefined, {}, { 'retry-after': '10' });
  if (cause !== undefined) Object.assign(error, { cause });
  return error;
}

/** The organization's correction, else the operator's alias; null when the rules decide. "Not a merchant" answers 400. */
async function correctedMatch({ deps, request, owner }: Enrichment): Promise<TransactionMatch | null> {
  if (!deps.corrections) return null;
  const corrected = await deps.corrections.find(owner, request).catch((error: unknown) => {
    throw unavailable(error);
  });
  if (corrected === null) return null;
  if (corrected.domain === null) throw new ApiError('transaction_not_enriched');
  return { ...corrected, domain: corrected.domain, name: corrected.domain };
}

async function findMatch(matcher: MerchantMatcher | undefined, request: TransactionRequest): Promise<MerchantMatch> {
  if (!matcher) throw unavailable();
  let match: MerchantMatch | null;
  try {
    match = await matcher.match(request);
  } catch (error) {
    throw unavailable(error);
  }
  if (!match) throw new ApiError('transaction_not_enriched');
  return match;
}

async function runEnrichment(enrichment: Enrichment): Promise<TransactionAnswer> {
  const { deps, matcher, request, owner } = enrichment;
  const match = (await correctedMatch(enrichment)) ?? (await findMatch(matcher, request));
  const readings: Readings = { primary: { kind: 'domain', domain: match.domain, source: 'domain' }, fallbacks: [] };
  const found = await deps.lookup.lookup(readings, { cachedOnly: false, allowNsfw: undefined, owner });
  if (found.status === 'found') return { match, brand: found.brand, record: answeredRecord(found.brand, undefined) };
  // The merchant is known but its site could not be read: retry when the crawl failure may pass, else final.
  if (found.status === 'not_found' && found.reason !== undefined && CRAWL_FAILURES[found.reason].retryable) throw unavailable();
  throw new ApiError('transaction_not_enriched');
}

function enrichmentCost({ deps }: Enrichment, answer: TransactionAnswer): number {
  return deps.rule.brandCost(answer.brand.stored.brand);
}

/** POST /v2/brands/transaction and the MCP tool `enrich_transaction`: one credit when a brand is returned. */
export function enrichTransaction(deps: UseCaseDeps, payer: Payer, request: TransactionRequest): Promise<Charged<TransactionAnswer>> {
  const context: Enrichment = { deps, matcher: deps.transactions, request, owner: payer.account };
  return charged(payer, 1, 'single', 'transaction.enrich', context, runEnrichment, enrichmentCost);
}
