/**
 * Fetches a brand's homepage: https first, plain http when https cannot connect; redirects are followed by the
 * fetcher (each hop re-checked). Maps every way this can fail onto the crawl outcome's reasons.
 */
import type { CrawlFailureReason } from '../../domain/crawl-failures.js';
import { FetchError, type Fetcher, type FetchErrorCode, type FetchResult } from '../../platform/fetcher.js';
import { BudgetExpiredError, raceAbort, type CrawlBudget } from '../crawl-budget.js';

export type HomepageFailure = {
  ok: false;
  reason: Exclude<CrawlFailureReason, 'crawl_error'>;
  message: string;
};

export type HomepageResult = { ok: true; result: FetchResult } | HomepageFailure;

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

/** Every fetch failure names its own reason: a site that is down is never reported as a robots refusal. */
const REASONS: Record<FetchErrorCode, HomepageFailure['reason']> = {
  invalid_url: 'blocked',
  blocked_address: 'blocked',
  dns_failure: 'dns_failure',
  robots_disallowed: 'robots_disallowed',
  // robots.txt answered 5xx/429: the site is down or overloaded (RFC 9309 "unreachable").
  robots_unreachable: 'unreachable',
  too_large: 'too_large',
  timeout: 'timeout',
  too_many_redirects: 'too_many_redirects',
  network: 'unreachable',
};

export async function fetchHomepage(domain: string, fetcher: Fetcher, budget: CrawlBudget): Promise<HomepageResult> {
  let result: FetchResult;
  try {
    result = await fetchWithFallback(domain, fetcher, budget);
  } catch (error) {
    return failureFor(error, domain);
  }
  if (result.status < 200 || result.status > 299) {
    return { ok: false, reason: 'http_error', message: `the homepage of ${domain} answered HTTP ${result.status}` };
  }
  if (!looksLikeHtml(result)) {
    return { ok: false, reason: 'not_html', message: `the homepage of ${domain} is not an HTML document` };
  }
  return { ok: true, result };
}

async function fetchWithFallback(domain: string, fetcher: Fetcher, budget: CrawlBudget): Promise<FetchResult> {
  try {
    return await fetchOnce(`https://${domain}/`, fetcher, budget);
  } catch (error) {
    if (!(error instanceof FetchError) || error.code !== 'network') throw error;
    return fetchOnce(`http://${domain}/`, fetcher, budget);
  }
}

function fetchOnce(url: string, fetcher: Fetcher, budget: CrawlBudget): Promise<FetchResult> {
  const request = fetcher.fetch(url, {
    accept: HTML_ACCEPT,
    // HTML bigger than this is refused (only the first `maxBytes` would be parsed anyway; see html-page.ts).
    maxBytes: budget.limits.html.maxDownloadBytes,
    timeoutMs: Math.max(1, budget.remaining()),
    signal: budget.signal,
  });
  return raceAbort(request, budget.signal);
}

function failureFor(error: unknown, domain: string): HomepageFailure {
  if (error instanceof BudgetExpiredError) {
    return { ok: false, reason: 'timeout', message: `the homepage of ${domain} did not load within the crawl time budget` };
  }
  if (error instanceof FetchError) {
    return { ok: false, reason: REASONS[error.code], message: `the homepage of ${domain} could not be fetched: ${error.message}` };
  }
  return { ok: false, reason: 'unreachable', message: `the homepage of ${domain} could not be fetched` };
}

/** Content-Type decides when present; without one, the first bytes must look like markup. */
function looksLikeHtml(result: FetchResult): boolean {
  const type = (result.headers['content-type'] ?? '').toLowerCase();
  if (type) return type.includes('html');
  return /^\s*(<!doctype html|<html|<head|<body|<!--|<meta|<title)/i.test(result.body.subarray(0, 512).toString('utf8'));
}
