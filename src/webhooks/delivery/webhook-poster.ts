/**
 * Sends one webhook request under the crawler's network rules (src/platform: fetch-target.ts, address-policy.ts,
 * http-hop.ts): the URL is checked, its host resolved once and every answer vetted (no private, loopback,
 * link-local, CGNAT or metadata address; only the test host map may reach loopback), and the socket connects to
 * exactly the vetted address. Redirects are never followed (a 3xx is a failed attempt), time is bounded (connect
 * and total) and at most 1 KB of the response is read. The socket leaves from one of the configured source
 * addresses (BRANDBASE_WEBHOOK_SOURCE_ADDRESSES), taken in turn, so receivers can allow-list them.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import type { LookupFunction, ResolvedAddress } from '../../platform/address-policy.js';
import { checkUrl, parseHostMap, resolveTarget, type MappedAddress, type Target } from '../../platform/fetch-target.js';
import { FetchError, type HostMap } from '../../platform/fetcher.js';
import { pinnedLookup } from '../../platform/http-hop.js';
import { sharedLookup } from '../../platform/shared-lookup.js';

/** What the attempt record keeps of the response body. */
export const RESPONSE_EXCERPT_BYTES = 1024;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 15_000;
export const DEFAULT_WEBHOOK_CONNECT_TIMEOUT_MS = 5_000;
export const WEBHOOK_USER_AGENT = 'Brandbase-Webhooks/1.0 (+https://github.com/brandbase/brandbase)';

export interface WebhookPostResult {
  /** Null when no response arrived. */
  statusCode: number | null;
  latencyMs: number;
  responseExcerpt: string | null;
  /** `<code>: <reason>` when no response arrived (blocked_address, invalid_url, dns_failure, timeout, network). */
  error: string | null;
  /** The local address the socket was bound to; null for the system default or when nothing was dialled. */
  sourceAddress: string | null;
}

export interface WebhookPosterOptions {
  /** The crawler's host map (BRANDBASE_CRAWL_HOSTS): mapped hosts are dialled at their mapped address. */
  hostMap?: HostMap;
  /** IP literals the sockets are bound to, in turn; empty: the system chooses. */
  sourceAddresses?: readonly string[];
  timeoutMs?: number;
  connectTimeoutMs?: number;
  lookup?: LookupFunction;
}

async function systemLookup(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** The address family the socket will dial for a target, and the pinned answers of that family. */
function dialFamilies(target: Target): Set<4 | 6> {
  if (target.checked.mapped) return new Set([isIP(target.checked.mapped.host) === 6 ? 6 : 4]);
  if (target.pinned) return new Set(target.pinned.map((p) => p.family));
  return new Set([isIP(target.checked.hostname) === 6 ? 6 : 4]);
}

export class WebhookPoster {
  readonly #hostMap: ReadonlyMap<string, MappedAddress>;
  readonly #sources: readonly string[];
  readonly #timeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #lookup: LookupFunction;
  #turn = 0;

  constructor(options: WebhookPosterOptions = {}) {
    this.#hostMap = parseHostMap(options.hostMap ?? {});
    for (const address of options.sourceAddresses ?? []) {
      if (isIP(address) === 0) throw new RangeError(`webhook source address must be an IP address, got ${address}`);
    }
    this.#sources = [...(options.sourceAddresses ?? [])];
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_WEBHOOK_CONNECT_TIMEOUT_MS;
    this.#lookup = options.lookup ?? sharedLookup(systemLookup);
  }

  /** POSTs `body` (JSON) with `headers`; never throws for network or policy failures (they are the result's `error`). */
  async post(url: string, headers: Record<string, string>, body: string): Promise<WebhookPostResult> {
    const started = performance.now();
    const deadline = AbortSignal.timeout(this.#timeoutMs);
    let source: string | null = null;
    try {
      const target = await withDeadline(resolveTarget(checkUrl(url, this.#hostMap), this.#lookup), deadline, this.#timeoutMs);
      const { address, pinned } = this.#pickSource(target);
      source = address;
      const response = await this.#send(target, pinned, address, headers, body, deadline);
      return { ...response, latencyMs: performance.now() - started, error: null, sourceAddress: source };
    } catch (error) {
      return { statusCode: null, latencyMs: performance.now() - started, responseExcerpt: null, error: describe(error, deadline, this.#timeoutMs), sourceAddress: source };
    }
  }

  /** The next source address (round robin) of a family the target can be dialled on, and the pins of that family. */
  #pickSource(target: Target): { address: string | null; pinned: ResolvedAddress[] | undefined } {
    if (this.#sources.length === 0) return { address: null, pinned: target.pinned };
    const families = dialFamilies(target);
    for (let i = 0; i < this.#sources.length; i++) {
      const address = this.#sources[(this.#turn + i) % this.#sources.length] ?? '';
      const family = isIP(address) === 6 ? 6 : 4;
      if (!families.has(family)) continue;
      this.#turn = (this.#turn + i + 1) % this.#sources.length;
      return { address, pinned: target.pinned?.filter((p) => p.family === family) };
    }
    throw new FetchError('network', 'no configured source address has the address family of the endpoint');
  }

  async #send(target: Target, pinned: ResolvedAddress[] | undefined, localAddress: string | null, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<{ statusCode: number; responseExcerpt: string }> {
    const agent = new Agent({
      connections: 1,
      ...(localAddress === null ? {} : { localAddress }),
      connect: { timeout: this.#connectTimeoutMs, ...(pinned ? { lookup: pinnedLookup(pinned) } : {}) },
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    });
    try {
      const all: Record<string, string> = {
        ...headers,
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        // The excerpt is read raw: ask for no compression.
        'accept-encoding': 'identity',
        ...(target.hostHeader ? { host: target.hostHeader } : {}),
      };
      // undici's request() never follows redirects (that takes an interceptor): a 3xx comes back as it is.
      const response = await request(target.dialUrl, { method: 'POST', headers: all, body, dispatcher: agent, signal });
      const excerpt = await readExcerpt(response.body);
      return { statusCode: response.statusCode, responseExcerpt: excerpt };
    } finally {
      agent.destroy().catch(() => undefined);
    }
  }
}

/** The first RESPONSE_EXCERPT_BYTES of the body as text; the rest is never read (the socket is destroyed). */
async function readExcerpt(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) break;
    }
  } finally {
    body.destroy();
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES));
}

function withDeadline<T>(promise: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new FetchError('timeout', `no complete answer in ${timeoutMs} ms`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describe(error: unknown, deadline: AbortSignal, timeoutMs: number): string {
  if (error instanceof FetchError) return `${error.code}: ${error.message}`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (deadline.aborted || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return `timeout: no complete answer in ${timeoutMs} ms${code ? ` (${code})` : ''}`;
  }
  return `network: ${code ?? (error instanceof Error ? error.message : String(error))}`;
}
