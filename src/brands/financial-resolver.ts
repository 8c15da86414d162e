/**
 * Resolves a ticker, an ISIN or a crypto symbol to the website of the brand that answers it (spec 1 rules 5-9),
 * from the reference data held in the store (refdata/reference-data.ts). Never a homonym: a plain ticker takes
 * the best listing only (primary first), and when that one has no known website the answer is "unmatched", not the
 * next company down the list. docs/identifiers.md describes every form; docs/reference-data.md the data.
 */
import type { Brand, FinancialIdentifiers } from '../domain/brand.js';
import type { Identifier } from '../domain/identifiers.js';
import { EXCHANGES, exchangeCountry, FREE_TICKER_EXCHANGE_MICS, operatingMic, SUFFIX_MICS, YAHOO_EXCHANGE_MICS } from '../refdata/exchanges.js';
import type { Etf, Listing, ReferenceData } from '../refdata/reference-data.js';
import { listingTickerNorm, normalizeTicker, stripVendorSuffix } from '../refdata/tickers.js';
import type { IdentifierRef } from './brand-store.js';

export interface Resolution {
  /** The reading that resolved. */
  reading: Identifier;
  /** Registrable domain of the brand that answers: the company's, the ETF issuer's or the crypto project's. */
  domain: string;
  source: 'listing' | 'etf' | 'crypto' | 'lei';
  /** Identifier rows to attach to that brand, so the next lookup by any of them is a store (and cache) hit. */
  refs: IdentifierRef[];
  /** The company's own ticker and ISIN for `company.financialIdentifiers`; null for an ETF or a crypto asset. */
  financial: FinancialIdentifiers | null;
}

const SUFFIXED = /^(.+)\.([A-Z]{1,4})$/;

/** An exchange as users name it: a MIC (`XLON`), a vendor suffix (`L`, `T`) or a common name (`LSE`, `NYSE`, `TSE`). */
export function exchangeMic(code: string): string | null {
  const upper = code.trim().toUpperCase();
  return operatingMic(upper) ?? FREE_TICKER_EXCHANGE_MICS[upper] ?? YAHOO_EXCHANGE_MICS[upper] ?? SUFFIX_MICS.get(upper)?.[0] ?? null;
}

/** The store key of a ticker on one exchange: `XTKS:7203`. A plain ticker's key is its normal form (`BRK.B`). */
export function tickerKey(mic: string | null, tickerNorm: string): string {
  return mic ? `${mic}:${tickerNorm}` : tickerNorm;
}

/** `7203.T`, `SHEL.L`, `AAPL`: the ticker as users type it, with the vendor suffix outside the US. */
export function displayTicker(ticker: string, mic: string): string {
  const suffix = EXCHANGES[mic]?.suffix;
  return suffix ? `${ticker}.${suffix}` : ticker;
}

/**
 * The identifier rows a reading may already be attached under, most specific first. Pure and cheap (a regex and
 * two table reads): a cached ticker lookup is this plus a Map lookup.
 */
export function identifierKeys(reading: Identifier): IdentifierRef[] {
  switch (reading.kind) {
    case 'domain':
      return [{ kind: 'domain', value: reading.domain }];
    case 'isin':
      return [{ kind: 'isin', value: reading.isin }];
    case 'crypto':
      return [{ kind: 'crypto', value: reading.symbol }];
    case 'brandId':
      return [];
    case 'ticker':
      return tickerKeys(reading).map((value) => ({ kind: 'ticker', value }));
  }
}

function tickerKeys(reading: Extract<Identifier, { kind: 'ticker' }>): string[] {
  if (reading.exchange) {
    const mic = exchangeMic(reading.exchange);
    return mic ? [tickerKey(mic, listingTickerNorm(stripVendorSuffix(reading.symbol, mic), mic))] : [];
  }
  const keys: string[] = [];
  const [, base, suffix] = SUFFIXED.exec(reading.symbol) ?? [];
  if (base && suffix) for (const mic of SUFFIX_MICS.get(suffix) ?? []) keys.push(tickerKey(mic, listingTickerNorm(base, mic)));
  keys.push(normalizeTicker(reading.symbol));
  return keys;
}

/** `700`, `0700`, `00700`: numeric tickers are written with different zero padding (Hong Kong, Korea, Japan). */
function numericVariants(tickerNorm: string): string[] {
  if (!/^\d+$/.test(tickerNorm)) return [tickerNorm];
  const bare = tickerNorm.replace(/^0+(?=\d)/, '');
  return [...new Set([tickerNorm, bare.padStart(4, '0'), bare.padStart(5, '0'), bare.padStart(6, '0'), bare])];
}

const US_EXCHANGES = new Set(['XNYS', 'XNAS', 'XASE', 'ARCX', 'BATS']);

function isUsExchange(mic: string): boolean {
  return US_EXCHANGES.has(mic);
}

