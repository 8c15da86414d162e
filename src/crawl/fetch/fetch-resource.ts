/**
 * Sub-resource fetching for the crawl (stylesheets, manifest, images): through the safe fetcher, inside the
 * crawl budget and its concurrency limit, 2xx only. A sub-resource that fails is simply missing evidence, so
 * every failure resolves to null instead of failing the crawl.
 */
import type { Fetcher, FetchResult } from '../../platform/fetcher.js';
import type { CrawlBudget } from '../crawl-budget.js';

export interface ResourceFetchOptions {
  maxBytes: number;
  accept: string;
}

/** No single sub-resource may eat more than this of the budget, so one slow file leaves time for the rest. */
const PER_RESOURCE_TIMEOUT_MS = 8_000;

export async function fetchResource(
  fetcher: Fetcher,
  budget: CrawlBudget,
  url: string,
  options: ResourceFetchOptions,
): Promise<FetchResult | null> {
  try {
    const result = await budget.limit(() =>
      fetcher.fetch(url, {
        accept: options.accept,
        maxBytes: options.maxBytes,
        timeoutMs: Math.max(1, Math.min(PER_RESOURCE_TIMEOUT_MS, budget.remaining())),
        signal: budget.signal,
      }),
    );
    return result.status >= 200 && result.status < 300 ? result : null;
  } catch {
    return null;
  }
}
