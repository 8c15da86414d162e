import { parseIdentifier, type ParseResult } from './identifiers.js';

/**
 * Memoizes `parseIdentifier` for the inputs that repeat on the hot path: plain domains and brand IDs. Website
 * URLs and email addresses are never kept, not even in memory. Bounded: cleared when full.
 */
export class IdentifierCache {
  private readonly entries = new Map<string, ParseResult>();

  constructor(private readonly maxEntries = 10_000) {}

  parse(input: string): ParseResult {
    const hit = this.entries.get(input);
    if (hit) return hit;
    const result = parseIdentifier(input);
    const cacheable = result.ok && (result.readings.primary.kind === 'brandId' || (result.readings.primary.kind === 'domain' && result.readings.primary.source === 'domain'));
    if (cacheable) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(input, result);
    }
    return result;
  }
}
