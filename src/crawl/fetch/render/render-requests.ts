/**
 * What one render lets the page fetch, and how long it waits for it (issue 16, slow first lookups). A brand
 * page's header is built from the site's own scripts and data; the tag managers, ad, comment and video widgets
 * on other hosts add nothing the crawl reads, and on a locked-down server they are unreachable: waiting the
 * full fetch timeout for each of them held real article pages at the crawl cap. So:
 *   - the site's own hosts (the page's registrable domain) get the normal timeout, another host a short one;
 *   - a host that failed once (no DNS answer, no connection, no answer in time) is not asked again in this
 *     render: every later request to it is aborted at once (an article page asks one image host for 40 files);
 *   - images of other hosts are never fetched (the crawl downloads the images it chooses itself);
 *   - only the site's own requests for scripts, stylesheets and data in flight keep the page from counting as
 *     settled (settle-page.ts): a slow third party or a slow image cannot hold the render open.
 */
import { FetchError, type FetchErrorCode } from '../../../platform/fetcher.js';
import { registrableDomain } from '../../page/html-page.js';

/** The site's own resources: the fetcher's normal patience (a slow origin is still the origin). */
export const OWN_TIMEOUT_MS = 8_000;
/** Another host answers within this or is treated as unreachable for the rest of the render. */
export const THIRD_PARTY_TIMEOUT_MS = 1_500;

/** `own`: a request of the site's own that the page waits for (settle-page.ts); images are not. */
/** Failures that say the host cannot be reached, not that one file is missing, too large or disallowed. */
const UNREACHABLE: ReadonlySet<FetchErrorCode> = new Set(['dns_failure', 'timeout', 'network', 'blocked_address', 'robots_unreachable']);

export type RequestDecision = { fetch: true; timeoutMs: number; own: boolean } | { fetch: false };

export class RenderRequests {
  private readonly site: string | null;
  private readonly failedHosts = new Set<string>();
  private pendingOwn = 0;
  private lastOwnActivity: number;

  constructor(pageUrl: string, private readonly now: () => number = () => performance.now()) {
    this.site = registrableDomain(pageUrl);
    this.lastOwnActivity = now();
  }

  decide(url: string, resourceType: string): RequestDecision {
    const host = hostOf(url);
    if (host === null || this.failedHosts.has(host)) return { fetch: false };
    const image = resourceType === 'image';
    if (this.site !== null && registrableDomain(url) === this.site) return { fetch: true, timeoutMs: OWN_TIMEOUT_MS, own: !image };
    return image ? { fetch: false } : { fetch: true, timeoutMs: THIRD_PARTY_TIMEOUT_MS, own: false };
  }

  /** Runs one allowed request, counting the site's own ones in flight and remembering hosts that fail. */
  async track<T>(url: string, own: boolean, run: () => Promise<T>): Promise<T> {
    if (own) this.ownStarted();
    try {
      return await run();
    } catch (error) {
      const host = hostOf(url);
      if (host && error instanceof FetchError && UNREACHABLE.has(error.code)) this.failedHosts.add(host);
      throw error;
    } finally {
      if (own) this.ownEnded();
    }
  }

  /** How long the site's own requests have all been answered (0 while one is in flight). */
  ownIdleMs(): number {
    return this.pendingOwn > 0 ? 0 : this.now() - this.lastOwnActivity;
  }

  private ownStarted(): void {
    this.pendingOwn += 1;
    this.lastOwnActivity = this.now();
  }

  private ownEnded(): void {
    this.pendingOwn -= 1;
    this.lastOwnActivity = this.now();
  }
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}
