import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { isPublicAddress, type ResolvedAddress } from './address-policy.js';
import type { Target } from './fetch-target.js';

/** One HTTP exchange (no redirect following) whose socket goes to exactly the target's checked address. */
export interface OpenResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Readable;
  /** Releases the connection; safe to call more than once. */
  close(): void;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * DNS pinning: undici keeps the real URL (so Host and TLS SNI carry the hostname and certificates
 * validate), but the socket's name lookup answers only the address we already vetted. Re-checking the
 * policy here means a bug upstream still cannot dial a private address.
 */
export function pinnedLookup(pinned: readonly ResolvedAddress[]) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const first = pinned[0];
    if (!first || !pinned.every((answer) => isPublicAddress(answer.address))) {
      callback(Object.assign(new Error('pinned address is not public'), { code: 'EBLOCKED' }), '', 0);
      return;
    }
    // All vetted answers, so Node's happy-eyeballs can fall back from a dead IPv6 route to IPv4.
    if (options.all) callback(null, pinned.map(({ address, family }) => ({ address, family })));
    else callback(null, first.address, first.family);
  };
}

export async function openHop(
  target: Target,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<OpenResponse> {
  // One agent per hop: connections are never reused across a fresh DNS answer or a different pin.
  const agent = new Agent({ connections: 1, connect: target.pinned ? { lookup: pinnedLookup(target.pinned) } : {} });
  const close = (): void => {
    agent.destroy().catch(() => undefined);
  };
  const allHeaders = target.hostHeader ? { ...headers, host: target.hostHeader } : headers;
  try {
    const response = await request(target.dialUrl, { method: 'GET', headers: allHeaders, dispatcher: agent, signal });
    return { status: response.statusCode, headers: flattenHeaders(response.headers), body: response.body, close };
  } catch (error) {
    close();
    throw error;
  }
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
