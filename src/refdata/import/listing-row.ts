/** Builds a Listing / Etf from cleaned fields: the normalized ticker, share class and primary flag in one place. */
import { exchangeCountry, isSecondaryVenue } from '../exchanges.js';
import type { Etf, Listing } from '../reference-data.js';
import { listingTickerNorm, shareClass } from '../tickers.js';

export interface ListingFields {
  ticker: string;
  mic: string;
  name: string;
  isin: string | null;
  country: string | null;
  domain: string | null;
  /** When the source says so; otherwise primary = the company's country is the exchange's. */
  primary?: boolean;
  rank: number;
  source: string;
  sourceDate: string;
}

export function makeListing(f: ListingFields): Listing {
  const tickerNorm = listingTickerNorm(f.ticker, f.mic);
  const primary = f.primary ?? (f.country !== null && f.country === exchangeCountry(f.mic) && !isSecondaryVenue(f.mic));
  return {
    ticker: f.ticker.trim().toUpperCase(),
    tickerNorm,
    mic: f.mic,
    shareClass: shareClass(tickerNorm),
    name: f.name.trim(),
    isin: f.isin,
    country: f.country,
    domain: f.domain,
    primary,
    rank: f.rank,
    source: f.source,
    sourceDate: f.sourceDate,
  };
}

export function makeEtf(f: Omit<Etf, 'tickerNorm'>): Etf {
  return { ...f, ticker: f.ticker.trim().toUpperCase(), tickerNorm: listingTickerNorm(f.ticker, f.mic), name: f.name.trim() };
}

/** Remembers (table, ticker, MIC) keys seen in one file: a repeat is a duplicate row, reported and skipped. */
export class SeenKeys {
  private readonly seen = new Set<string>();

  /** True the first time a key is seen. */
  first(...parts: string[]): boolean {
    const key = parts.join('\u0000');
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}
