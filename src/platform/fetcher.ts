/**
 * The crawler's only way out to the network. `SafeFetcher` (safe-fetcher.ts) implements it with DNS pinning,
 * the address policy, redirect re-checks, byte and time caps, robots.txt and the test host map.
 */

export interface FetchOptions {
  /** Accept header; defaults to a browser-like HTML accept. */
  accept?: string;
  /** Cap on the decompressed body; the fetch fails with `too_large` past it. */
  maxBytes?: number;
  /** Total time for the whole fetch including redirects; fails with `timeout`. */
  timeoutMs?: number;
  /** Defaults to true: the URL must be allowed by its origin's robots.txt for our user agent. */
  respectRobots?: boolean;
  /** Defaults to 5. */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface FetchResult {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: Buffer;
  /** Every URL visited before `url`, in order. */
  redirects: string[];
}

export type FetchErrorCode =
  | 'invalid_url'
  | 'blocked_address'
  | 'dns_failure'
  | 'robots_disallowed'
  /** robots.txt answered 5xx or 429 (RFC 9309: "unreachable"): the site is down or overloaded, nothing is fetched. */
  | 'robots_unreachable'
  | 'too_large'
  | 'timeout'
  | 'too_many_redirects'
  | 'network';

export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    readonly url?: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface Fetcher {
  /** Resolves for any HTTP status (4xx/5xx included); rejects with `FetchError` for policy and transport failures. */
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
}

/** Host map from `BRANDBASE_CRAWL_HOSTS`: hostname (lower case) to `ip:port`. */
export type HostMap = Readonly<Record<string, string>>;
