/**
 * How much each source is trusted when two disagree on a field (higher wins). Curated pairs beat regulators'
 * files, which beat community compilations; the 2022 FinanceDatabase snapshot is stale (renamed companies keep old
 * tickers), so it loses to everything. Unknown sources (a future format) rank just above it.
 */
const TRUST: Readonly<Record<string, number>> = {
  // Brandbase's own hand-checked rows (refdata/curated/): the large caps the open sources give no or a stale website.
  'brandbase-curated': 95,
  mrchartist: 90,
  sec: 80,
  gleif: 80,
  wikidata: 70,
  trustwallet: 70,
  financedatabase: 60,
  'free-ticker-database': 50,
  'financedatabase-v1-2022': 30,
};

export function sourceTrust(source: string): number {
  return TRUST[source] ?? 40;
}
