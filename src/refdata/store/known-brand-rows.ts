/** The brand knowledge set's rows (`ref_brands`, ADR 0054): the port's KnownBrand to its columns and back. */
import type { KnownBrand } from '../reference-data.js';
import type { RefBrandsTable } from './refdata-tables.js';

/** The columns of `ref_brands` in the order the bulk statements bind them. */
export const BRAND_COLUMNS = ['id', 'name', 'match_names', 'domain', 'country_sites', 'countries', 'category', 'wikidata', 'source', 'source_date'] as const;

export function brandColumns(b: KnownBrand): RefBrandsTable {
  return {
    id: b.id,
    name: b.name,
    match_names: JSON.stringify(b.matchNames),
    domain: b.domain,
    // Keys sorted: the same brand always writes the same text, so a re-import compares equal.
    country_sites: JSON.stringify(Object.fromEntries(Object.entries(b.countrySites).sort(([a], [c]) => a.localeCompare(c)))),
    countries: JSON.stringify(b.countries),
    category: b.category,
    wikidata: b.wikidata,
    source: b.source,
    source_date: b.sourceDate,
  };
}

export function toKnownBrand(r: RefBrandsTable): KnownBrand {
  return {
    id: r.id,
    name: r.name,
    matchNames: JSON.parse(r.match_names) as string[],
    domain: r.domain,
    countrySites: JSON.parse(r.country_sites) as Record<string, string>,
    countries: JSON.parse(r.countries) as string[],
    category: r.category,
    wikidata: r.wikidata,
    source: r.source,
    sourceDate: r.source_date,
  };
}

export function sameBrandRow(a: RefBrandsTable, b: RefBrandsTable): boolean {
  return BRAND_COLUMNS.every((c) => a[c] === b[c]);
}
