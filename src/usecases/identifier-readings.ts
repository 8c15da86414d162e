/**
 * An identifier as every transport reads it (spec 1, rule 6): the readings of a typed or auto-detected identifier,
 * or the 400 the spec prescribes. The routes (http/identifier-params.ts) and the MCP tools call these, so an
 * identifier means the same thing and fails with the same message whichever way it came in.
 */
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

/** The readings of a typed identifier (`/v2/brands/{type}/{identifier}`), or its 400. */
export function typedReadings(type: ExplicitType, raw: string, exchange?: string): Readings {
  return withExchange(readingsOf(parseTypedIdentifier(type, raw)), exchange);
}

/** The readings of an auto-detected identifier, or its 400. `cache` memoizes parses on the hot route. */
export function detectedReadings(raw: string, cache?: IdentifierCache, exchange?: string): Readings {
  return withExchange(readingsOf(cache ? cache.parse(raw) : parseIdentifier(raw)), exchange);
}

/** A domain reading only: the brand context takes a domain, website URL or email address (spec 1 rule 4). */
export function domainReadings(raw: string, cache?: IdentifierCache): Readings {
  const readings = detectedReadings(raw, cache);
  if (readings.primary.kind !== 'domain') throw new ApiError('invalid_identifier', 'The context takes a domain, website URL or email address.');
  return { primary: readings.primary, fallbacks: [] };
}
