import { ApiError } from '../domain/errors.js';
import type { IdentifierCache } from '../domain/identifier-cache.js';
import { parseIdentifier, parseTypedIdentifier, withExchange, type ExplicitType, type ParseResult, type Readings } from '../domain/identifiers.js';

export const EXPLICIT_TYPES: readonly ExplicitType[] = ['domain', 'ticker', 'isin', 'crypto'];

/** The ISIN route answers exactly `Bad Request` (spec 7.1); the others say which rule failed. */
export function invalidIdentifier(parsed: Extract<ParseResult, { ok: false }>): ApiError {
  return new ApiError(parsed.message === 'Bad Request' ? 'bad_request' : 'invalid_identifier', parsed.message);
}

function readingsOf(parsed: ParseResult): Readings {
  if (!parsed.ok) throw invalidIdentifier(parsed);
  return parsed.readings;
}

/** `?exchange=XLON` (a MIC, vendor suffix or exchange name): the exchange of a ticker; other kinds ignore it. */
export function exchangeOf(query: unknown): string | undefined {
  const value = (query as { exchange?: unknown } | undefined)?.exchange;
  return typeof value === 'string' ? value : undefined;
}

/** The readings of a typed route's identifier (`/v2/brands/{type}/{identifier}`), or its 400. */
export function typedReadings(type: ExplicitType, raw: string, exchange?: string): Readings {
  return withExchange(readingsOf(parseTypedIdentifier(type, raw)), exchange);
}

/** The readings of an auto-detected identifier, or its 400. `cache` memoizes parses on the hot route. */
export function detectedReadings(raw: string, cache?: IdentifierCache, exchange?: string): Readings {
  return withExchange(readingsOf(cache ? cache.parse(raw) : parseIdentifier(raw)), exchange);
}
