import { parseIdentifier, type ParseResult } from './identifiers.js';

/** Default budget: about 8,000 domains and brand IDs with their parsed readings. */
export const DEFAULT_IDENTIFIER_CACHE_BYTES = 2 * 1024 * 1024;

/** Estimated heap of one entry: the input twice (key and reading, 2 bytes a character) and the result objects. */
function entryBytes(input: string): number {
  return input.length * 4 + 200;
}

/**
 * Memoizes `parseIdentifier` for the inputs that repeat on the hot path: plain domains and brand IDs. Website
 * URLs and email addresses are never kept, not even in memory. Bounded by estimated bytes, least recently used
 * out (ADR 0042). A least-recently-used map of its own rather than platform/byte-lru.ts: `domain/` imports nothing
 * else from src/ (dependency rule 1); the policy is the same.
 */
export class IdentifierCache {
  private readonly entries = new Map<string, ParseResult>();
  private bytes = 0;

  constructor(private readonly maxBytes = DEFAULT_IDENTIFIER_CACHE_BYTES) {}

  parse(input: string): ParseResult {
    const hit = this.entries.get(input);
    if (hit) {
      this.entries.delete(input);
      this.entries.set(input, hit);
      return hit;
    }
    const result = parseIdentifier(input);
    const cacheable = result.ok && (result.readings.primary.kind === 'brandId' || (result.readings.primary.kind === 'domain' && result.readings.primary.source === 'domain'));
    if (cacheable && entryBytes(input) <= this.maxBytes) this.keep(input, result);
    return result;
  }

  private keep(input: string, result: ParseResult): void {
    this.entries.set(input, result);
    this.bytes += entryBytes(input);
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entryBytes(oldest);
    }
  }
}
