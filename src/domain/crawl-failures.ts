/**
 * Why a crawl failed, and whether trying again later can change it. The job layer retries a failed crawl only
 * when its reason is retryable (a network or time failure); a site that answers "nothing to index here" (robots,
 * not HTML, an HTTP error page, a refused address) is a result, not a failure to retry.
 *
 * The reasons are part of the API: a 404 caused by a failed crawl carries one as `reason` (docs/errors.md,
 * "Crawl failures"), and the failure memory stores it. Never rename one; add new ones (clients must tolerate
 * new values, spec 9).
 */
export const CRAWL_FAILURES = {
  /** Connection refused or reset, or another network error after the name resolved. */
  unreachable: { retryable: true },
  /** The name does not resolve (may be passing: a resolver outage or a domain just registered). */
  dns_failure: { retryable: true },
  timeout: { retryable: true },
  /** The crawler itself failed on this site (a bug or a resource limit): worth one more try, then reported. */
  crawl_error: { retryable: true },
  robots_disallowed: { retryable: false },
  blocked: { retryable: false },
  /** The homepage redirects in a loop or through more hops than the fetcher follows. */
  too_many_redirects: { retryable: false },
  too_large: { retryable: false },
  http_error: { retryable: false },
  not_html: { retryable: false },
} as const satisfies Record<string, { retryable: boolean }>;

export type CrawlFailureReason = keyof typeof CRAWL_FAILURES;

export function isCrawlFailureReason(value: string): value is CrawlFailureReason {
  return Object.hasOwn(CRAWL_FAILURES, value);
}

/**
 * A crawl that ended without a brand, as an error the job layer can read (`retryable`). It is an expected
 * outcome, not a bug: the worker pool logs it in one line (`details`) without a stack trace.
 */
export class CrawlFailedError extends Error {
  readonly retryable: boolean;
  readonly expected = true;

  constructor(
    readonly domain: string,
    readonly reason: CrawlFailureReason,
  ) {
    super(`crawl of ${domain} failed: ${reason}`);
    this.name = 'CrawlFailedError';
    this.retryable = CRAWL_FAILURES[reason].retryable;
  }

  /** What a log line says about it. */
  details(): { domain: string; reason: CrawlFailureReason } {
    return { domain: this.domain, reason: this.reason };
  }
}