/**
 * A listing's ISIN when it plausibly is the listing's own: issued in the company's country or the exchange's (an
 * ADR's US ISIN on a US venue). Sources copy an ISIN onto a homonym (LVMH's FR ISIN on a US `MC`); such an ISIN is
 * neither attached nor shown.
 */
function ownIsin(listing: Listing): string | null {
  const isin = listing.isin;
  if (!isin) return null;
  const country = isin.slice(0, 2);
  return country === listing.country || country === exchangeCountry(listing.mic) ? isin : null;
}

/**
 * The listing an ISIN names. Sources copy an ISIN onto homonyms (LVMH's on a US `MC`), so a listing on an exchange
 * of the ISIN's own country comes first; then one it is plausibly the own ISIN of (see ownIsin); then a listing of a
 * company domiciled away from its exchange (a Cayman holding on Hong Kong). A domestic company's listing carrying a
 * foreign ISIN is never the answer.
 */
function homeListing(isin: string, listings: Listing[]): Listing | null {
  const country = isin.slice(0, 2);
  return (
    listings.find((l) => exchangeCountry(l.mic) === country) ??
    listings.find((l) => ownIsin(l) === isin) ??
    listings.find((l) => l.country !== exchangeCountry(l.mic)) ??
    null
  );
}

export class FinancialResolver {
  constructor(private readonly refdata: ReferenceData) {}

  /** The brand website of a ticker, ISIN or crypto reading, or null when none can be matched to a website. */
  async resolve(reading: Identifier): Promise<Resolution | null> {
    switch (reading.kind) {
      case 'ticker':
        return this.ticker(reading);
      case 'isin':
        return this.isin(reading);
      case 'crypto':
        return this.crypto(reading);
      default:
        return null;
    }
  }

  /**
   * The identifiers a brand names in its own JSON-LD (`tickerSymbol`, `isin`), as rows to attach when it is saved,
   * kept only where the reference data agrees with the brand's domain or does not know the identifier: a
   * subsidiary naming its parent's ticker must not take the parent's lookups.
   */
  async declaredRefs(brand: Brand): Promise<IdentifierRef[]> {
    const ids = brand.company.financialIdentifiers;
    if (!ids) return [];
    const refs: IdentifierRef[] = [];
    for (const symbol of ids.ticker) {
      const reading: Identifier = { kind: 'ticker', symbol: symbol.toUpperCase() };
      if (!/^[A-Z0-9.\-/]{1,16}$/.test(reading.symbol)) continue;
      if (await this.agrees(reading, brand.domain)) refs.push({ kind: 'ticker', value: normalizeTicker(reading.symbol) });
    }
    for (const isin of ids.isin) {
      if (await this.agrees({ kind: 'isin', isin }, brand.domain)) refs.push({ kind: 'isin', value: isin });
    }
    return refs;
  }

  private async agrees(reading: Identifier, domain: string): Promise<boolean> {
    const resolved = await this.resolve(reading);
    return resolved === null || resolved.domain === domain;
  }

  private async ticker(reading: Extract<Identifier, { kind: 'ticker' }>): Promise<Resolution | null> {
    if (reading.exchange) {
      const mic = exchangeMic(reading.exchange);
      // `SAP.DE?exchange=XETR`: the symbol may still carry that exchange's own vendor suffix.
      return mic ? this.onExchange(reading, listingTickerNorm(stripVendorSuffix(reading.symbol, mic), mic), mic) : null;
    }
    const [, base, suffix] = SUFFIXED.exec(reading.symbol) ?? [];
    if (base && suffix) {
      for (const mic of SUFFIX_MICS.get(suffix) ?? []) {
        const found = await this.onExchange(reading, listingTickerNorm(base, mic), mic);
        if (found) return found;
      }
    }
    return this.plain(reading, normalizeTicker(reading.symbol));
  }

  /** A ticker on a named exchange; a regional venue falls back to the country's main listing (`SAP.F` → Xetra). */
  private async onExchange(reading: Identifier, tickerNorm: string, mic: string): Promise<Resolution | null> {
    const key = tickerKey(mic, tickerNorm);
    for (const variant of numericVariants(tickerNorm)) {
      const listing = await this.refdata.listingByTickerAndMic(variant, mic);
      if (listing) return this.fromListing(reading, listing, [key]);
      const etf = await this.refdata.etfByTickerAndMic(variant, mic);
      if (etf) return this.fromEtf(reading, etf, [key]);
    }
    const country = exchangeCountry(mic);
    const listing = (await this.refdata.listingsByTicker(tickerNorm)).find((l) => exchangeCountry(l.mic) === country);
    if (listing) return this.fromListing(reading, listing, [key]);
    const etf = (await this.refdata.etfsByTicker(tickerNorm)).find((e) => exchangeCountry(e.mic) === country);
    return etf ? this.fromEtf(reading, etf, [key]) : null;
  }

