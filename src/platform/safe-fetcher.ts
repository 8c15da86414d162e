import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from './address-policy.js';
import { sharedLookup } from './shared-lookup.js';
import { checkUrl, parseHostMap, resolveTarget, type MappedAddress } from './fetch-target.js';
import {
  FetchError,
  type FetchOptions,
  type FetchResult,
  type Fetcher,
  type HostMap,
} from './fetcher.js';
import { openHop, type OpenResponse } from './http-hop.js';
import type { Logger } from './logger.js';
import { silentLogger } from './logger.js';
import { readBody } from './read-body.js';
import { ROBOTS_MAX_BYTES, RobotsCache } from './robots.js';

/** Honest bot identity; the product token before the slash is what robots.txt groups are matched on. */
export const USER_AGENT = 'BrandbaseBot/0.1 (+https://github.com/brandbase/brandbase)';
export const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** robots.txt gets its own clock so one caller's short deadline cannot poison the shared cache entry. */
const ROBOTS_TIMEOUT_MS = 10_000;

export interface SafeFetcherOptions {
  hostMap?: HostMap;
  userAgent?: string;
  lookup?: LookupFunction;
  defaultTimeoutMs?: number;
  defaultMaxBytes?: number;
  logger?: Logger;
}

/** Options after defaults, plus the internal knobs the robots loader needs. */
interface RunOptions {
  accept: string;
  maxBytes: number;
  maxRedirects: number;
  respectRobots: boolean;
  truncate: boolean;
}

interface FinalHop {
  url: URL;
  response: OpenResponse;
  redirects: string[];
}

export class SafeFetcher implements Fetcher {
  private readonly hostMap: ReadonlyMap<string, MappedAddress>;
  private readonly userAgent: string;
  private readonly lookup: LookupFunction;
  private readonly defaultTimeoutMs: number;
  private readonly defaultMaxBytes: number;
  private readonly logger: Logger;
  private readonly robots: RobotsCache;
  /** Failures already logged: a robots.txt failure is thrown again by every fetch it stops, and logged once. */
  private readonly logged = new WeakSet<FetchError>();

  constructor(options: SafeFetcherOptions = {}) {
    this.hostMap = parseHostMap(options.hostMap ?? {});
    this.userAgent = options.userAgent ?? USER_AGENT;
    // The system resolver's lookups are shared and its failures remembered briefly (shared-lookup.ts).
    this.lookup = options.lookup ?? sharedLookup(systemLookup);
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.defaultMaxBytes = options.defaultMaxBytes ?? DEFAULT_MAX_BYTES;
    this.logger = options.logger ?? silentLogger();
    this.robots = new RobotsCache({ load: (url) => this.loadRobots(url), productToken: productToken(this.userAgent) });
  }

  async fetch(url: string, options: FetchOptions = {}): Promise<FetchResult> {
    const run: RunOptions = {
      accept: options.accept ?? DEFAULT_ACCEPT,
      maxBytes: options.maxBytes ?? this.defaultMaxBytes,
      maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
      respectRobots: options.respectRobots ?? true,
      truncate: false,
    };
    return this.fetchWithDeadline(url, run, options.timeoutMs ?? this.defaultTimeoutMs, options.signal);
  }

