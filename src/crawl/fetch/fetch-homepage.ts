/**
 * Fetches a brand's homepage: https first, plain http when https cannot connect; redirects are followed by the
 * fetcher (each hop re-checked). When the host does not serve the site (no such name, refused connection, or an
 * error status) the `www.` twin is tried (or, for a `www.` host, the bare domain), as one more hop of the same
 * redirect budget and time budget; robots.txt refusals and policy blocks are final. Maps every way this can fail
 * onto the crawl outcome's reasons (the first host's failure is the one reported).
 */
import type { CrawlFailureReason } from '../../domain/crawl-failures.js';
import { FetchError, type Fetcher, type FetchErrorCode, type FetchResult } from '../../platform/fetcher.js';
import { DEFAULT_MAX_REDIRECTS } from '../../platform/safe-fetcher.js';
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

/** Redirects one homepage fetch may follow in all, the hop to the `www.` twin included (the fetcher's default). */
export const HOMEPAGE_MAX_REDIRECTS = DEFAULT_MAX_REDIRECTS;
/** Failures after which the twin host is worth one try: the name does not resolve or nothing answers there. */
const TWIN_ON_ERRORS: ReadonlySet<FetchErrorCode> = new Set(['dns_failure', 'network']);

export async function fetchHomepage(domain: string, fetcher: Fetcher, budget: CrawlBudget): Promise<HomepageResult> {
  const first = await fetchHost(domain, fetcher, budget, HOMEPAGE_MAX_REDIRECTS);
  if (first.ok) return first;
  const twin = twinHost(domain);
  if (!twin || !first.twinWorthTrying || budget.signal.aborted) return first.failure;
  const left = HOMEPAGE_MAX_REDIRECTS - first.redirectsUsed - 1;
  if (left < 0) return first.failure;
  const second = await fetchHost(twin, fetcher, budget, left);
  return second.ok ? second : first.failure;
}

type HostAttempt = HomepageResult & { ok: true } | { ok: false; failure: HomepageFailure; twinWorthTrying: boolean; redirectsUsed: number };

async function fetchHost(host: string, fetcher: Fetcher, budget: CrawlBudget, maxRedirects: number): Promise<HostAttempt> {
  let result: FetchResult;
  try {
    result = await fetchWithFallback(host, fetcher, budget, maxRedirects);
  } catch (error) {
    const twinWorthTrying = error instanceof FetchError && TWIN_ON_ERRORS.has(error.code);
    return { ok: false, failure: failureFor(error, host), twinWorthTrying, redirectsUsed: 0 };
  }
  if (result.status < 200 || result.status > 299) {
    const failure: HomepageFailure = { ok: false, reason: 'http_error', message: `the homepage of ${host} answered HTTP ${result.status}` };
    // 401/403/429 are the site refusing us, not the wrong host: its twin would refuse as well.
    return { ok: false, failure, twinWorthTrying: ![401, 403, 429].includes(result.status), redirectsUsed: result.redirects.length };
  }
  if (!looksLikeHtml(result)) {
    return { ok: false, failure: { ok: false, reason: 'not_html', message: `the homepage of ${host} is not an HTML document` }, twinWorthTrying: false, redirectsUsed: result.redirects.length };
  }
  return { ok: true, result };
}

/** `example.com` ⇄ `www.example.com`; null for an IP address or a name without a dot. */
export function twinHost(host: string): string | null {
  const lower = host.toLowerCase().replace(/\.$/, '');
  if (!lower.includes('.') || /^[\d.]+$/.test(lower) || lower.includes(':')) return null;
  if (lower.startsWith('www.')) {
    const bare = lower.slice(4);
    return bare.includes('.') ? bare : null;
  }
  return `www.${lower}`;
}

async function fetchWithFallback(domain: string, fetcher: Fetcher, budget: CrawlBudget, maxRedirects: number): Promise<FetchResult> {
  try {
    return await fetchOnce(`https://${domain}/`, fetcher, budget, maxRedirects);
  } catch (error) {
    if (!(error instanceof FetchError) || error.code !== 'network') throw error;
    return fetchOnce(`http://${domain}/`, fetcher, budget, maxRedirects);
  }
}

function fetchOnce(url: string, fetcher: Fetcher, budget: CrawlBudget, maxRedirects: number): Promise<FetchResult> {
  const request = fetcher.fetch(url, {
    accept: HTML_ACCEPT,
    // HTML bigger than this is refused (only the first `maxBytes` would be parsed anyway; see html-page.ts).
    maxBytes: budget.limits.html.maxDownloadBytes,
    maxRedirects,
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