  /**
   * A ticker without exchange, read as market data vendors read it: a US listing or US ETF first (a plain ticker
   * is a US symbol, foreign ones carry a suffix); otherwise the company's primary listing; otherwise an ETF of that
   * ticker (rule 9) before a company's cross-listing abroad; otherwise the best listing. Only the chosen instrument
   * is tried: when it has no website, the answer is unmatched (a 404 is better than a homonym).
   */
  private async plain(reading: Identifier, tickerNorm: string): Promise<Resolution | null> {
    const listings = await this.refdata.listingsByTicker(tickerNorm);
    const etfs = await this.refdata.etfsByTicker(tickerNorm);
    const us = listings.find((l) => isUsExchange(l.mic));
    const usEtf = etfs.find((e) => isUsExchange(e.mic));
    // The SEC lists ETF trusts as companies, without a website: then the ETF row (with its issuer) is the same fund.
    if (us && (us.domain !== null || !usEtf)) return this.fromListing(reading, us, [tickerNorm]);
    if (usEtf) return this.fromEtf(reading, usEtf, [tickerNorm]);
    const [listing] = listings;
    if (listing?.primary) return this.fromListing(reading, listing, [tickerNorm]);
    const [etf] = etfs;
    if (etf) return this.fromEtf(reading, etf, [tickerNorm]);
    return listing ? this.fromListing(reading, listing, [tickerNorm]) : null;
  }

  private async isin(reading: Extract<Identifier, { kind: 'isin' }>): Promise<Resolution | null> {
    const listing = homeListing(reading.isin, await this.refdata.listingsByIsin(reading.isin));
    if (listing) return this.fromListing(reading, listing, []);
    const [etf] = await this.refdata.etfsByIsin(reading.isin);
    if (etf) return this.fromEtf(reading, etf, []);
    const domain = await this.leiDomain(reading.isin);
    if (!domain) return null;
    return { reading, domain, source: 'lei', refs: [{ kind: 'isin', value: reading.isin }], financial: { isin: [reading.isin], ticker: [] } };
  }

  private async crypto(reading: Extract<Identifier, { kind: 'crypto' }>): Promise<Resolution | null> {
    // The most prominent asset of the symbol only: a lesser coin sharing the symbol is another project.
    const [asset] = await this.refdata.cryptoBySymbol(reading.symbol);
    if (!asset?.domain) return null;
    return { reading, domain: asset.domain, source: 'crypto', refs: [{ kind: 'crypto', value: reading.symbol }], financial: null };
  }

  /** A listing's website; lacking one, that of another listing of the same ISIN, then the ISIN's LEI's. */
  private async fromListing(reading: Identifier, listing: Listing, keys: string[]): Promise<Resolution | null> {
    const domain = listing.domain ?? (listing.isin ? await this.isinDomain(listing.isin) : null);
    if (!domain) return null;
    const tickers = [...new Set([...keys, tickerKey(listing.mic, listing.tickerNorm)])];
    const refs: IdentifierRef[] = tickers.map((value) => ({ kind: 'ticker', value }));
    const isin = await this.isinOf(listing, domain);
    if (isin) refs.push({ kind: 'isin', value: isin });
    const financial = { ticker: [displayTicker(listing.ticker, listing.mic)], isin: isin ? [isin] : [] };
    return { reading, domain, source: 'listing', refs, financial };
  }

  /** Rule 9: an ETF answers its issuer's brand. Its ticker is attached to that brand, not listed as the issuer's own. */
  private fromEtf(reading: Identifier, etf: Etf, keys: string[]): Resolution | null {
    if (!etf.issuerDomain) return null;
    const tickers = [...new Set([...keys, tickerKey(etf.mic, etf.tickerNorm)])];
    const refs: IdentifierRef[] = tickers.map((value) => ({ kind: 'ticker', value }));
    if (etf.isin) refs.push({ kind: 'isin', value: etf.isin });
    return { reading, domain: etf.issuerDomain, source: 'etf', refs, financial: null };
  }

  /** The listing's ISIN when it is its own and the ISIN's home listing agrees on the website; else null. */
  private async isinOf(listing: Listing, domain: string): Promise<string | null> {
    const isin = ownIsin(listing);
    if (!isin) return null;
    const home = homeListing(isin, await this.refdata.listingsByIsin(isin));
    return home === null || home.domain === null || home.domain === domain ? isin : null;
  }

  private async isinDomain(isin: string): Promise<string | null> {
    const sibling = (await this.refdata.listingsByIsin(isin)).find((l) => l.domain && ownIsin(l) === isin);
    return sibling?.domain ?? (await this.leiDomain(isin));
  }

  private async leiDomain(isin: string): Promise<string | null> {
    const lei = await this.refdata.leiByIsin(isin);
    return lei ? ((await this.refdata.domainByLei(lei.lei))?.domain ?? null) : null;
  }
}
