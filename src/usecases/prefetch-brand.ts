import type { Readings } from '../domain/identifiers.js';
import { ApiError } from '../domain/errors.js';
import type { Payer } from './payer.js';
import type { UseCaseDeps } from './use-case-deps.js';

export type PrefetchAnswer = 'held' | 'queued' | 'not_found';

/**
 * HEAD prefetch (spec 4.2), free: held, or a crawl queued for a domain or the domain of an email address. A
 * website URL, brand ID, ticker, ISIN or crypto symbol that is not held is not found (spec 4.2 and section 3);
 * so is a domain whose crawl failed moments ago. 503 `temporarily_unavailable` when the queue, or the payer's
 * share of it, is full. The payer is never charged; it owns the queued crawl, which takes fair turns (ADR 0015).
 */
export async function prefetchBrand(deps: UseCaseDeps, payer: Payer, readings: Readings): Promise<PrefetchAnswer> {
  const known = await deps.lookup.state(readings);
  if (known.state === 'held') return 'held';
  const primary = readings.primary;
  const queueable = known.state === 'absent' && primary.kind === 'domain' && primary.source !== 'url';
  if (!queueable || deps.lookup.recentFailure(primary.domain)) return 'not_found';
  if ((await deps.scheduler.schedule(primary.domain, payer.account)) === 'full') throw new ApiError('temporarily_unavailable');
  return 'queued';
}
