/**
 * Why a crawl failed, and whether trying again later can change it. The job layer retries a failed crawl only
 * when its reason is retryable (a network or time failure); a site that answers "nothing to index here" (robots,
 * not HTML, an HTTP error page, a refused address) is a result, not a failure to retry.
 */
export const CRAWL_FAILURES = {
  unreachable: { retryable: true },
  timeout: { retryable: true },
  /** The crawler itself failed on this site (a bug or a resource limit): worth one more try, then reported. */
  crawl_error: { retryable: true },
  robots_disallowed: { retryable: false },
  blocked: { retryable: false },
  too_large: { retryable: false },
  http_error: { retryable: false },
  not_html: { retryable: false },
} as const satisfies Record<string, { retryable: boolean }>;

export type CrawlFailureReason = keyof typeof CRAWL_FAILURES;

/** A crawl that ended without a brand, as an error the job layer can read (`retryable`). */
export class CrawlFailedError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly domain: string,
    readonly reason: CrawlFailureReason,
  ) {
    super(`crawl of ${domain} failed: ${reason}`);
    this.name = 'CrawlFailedError';
    this.retryable = CRAWL_FAILURES[reason].retryable;
  }
}
