import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import {
  isIpLiteral,
  isPublicAddress,
  resolvePublicAddresses,
  stripBrackets,
  type LookupFunction,
  type ResolvedAddress,
} from './address-policy.js';
import { FetchError, type HostMap } from './fetcher.js';

/**
 * URL validation and "where exactly do we dial" for one hop. Every hop (first request, each redirect,
 * each robots.txt) goes through `checkUrl` then `resolveTarget`.
 */

/** Ports a public site may use; anything else would let a page make us probe arbitrary services. */
export const ALLOWED_PORTS: ReadonlySet<number> = new Set([80, 443, 8080, 8443]);

export interface MappedAddress {
  host: string;
  port: number;
}

export interface CheckedUrl {
  /** Normalised URL with the ASCII hostname and no fragment; what callers see and what robots.txt matches. */
  url: URL;
  /** Lower-case ASCII hostname without brackets. */
  hostname: string;
  mapped?: MappedAddress;
}

export interface Target {
  checked: CheckedUrl;
  /** URL actually requested: the original one, or `http://ip:port/path` for a mapped host. */
  dialUrl: string;
  /** Host header override, only for mapped hosts (the dial URL carries the IP). */
  hostHeader?: string;
  /** The vetted DNS answers; the socket may connect to these and nothing else. */
  pinned?: ResolvedAddress[];
}

/** Parses `{"acme.test":"127.0.0.1:4101"}` values up front so a bad entry fails at start-up, not mid-crawl. */
export function parseHostMap(hostMap: HostMap): Map<string, MappedAddress> {
  const parsed = new Map<string, MappedAddress>();
  for (const [name, value] of Object.entries(hostMap)) {
    const match = /^(\[[0-9a-f:.]+\]|[0-9.]+):(\d{1,5})$/i.exec(value);
    const host = match?.[1] ? stripBrackets(match[1]) : '';
    const port = Number(match?.[2]);
    if (!match || isIP(host) === 0 || port < 1 || port > 65535) {
      throw new Error(`host map entry for ${name} must be ip:port, got ${value}`);
    }
    parsed.set(name.toLowerCase(), { host, port });
  }
  return parsed;
}

export function checkUrl(raw: string, hostMap: ReadonlyMap<string, MappedAddress>): CheckedUrl {
  const url = parseHttpUrl(raw);
  const hostname = asciiHostname(url);
  const mapped = hostMap.get(hostname);
  if (mapped) return { url, hostname, mapped };
  if (isIpLiteral(hostname)) {
    if (!isPublicAddress(hostname)) throw new FetchError('blocked_address', 'IP literal is not public', url.href);
  } else if (!hostname.replace(/\.$/, '').includes('.')) {
    throw new FetchError('invalid_url', 'single-label host names are not crawled', url.href);
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (!ALLOWED_PORTS.has(port)) throw new FetchError('invalid_url', `port ${port} is not allowed`, url.href);
  return { url, hostname };
}

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('invalid_url', 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('invalid_url', `scheme ${url.protocol} is not allowed`);
  }
  if (url.username || url.password) throw new FetchError('invalid_url', 'URLs with credentials are not allowed');
  url.hash = '';
  return url;
}

/** The WHATWG parser already lower-cases and punycodes; domainToASCII re-checks and rejects what it cannot map. */
function asciiHostname(url: URL): string {
  const bare = stripBrackets(url.hostname);
  if (isIP(bare) !== 0) return bare;
  const ascii = domainToASCII(url.hostname).toLowerCase();
  if (!ascii) throw new FetchError('invalid_url', 'host name is not a valid domain', url.href);
  url.hostname = ascii;
  return ascii;
}

/** Decides the exact socket address for a checked URL, resolving DNS once and vetting every answer. */
export async function resolveTarget(checked: CheckedUrl, lookup: LookupFunction): Promise<Target> {
  const { url, mapped, hostname } = checked;
  const path = `${url.pathname}${url.search}`;
  if (mapped) {
    const host = isIP(mapped.host) === 6 ? `[${mapped.host}]` : mapped.host;
    // Mapped hosts are test/demo servers: plain HTTP at the mapped address whatever the URL's scheme.
    return { checked, dialUrl: `http://${host}:${mapped.port}${path}`, hostHeader: url.host };
  }
  if (isIpLiteral(hostname)) return { checked, dialUrl: url.href };
  const pinned = await resolvePublicAddresses(hostname, lookup);
  return { checked, dialUrl: url.href, pinned };
}
