/** Every `--format` the importer reads, by name (docs/reference-data.md describes each). */
import { brandbaseBrands, brandbaseCrypto, brandbaseEtfs, brandbaseListings } from './embedded-tables.js';
import { financeDatabaseCryptos } from './financedatabase-cryptos.js';
import { financeDatabaseEquities } from './financedatabase-equities.js';
import { financeDatabaseEtfs } from './financedatabase-etfs.js';
import { financeDatabaseV1Equities } from './financedatabase-v1-equities.js';
import { freeTickerIdentifiers } from './free-ticker-identifiers.js';
import { freeTickerListings } from './free-ticker-listings.js';
import { gleifIsinLei } from './gleif-isin-lei.js';
import { mrchartistDomains } from './mrchartist-domains.js';
import { nsiPackage } from './nsi-package.js';
import type { FormatParser } from './reference-record.js';
import { secTickersExchange } from './sec-tickers-exchange.js';
import { trustwalletChains } from './trustwallet-chains.js';
import { wikidataCsv, wikidataJson } from './wikidata-sparql.js';

export const FORMATS: readonly FormatParser[] = [
  secTickersExchange,
  gleifIsinLei,
  wikidataJson,
  wikidataCsv,
  financeDatabaseEquities,
  financeDatabaseEtfs,
  financeDatabaseCryptos,
  financeDatabaseV1Equities,
  freeTickerListings,
  freeTickerIdentifiers,
  trustwalletChains,
  mrchartistDomains,
  brandbaseListings,
  brandbaseEtfs,
  brandbaseCrypto,
  nsiPackage,
  brandbaseBrands,
];

export function formatByName(name: string): FormatParser | undefined {
  return FORMATS.find((f) => f.name === name);
}