  private async fetchWithDeadline(
    url: string,
    run: RunOptions,
    timeoutMs: number,
    external?: AbortSignal,
  ): Promise<FetchResult> {
    const deadline = new AbortController();
    const expired = new FetchError('timeout', `no complete answer in ${timeoutMs} ms`, url);
    const timer = setTimeout(() => deadline.abort(expired), timeoutMs);
    const signal = external ? AbortSignal.any([external, deadline.signal]) : deadline.signal;
    try {
      return await this.follow(url, run, signal);
    } catch (error) {
      const failure = toFetchError(error, signal, url);
      if (!this.logged.has(failure)) {
        this.logged.add(failure);
        this.logger.info({ host: hostOf(url), code: failure.code }, 'fetch failed');
        this.logger.debug({ url, code: failure.code, reason: failure.message }, 'fetch failed');
      }
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Follows redirects by hand so every hop is validated, resolved, policy-checked and robots-checked afresh. */
  private async follow(raw: string, run: RunOptions, signal: AbortSignal): Promise<FetchResult> {
    const final = await this.finalHop(raw, run, signal);
    const { response, url, redirects } = final;
    try {
      const declared = Number(response.headers['content-length']);
      if (!run.truncate && declared > run.maxBytes) {
        throw new FetchError('too_large', `content-length ${declared} exceeds ${run.maxBytes} bytes`, url.href);
      }
      const body = await withAbort(
        readBody(response.body, { contentEncoding: response.headers['content-encoding'], ...run }),
        signal,
      );
      return { url: url.href, status: response.status, headers: decodedHeaders(response.headers), body, redirects };
    } finally {
      response.close();
    }
  }

  private async finalHop(raw: string, run: RunOptions, signal: AbortSignal): Promise<FinalHop> {
    const redirects: string[] = [];
    let next = raw;
    for (;;) {
      const { url, response } = await this.hop(next, run, signal);
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || !location) return { url, response, redirects };
      response.close();
      if (redirects.length >= run.maxRedirects) {
        throw new FetchError('too_many_redirects', `more than ${run.maxRedirects} redirects`, url.href);
      }
      redirects.push(url.href);
      next = resolveLocation(location, url);
    }
  }

  /** One request: URL checks, one DNS resolution, address policy, robots, then a pinned connection. */
  private async hop(raw: string, run: RunOptions, signal: AbortSignal): Promise<{ url: URL; response: OpenResponse }> {
    const checked = checkUrl(raw, this.hostMap);
    const target = await withAbort(resolveTarget(checked, this.lookup), signal);
    if (run.respectRobots && !(await this.robots.isAllowed(checked.url, signal))) {
      throw new FetchError('robots_disallowed', 'disallowed by robots.txt', checked.url.href);
    }
    this.logger.debug({ url: checked.url.href, mapped: Boolean(checked.mapped) }, 'fetch hop');
    const response = await openHop(target, this.requestHeaders(run.accept), signal);
    return { url: checked.url, response };
  }

  private loadRobots(robotsUrl: string): Promise<{ status: number; body: Buffer }> {
    const run: RunOptions = {
      accept: 'text/plain,*/*;q=0.5',
      maxBytes: ROBOTS_MAX_BYTES,
      maxRedirects: DEFAULT_MAX_REDIRECTS,
      respectRobots: false,
      truncate: true,
    };
    return this.fetchWithDeadline(robotsUrl, run, ROBOTS_TIMEOUT_MS);
  }

  private requestHeaders(accept: string): Record<string, string> {
    return {
      'user-agent': this.userAgent,
      accept,
      'accept-language': 'en',
      'accept-encoding': 'gzip, deflate, br',
    };
  }
}

/** Node's resolver (getaddrinfo: /etc/hosts, then DNS), every address of every family. */
async function systemLookup(hostname: string): Promise<{ address: string; family: 4 | 6 }[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
}

/** `BrandbaseBot/0.1 (+...)` to `BrandbaseBot`. */
export function productToken(userAgent: string): string {
  return userAgent.split(/[/\s]/, 1)[0] || userAgent;
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new FetchError('invalid_url', 'redirect Location is not a valid URL', base.href);
  }
}

/** The body is handed back decoded, so the wire encoding and length no longer describe it. */
function decodedHeaders(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers };
  delete copy['content-encoding'];
  delete copy['content-length'];
  return copy;
}

/** Rejects as soon as the signal fires, for steps (DNS, body decoding) that cannot be cancelled directly. */
function withAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function toFetchError(error: unknown, signal: AbortSignal, url: string): FetchError {
  if (error instanceof FetchError) return error.url ? error : new FetchError(error.code, error.message, url);
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return reason instanceof FetchError ? reason : new FetchError('timeout', 'aborted by the caller', url);
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && TIMEOUT_CODES.has(code)) return new FetchError('timeout', `${code}`, url);
  const message = error instanceof Error ? error.message : String(error);
  return new FetchError('network', message, url);
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
