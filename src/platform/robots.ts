import { createRequire } from 'node:module';
import { FetchError } from './fetcher.js';

/**
 * robots.txt per origin, RFC 9309 semantics via robots-parser (group by product token, else `*`; longest
 * match wins, Allow wins ties; `*` and `$` wildcards). The file itself is fetched by the caller-supplied
 * loader, which goes through the same pinned, policy-checked path as every page.
 */

/** RFC 9309 asks crawlers to parse at least 500 KiB; the rest is ignored. */
export const ROBOTS_MAX_BYTES = 500 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * A robots.txt that could not be had (5xx, 429, or no answer at all) stops fetching from the origin, but only
 * briefly: shorter than the crawl failure memory's default (BRANDBASE_CRAWL_FAILURE_MEMORY_MS), so a site that
 * comes up is seen by the next crawl instead of being answered from this cache.
 */
export const ROBOTS_FAILURE_TTL_MS = 30 * 1000;

interface RobotsRules {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
}

// robots-parser is CommonJS with an ESM-style `export default` in its typings; require() gives the function.
const parseRobots = createRequire(import.meta.url)('robots-parser') as (url: string, contents: string) => RobotsRules;

export interface RobotsFile {
  status: number;
  body: Buffer;
}

/** Fetches `robotsUrl` following redirects; rejects with FetchError on transport or policy failure. */
export type RobotsLoader = (robotsUrl: string) => Promise<RobotsFile>;

/**
 * `unreachable`: robots.txt could not be had (RFC 9309 2.3.1.3/2.3.1.4). Nothing is fetched from the origin, and
 * the fetch fails with why (the transport failure, or `robots_unreachable` for a 5xx), never with
 * `robots_disallowed`: a site that is down has not refused anything.
 */
type Verdict = { kind: 'rules'; rules: RobotsRules } | { kind: 'allow_all' } | { kind: 'unreachable'; error: unknown };

interface Entry {
  expiresAt: number;
  verdict: Promise<Verdict>;
}

export interface RobotsCacheOptions {
  load: RobotsLoader;
  /** Product token matched against `User-agent` lines, e.g. `BrandbaseBot`. */
  productToken: string;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: RobotsCacheOptions) {
    this.ttlMs = options.ttlMs ?? DAY_MS;
    this.maxEntries = options.maxEntries ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Whether our product token may fetch `url`. Rejects, with the reason, when robots.txt could not be had. The
   * caller's signal only stops the wait, not a shared load.
   */
  async isAllowed(url: URL, signal?: AbortSignal): Promise<boolean> {
    const verdict = await untilAborted(this.verdictFor(url.origin), signal);
    if (verdict.kind === 'unreachable') throw verdict.error;
    if (verdict.kind === 'rules') return verdict.rules.isAllowed(url.href, this.options.productToken) ?? true;
    return true;
  }

  private verdictFor(origin: string): Promise<Verdict> {
    const cached = this.entries.get(origin);
    if (cached && cached.expiresAt > this.now()) return cached.verdict;
    this.entries.delete(origin);
    if (this.entries.size >= this.maxEntries) this.evictOldest();
    const entry: Entry = { expiresAt: this.now() + this.ttlMs, verdict: Promise.resolve({ kind: 'allow_all' }) };
    entry.verdict = this.load(origin).then((verdict) => {
      if (verdict.kind === 'unreachable') entry.expiresAt = Math.min(entry.expiresAt, this.now() + ROBOTS_FAILURE_TTL_MS);
      return verdict;
    });
    this.entries.set(origin, entry);
    return entry.verdict;
  }

  private async load(origin: string): Promise<Verdict> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const file = await this.options.load(robotsUrl);
      return verdictForFile(robotsUrl, file);
    } catch (error) {
      // RFC 9309 2.3.1.2: more than five redirects may be treated as "unavailable" (allow all).
      if (error instanceof FetchError && error.code === 'too_many_redirects') return { kind: 'allow_all' };
      // No answer (refused, reset, DNS, timeout): the fetch of the page fails with that, not as a robots refusal.
      return { kind: 'unreachable', error };
    }
  }

  /** Map iteration order is insertion order, so the first key is the oldest entry. */
  private evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.entries.delete(oldest.value);
  }
}

/**
 * RFC 9309 2.3.1: 2xx is parsed; 4xx "unavailable" allows all; 5xx "unreachable" disallows all (reported as
 * `robots_unreachable`, the site being down, not as a refusal). 429 means overload, so it counts as unreachable.
 */
function verdictForFile(robotsUrl: string, file: RobotsFile): Verdict {
  if (file.status >= 200 && file.status < 300) {
    return { kind: 'rules', rules: parseRobots(robotsUrl, file.body.toString('utf8')) };
  }
  if (file.status >= 400 && file.status < 500 && file.status !== 429) return { kind: 'allow_all' };
  return { kind: 'unreachable', error: new FetchError('robots_unreachable', `robots.txt answered HTTP ${file.status}`, robotsUrl) };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
