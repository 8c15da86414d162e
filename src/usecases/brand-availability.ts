import type { Readings } from '../domain/identifiers.js';
import type { UseCaseDeps } from './use-case-deps.js';

export type AvailabilityAnswer = 'held' | 'not_found';

/**
 * Whether a brand is held, for HEAD on a read-only sub-resource (industries): the GET answers a held brand and
 * 404s anything else without crawling, so HEAD answers the same without queueing a crawl. Free, like every HEAD.
 */
export async function brandAvailability(deps: UseCaseDeps, readings: Readings): Promise<AvailabilityAnswer> {
  return (await deps.lookup.state(readings, { resolve: true })).state === 'held' ? 'held' : 'not_found';
}
