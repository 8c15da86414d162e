/**
 * Identifier parsing and detection (spec section 1). Pure: no I/O. The detection order is documented in
 * docs/identifiers.md; keep the two in step.
 *
 * Privacy: website URLs and email addresses are reduced to their registrable domain here and the raw input is
 * dropped; nothing downstream ever sees the URL path or the mailbox name.
 */
import { domainToASCII } from 'node:url';
import { parse as parseDomain } from 'tldts';
import { isBrandId } from './ids.js';
import { providerBrandDomain } from './mailbox-providers.js';

export const MAX_IDENTIFIER_LENGTH = 2048;

export type IdentifierSource = 'domain' | 'url' | 'email';

export type Identifier =
  | { kind: 'domain'; domain: string; source: IdentifierSource }
  | { kind: 'brandId'; id: string }
  /** `exchange`: as the user named it (`XLON` of `XLON:SHEL` or `?exchange=`); resolved to a MIC by brands/. */
  | { kind: 'ticker'; symbol: string; exchange?: string }
  | { kind: 'isin'; isin: string }
  | { kind: 'crypto'; symbol: string };

export type ExplicitType = 'domain' | 'ticker' | 'isin' | 'crypto';

/** A parsed identifier: the first reading, then the readings to try when the first finds nothing (rule 6). */
export interface Readings {
  primary: Identifier;
  fallbacks: Identifier[];
}

export type ParseResult = { ok: true; readings: Readings } | { ok: false; message: string };

const fail = (message: string): ParseResult => ({ ok: false, message });
const single = (primary: Identifier, fallbacks: Identifier[] = []): ParseResult => ({ ok: true, readings: { primary, fallbacks } });

const TICKER = /^[A-Z0-9]{1,6}(?:[-/][A-Z0-9]{1,3})?$/;
const SUFFIXED_TICKER = /^[A-Z0-9]{1,6}(?:[-/][A-Z0-9]{1,3})?\.[A-Z]{1,4}$/;
/** The explicit ticker route takes longer exchange symbols (`GFNORTEO.MX`, `ABBNE`) than auto-detection does. */
const TYPED_TICKER = /^[A-Z0-9]{1,10}(?:[-/.][A-Z0-9]{1,3})?(?:\.[A-Z]{1,4})?$/;
/** `XLON:SHEL`: an exchange (MIC, vendor suffix or exchange name, 1-6 letters/digits) before the symbol. */
const EXCHANGE_PREFIX = /^([A-Z][A-Z0-9]{0,5}):([A-Z0-9][A-Z0-9./-]{0,15})$/;
const CRYPTO = /^[A-Z0-9]{2,10}$/;
const ISIN_SHAPE = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Trims, and decodes percent-encoding once more if the router left some in (double-encoded input). */
export function normalizeRaw(input: string): string {
  const trimmed = input.trim();
  if (!/%[0-9a-f]{2}/i.test(trimmed)) return trimmed;
  try {
    return decodeURIComponent(trimmed).trim();
  } catch {
    return trimmed;
  }
}

