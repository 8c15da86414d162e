import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { FetchError } from './fetcher.js';

/**
 * Which IP addresses the crawler may connect to. Only globally routable unicast addresses pass: anything
 * ipaddr.js classifies as private, loopback, link-local (cloud metadata 169.254.169.254), CGNAT,
 * multicast, reserved/documentation, benchmarking, NAT64, 6to4, Teredo, ... is refused.
 */

/** Global unicast IPv6 lives in 2000::/3; anything outside it (IPv4-compatible ::a.b.c.d included) is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** Returns true only for a syntactically valid, publicly routable unicast address. */
export function isPublicAddress(address: string): boolean {
  const literal = stripBrackets(address);
  const version = isIP(literal);
  if (version === 4) return ipaddr.IPv4.parse(literal).range() === 'unicast';
  if (version !== 6) return false;
  const canonical = canonicalV6(literal);
  if (!canonical) return false;
  const v6 = ipaddr.IPv6.parse(canonical);
  // `::ffff:a.b.c.d` is dialled as the embedded IPv4 address, so that address is what must be public.
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/**
 * The WHATWG serialisation of an IPv6 literal. ipaddr.js reads a dotted tail such as `::8.8.8.8` as
 * IPv4-mapped, while the socket would dial the IPv4-compatible `::808:808`; judge what is dialled.
 */
function canonicalV6(literal: string): string | undefined {
  try {
    return stripBrackets(new URL(`http://[${literal}]/`).hostname);
  } catch {
    return undefined; // zone ids (fe80::1%eth0) and other forms a URL cannot carry
  }
}

/** `[::1]` (URL hostname form) to `::1`; other strings unchanged. */
export function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** True when the (possibly bracketed) host is an IPv4 or IPv6 literal. */
export function isIpLiteral(host: string): boolean {
  return isIP(stripBrackets(host)) !== 0;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type LookupFunction = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * Resolves `hostname` once and checks every answer. One bad answer rejects the whole name: a DNS server
 * that mixes a public and a private address must not get a second chance on a later connection.
 */
export async function resolvePublicAddresses(hostname: string, lookup: LookupFunction): Promise<ResolvedAddress[]> {
  let answers: ResolvedAddress[];
  try {
    answers = await lookup(hostname);
  } catch (error) {
    throw new FetchError('dns_failure', `DNS lookup failed for ${hostname}: ${errorCode(error)}`);
  }
  if (answers.length === 0) throw new FetchError('dns_failure', `no DNS answer for ${hostname}`);
  const blocked = answers.find((answer) => !isPublicAddress(answer.address));
  if (blocked) throw new FetchError('blocked_address', `${hostname} resolves to a non-public address`);
  return answers;
}

function errorCode(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}
