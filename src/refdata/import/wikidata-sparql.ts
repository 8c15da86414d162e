/**
 * Wikidata SPARQL exports (CC0), in the query service's JSON results format or its CSV, of the query in
 * docs/reference-data.md. Variables: `item`, `itemLabel`, `ticker`, `mic`, `isin`, `website`, `lei`, `crypto`.
 * One result row can give a listing (ticker + MIC), an ISIN→LEI pair, a LEI→website pair and a crypto asset.
 * Wikidata repeats an item once per website or exchange: repeats are counted `unchanged` by the store.
 */
import { checkedIsin } from './listing-checks.js';
import { csvRows } from './csv-records.js';
import { jsonArrayItems } from './json-array-items.js';
import { makeListing } from './listing-row.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';
import { operatingMic } from '../exchanges.js';
import { websiteDomain } from '../website-domain.js';

type Binding = Record<string, string>;

const LEI = /^[A-Z0-9]{18}[0-9]{2}$/;

function itemName(b: Binding): string {
  const label = b.itemLabel?.trim();
  if (label) return label;
  return (b.item ?? '').replace(/^.*\/entity\//, '');
}

function* records(b: Binding, ctx: ParseContext): Generator<ReferenceRecord> {
  const meta = { source: 'wikidata', sourceDate: ctx.sourceDate };
  const example = b.item ?? JSON.stringify(b);
  const isin = checkedIsin(b.isin, ctx.report, example);
  const lei = (b.lei ?? '').trim().toUpperCase();
  const domain = websiteDomain(b.website);
  const name = itemName(b);
  let used = false;
  if (b.ticker?.trim() && b.mic?.trim()) {
    const mic = operatingMic(b.mic);
    if (mic === null) ctx.report.skip('unknown-exchange', `${example}: ${b.mic}`);
    else {
      used = true;
      yield { table: 'listings', row: makeListing({ ticker: b.ticker, mic, name, isin, country: null, domain, primary: false, rank: 9, ...meta }) };
    }
  }
  if (isin && LEI.test(lei)) {
    used = true;
    yield { table: 'isinLei', row: { isin, lei, ...meta } };
  }
  if (LEI.test(lei) && domain) {
    used = true;
    yield { table: 'leiDomains', row: { lei, name, domain, ...meta } };
  }
  if (b.crypto?.trim()) {
    used = true;
    yield { table: 'crypto', row: { symbol: b.crypto.trim().toUpperCase(), name, domain, rank: 1000, ...meta } };
  }
  if (!used) ctx.report.skip('nothing-usable', example);
}

async function* parseJson(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  for await (const item of jsonArrayItems(ctx.open(), 'bindings')) {
    ctx.report.rowsRead += 1;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      ctx.report.skip('malformed-row', JSON.stringify(item));
      continue;
    }
    const binding: Binding = {};
    for (const [key, cell] of Object.entries(item as Record<string, unknown>)) {
      const value = (cell as { value?: unknown } | null)?.value;
      if (typeof value === 'string') binding[key] = value;
    }
    yield* records(binding, ctx);
  }
}

async function* parseCsv(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  for await (const { line, row, fields } of csvRows(ctx.open())) {
    ctx.report.rowsRead += 1;
    if (row === null) ctx.report.skip('malformed-row', `line ${line}: ${fields.join(',')}`);
    else yield* records(row, ctx);
  }
}

export const wikidataJson: FormatParser = { name: 'wikidata-json', source: 'wikidata', description: 'Wikidata SPARQL results, JSON', parse: parseJson };
export const wikidataCsv: FormatParser = { name: 'wikidata-csv', source: 'wikidata', description: 'Wikidata SPARQL results, CSV', parse: parseCsv };
