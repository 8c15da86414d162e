/**
 * DNS lookups shared between the requests of a process: concurrent lookups of one name share one resolver call,
 * and a name that failed is answered with the same failure for a while. Why (issue 16, slow first lookups): a
 * real article page names one image or script host dozens of times; on a locked-down server that host does not
 * resolve, Node's getaddrinfo runs on libuv's four threads, and a resolver that times out (5 s) made the dozens
 * of lookups queue behind each other for most of the crawl. Successful answers are not kept beyond the lookup in
 * flight: every connection is still pinned to a fresh, policy-checked answer (ADR 0006).
 */
import type { LookupFunction, ResolvedAddress } from './address-policy.js';

/** How long a failed name is answered from memory: long enough for a crawl, short enough for a fixed DNS. */
export const NEGATIVE_TTL_MS = 30_000;
const MAX_REMEMBERED = 10_000;

export function sharedLookup(lookup: LookupFunction, now: () => number = Date.now): LookupFunction {
  const inFlight = new Map<string, Promise<ResolvedAddress[]>>();
  const failed = new Map<string, { error: unknown; until: number }>();
  return (hostname) => {
    const key = hostname.toLowerCase();
    const known = failed.get(key);
    if (known && known.until > now()) return Promise.reject(known.error);
    if (known) failed.delete(key);
    let pending = inFlight.get(key);
    if (!pending) {
      pending = lookup(hostname);
      inFlight.set(key, pending);
      pending.then(
        () => inFlight.delete(key),
        (error: unknown) => {
          inFlight.delete(key);
          if (failed.size >= MAX_REMEMBERED) failed.clear();
          failed.set(key, { error, until: now() + NEGATIVE_TTL_MS });
        },
      );
    }
    return pending;
  };
}
