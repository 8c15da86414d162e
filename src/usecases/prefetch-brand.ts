import type { Readings } from '../domain/identifiers.js';
import { ApiError } from '../domain/errors.js';
import type { Payer } from './payer.js';
import type { UseCaseDeps } from './use-case-deps.js';

export type PrefetchAnswer = 'held' | 'queued' | 'not_found';

/**
 * HEAD prefetch (spec 4.2), free: held, or a crawl queued for a domain or the domain of an email address. A
 * website URL, brand ID, ticker, ISIN or crypto symbol that is not held is not found (spec 4.2 and section 3: only a
 * domain can have a crawl queued, even when a ticker resolves to a website not yet indexed);
 * so is a domain whose crawl failed moments ago. 503 `temporarily_unavailable` when the queue does not admit the
 * crawl: full, the payer's share used, or the rest kept for paid organizations (ADR 0050). The payer is never
 * charged; it owns the queued crawl, which takes fair turns (ADR 0015).
 * `requestId`: the transport's request id, carried by the queued job for the worker's log lines.
 */
export async function prefetchBrand(deps: UseCaseDeps, payer: Payer, readings: Readings, requestId?: string): Promise<PrefetchAnswer> {
  // A ticker, ISIN or crypto symbol is resolved to its website: held there answers 200 (reads only, no write).
  const known = await deps.lookup.state(readings, { resolve: true });
  if (known.state === 'held') return 'held';
  const primary = readings.primary;
  const queueable = known.state === 'absent' && primary.kind === 'domain' && primary.source !== 'url';
  // The failure memory is read only here, where the brand is not held (one primary-key read).
  if (!queueable || (await deps.lookup.recentFailure(primary.domain)) !== null) return 'not_found';
  // The request's id travels with the job, so the worker's lines about this crawl carry it (ADR 0039).
  if ((await deps.scheduler.schedule(primary.domain, payer.account, requestId)) === 'full') throw new ApiError('temporarily_unavailable');
  return 'queued';
}