/** Spec 1 rule 1: `http(s)://` prefix, or a domain followed by a path, query or port. */
function looksLikeUrl(value: string): boolean {
  if (/^https?:\/\//i.test(value)) return true;
  return /^[^\s/?#@:]+\.[^\s/?#@:]+(?::\d+)?[/?#]/.test(value) || /^[^\s/?#@:]+\.[^\s/?#@:]+:\d+$/.test(value);
}

/**
 * Returns the registrable domain of a hostname, or null when the host is not a domain name (an IP address,
 * a single label, an invalid label, or a bare public suffix).
 */
export function registrableDomain(hostname: string): string | null {
  const ascii = domainToASCII(hostname.trim().toLowerCase().replace(/\.+$/, ''));
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  const tld = labels[labels.length - 1] ?? '';
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return null;
  const parsed = parseDomain(ascii, { allowPrivateDomains: false });
  if (parsed.isIp || !parsed.domain) return null;
  return parsed.domain;
}

function parseUrl(value: string): ParseResult {
  const withScheme = /^https?:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return fail('Invalid website URL.');
  }
  if (url.hostname.startsWith('[') || /^[0-9.]+$/.test(url.hostname)) {
    return fail('Invalid website URL: the host is an IP address, not a domain name.');
  }
  const domain = registrableDomain(url.hostname);
  if (!domain) return fail('Invalid website URL: the host is not a domain name.');
  return single({ kind: 'domain', domain, source: 'url' });
}

function parseEmail(value: string): ParseResult {
  const normalized = value.replace(/%40/gi, '@');
  const at = normalized.lastIndexOf('@');
  const local = normalized.slice(0, at);
  const host = normalized.slice(at + 1);
  if (!local || local.length > 64 || /[\s@<>()[\]\\,;:"]/.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return fail('Invalid email address.');
  }
  const domain = registrableDomain(host);
  if (!domain) return fail('Invalid email address: the domain is not valid.');
  return single({ kind: 'domain', domain: providerBrandDomain(domain), source: 'email' });
}

/** ISO 6166 check digit of an ISIN's first 11 characters: letters to numbers (A=10), then Luhn over the digits. */
export function isinCheckDigit(body: string): number {
  const digits = body
    .split('')
    .map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c))
    .join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** An ISIN of the right shape whose last character is its check digit. */
export function isValidIsin(value: string): boolean {
  return ISIN_SHAPE.test(value) && isinCheckDigit(value.slice(0, 11)) === Number(value[11]);
}

function parseDotted(value: string): ParseResult {
  const upper = value.toUpperCase();
  const domain = registrableDomain(value);
  const tickerReading: Identifier | null = SUFFIXED_TICKER.test(upper) ? { kind: 'ticker', symbol: upper } : null;
  if (domain) {
    return single({ kind: 'domain', domain, source: 'domain' }, tickerReading ? [tickerReading] : []);
  }
  if (tickerReading) return single(tickerReading);
  return fail('Invalid identifier: not a domain, website URL, email address, brand ID, ticker, ISIN or crypto symbol.');
}

function parseSymbol(value: string): ParseResult {
  const upper = value.toUpperCase();
  if (ISIN_SHAPE.test(upper)) {
    return isValidIsin(upper) ? single({ kind: 'isin', isin: upper }) : fail('Invalid ISIN: the check digit does not match.');
  }
  const ticker: Identifier | null = TICKER.test(upper) ? { kind: 'ticker', symbol: upper } : null;
  const crypto: Identifier | null = CRYPTO.test(upper) ? { kind: 'crypto', symbol: upper } : null;
  if (ticker) return single(ticker, crypto ? [crypto] : []);
  if (crypto) return single(crypto);
  return fail('Invalid identifier: not a domain, website URL, email address, brand ID, ticker, ISIN or crypto symbol.');
}

/** `XLON:SHEL` → the ticker `SHEL` on the exchange `XLON`; null when the value is not of that form. */
function exchangePrefixed(value: string): Extract<Identifier, { kind: 'ticker' }> | null {
  const match = EXCHANGE_PREFIX.exec(value.toUpperCase());
  const [, exchange, symbol] = match ?? [];
  if (!exchange || !symbol || !TYPED_TICKER.test(symbol)) return null;
  return { kind: 'ticker', symbol, exchange };
}

/** Applies an explicit exchange (`?exchange=XLON`) to the ticker readings; other readings are left as they are. */
export function withExchange(readings: Readings, exchange: string | undefined): Readings {
  const code = exchange?.trim().toUpperCase();
  if (!code || !/^[A-Z0-9]{1,6}$/.test(code)) return readings;
  const apply = (r: Identifier): Identifier => (r.kind === 'ticker' && !r.exchange ? { ...r, exchange: code } : r);
  return { primary: apply(readings.primary), fallbacks: readings.fallbacks.map(apply) };
}

function checkLength(value: string): string | null {
  if (value.length === 0) return 'Invalid identifier: it is empty.';
  if (value.length > MAX_IDENTIFIER_LENGTH) return `Invalid identifier: longer than ${MAX_IDENTIFIER_LENGTH} characters.`;
  if (/\s/.test(value)) return 'Invalid identifier: it contains whitespace.';
  return null;
}

/** The auto-detecting route `/v2/brands/{identifier}` (rules 1, 2, 3, 6 and brand IDs). */
export function parseIdentifier(input: string): ParseResult {
  const value = normalizeRaw(input);
  const lengthError = checkLength(value);
  if (lengthError) return fail(lengthError);
  if (/^https?:\/\//i.test(value)) return parseUrl(value);
  if (value.includes('@') || /%40/i.test(value)) return parseEmail(value);
  if (looksLikeUrl(value)) return parseUrl(value);
  if (isBrandId(value)) return single({ kind: 'brandId', id: value });
  // Auto-detection takes the prefix form only as typed in capitals (`XLON:SHEL`, `NASDAQ:AAPL`): `mailto:x` stays 400.
  const prefixed = /^[A-Z][A-Z0-9]{0,5}:/.test(value) ? exchangePrefixed(value) : null;
  if (prefixed) return single(prefixed);
  if (value.includes('.')) return parseDotted(value);
  return parseSymbol(value);
}

/** The explicit type routes `/v2/brands/{type}/{identifier}` (rules 4 and 5): URLs and emails are refused. */
export function parseTypedIdentifier(type: ExplicitType, input: string): ParseResult {
  const value = normalizeRaw(input);
  const lengthError = checkLength(value);
  if (lengthError) return fail(lengthError);
  if (type === 'domain') {
    if (value.includes('@') || /%40/i.test(value)) return fail('Email addresses are not accepted on the domain route; use /v2/brands/{identifier}.');
    if (looksLikeUrl(value)) return fail('Website URLs are not accepted on the domain route; use /v2/brands/{identifier}.');
    const domain = registrableDomain(value);
    return domain ? single({ kind: 'domain', domain, source: 'domain' }) : fail('Invalid domain.');
  }
  const upper = value.toUpperCase();
  if (type === 'isin') return isValidIsin(upper) ? single({ kind: 'isin', isin: upper }) : fail('Bad Request');
  if (type === 'ticker') {
    const prefixed = exchangePrefixed(value);
    if (prefixed) return single(prefixed);
    return TYPED_TICKER.test(upper) ? single({ kind: 'ticker', symbol: upper }) : fail('Invalid ticker.');
  }
  return CRYPTO.test(upper) ? single({ kind: 'crypto', symbol: upper }) : fail('Invalid crypto symbol.');
}
