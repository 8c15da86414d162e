/**
 * name-suggestion-index (NSI, BSD-3-Clause) to the brand knowledge set (issue 34; docs/reference-data.md "Brand
 * knowledge set"): the `brands/` tree of `dist/json/nsi.json`, one brand per Wikidata item, with its website from
 * `dist/wikidata/wikidata.min.json` (Wikidata, CC0). Pure: the parsed files in, the rows and the drops (through the
 * import report, one count per NSI item) out. The `nsi` import format (nsi-package.ts) and the build of the embedded
 * file (scripts/build-nsi.ts) both call it, so both drop the same entries for the same reasons.
 *
 * Every NSI item is counted once: kept (the main item of its Wikidata item, primaryItem), or skipped with the reason of its brand
 * (`no-wikidata`, `dissolved`, `no-website`, `social-profile`, `marketplace-or-app-store-page`, `link-page`,
 * `generic-hosting`, `unparseable-url`, `malformed-row`), or `duplicate` (a further item of a brand already kept: the
 * same Wikidata item under another category, such as a fuel brand's shops).
 */
import { normalizeName } from '../../domain/search-text.js';
import { brandWebsite, domainCountry, type WebsiteDrop } from '../brand-websites.js';
import { isoCountry } from '../countries.js';
import { MAX_MATCH_NAMES, type KnownBrand } from '../reference-data.js';
import type { ImportReport } from './import-report.js';

/** One item of an NSI category (only the fields read). */
interface NsiItem {
  id: string;
  displayName: string;
  locationSet?: { include?: unknown[] };
  matchNames?: unknown[];
  tags: Record<string, unknown>;
}

/** What `dist/wikidata/wikidata.min.json` says of one Wikidata item (only the fields read). */
interface WikidataEntry {
  label?: unknown;
  identities?: { website?: unknown };
  officialWebsites?: unknown[];
  dissolutions?: unknown[];
}

export interface NsiFiles {
  /** `dist/json/nsi.json` parsed. */
  nsi: unknown;
  /** `dist/wikidata/wikidata.min.json` (or `wikidata.json`) parsed. */
  wikidata: unknown;
}

/** The tree read: brands (shops, restaurants, fuel, banks...). `operators/`, `transit/` and `flags/` are not brands. */
const BRANDS_TREE = 'brands/';
/** Longest match name kept, in characters (official names of a whole group say nothing a search types). */
const MAX_NAME_LENGTH = 60;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

function asItem(v: unknown): NsiItem | null {
  if (!isRecord(v) || !isRecord(v.tags)) return null;
  const id = text(v.id);
  const displayName = text(v.displayName);
  if (id === null || displayName === null) return null;
  return { id, displayName, tags: v.tags, ...(isRecord(v.locationSet) ? { locationSet: v.locationSet } : {}), ...(Array.isArray(v.matchNames) ? { matchNames: v.matchNames } : {}) };
}

/** The package's own date (`_meta.generated`), YYYY-MM-DD, or null. */
export function nsiGeneratedDate(nsi: unknown): string | null {
  const generated = isRecord(nsi) && isRecord(nsi._meta) ? text(nsi._meta.generated) : null;
  return generated !== null && /^\d{4}-\d{2}-\d{2}/.test(generated) ? generated.slice(0, 10) : null;
}

/**
 * `locationSet.include` to country codes: ISO alpha-2 upper-cased (`gb`, `us`), UN M49 codes as given (`001` the
 * world, `150` Europe), a subdivision or a country's GeoJSON area to its country (`us-ny`, `gb-lon.geojson`).
 * Points, named areas and other GeoJSON are left out (counted as `corrected.location-not-a-country`); `exclude` is not
 * read. A brand anywhere in the world is `001` alone.
 */
function countriesOf(items: readonly NsiItem[], report: ImportReport): string[] {
  const out = new Set<string>();
  for (const item of items) {
    for (const code of item.locationSet?.include ?? []) {
      const c = typeof code === 'string' ? code.trim().toLowerCase() : '';
      const m49 = /^\d{3}$/.test(c) ? c : null;
      const alpha2 = /^[a-z]{2}$/.test(c) ? c : (/^([a-z]{2})-[a-z0-9_-]+(?:\.geojson)?$/.exec(c)?.[1] ?? null);
      const country = alpha2 === null ? null : isoCountry(alpha2);
      if (m49 !== null) out.add(m49);
      else if (country !== null) out.add(country);
      else report.correct('location-not-a-country', `${item.id}: ${JSON.stringify(code)}`);
    }
  }
  if (out.has('001')) return ['001'];
  return [...out].sort();
}

/** Tag keys whose values are names of the brand, in the order kept (English first, then any language). */
const NAME_TAGS = ['brand', 'name', 'brand:en', 'name:en', 'official_name', 'short_name', 'alt_name'];
const LOCAL_NAME_TAG = /^(?:brand|name|official_name|short_name|alt_name):[a-z]{2,3}(?:-[A-Za-z]{2,4})?$/;

/** The brand's own names as written (display names first, then name tags, Wikidata's label, names in other languages). */
function ownNamesOf(items: readonly NsiItem[], label: string | null): string[] {
  const names: string[] = [];
  const add = (v: unknown) => {
    for (const part of (text(v) ?? '').split(';')) if (part.trim()) names.push(part.trim());
  };
  for (const item of items) add(item.displayName);
  for (const item of items) for (const key of NAME_TAGS) add(item.tags[key]);
  if (label !== null) names.push(label);
  for (const item of items) for (const key of Object.keys(item.tags).filter((k) => LOCAL_NAME_TAG.test(k)).sort()) add(item.tags[key]);
  return names;
}

/** NSI's `matchNames` of the items. */
function nsiMatchNamesOf(items: readonly NsiItem[]): string[] {
  return items.flatMap((item) => (item.matchNames ?? []).map(text).filter((n): n is string => n !== null));
}

/** A name's words worth comparing (3+ characters), and the name itself when it is one word of another script. */
function ownWords(names: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const name of names) for (const word of normalizeName(name).split(' ')) if (word.length >= 3 || /[^\p{Script=Latin}\p{N}]/u.test(word)) words.add(word);
  return words;
}

/**
 * Normalized, deduped, without the display name's own, at most MAX_MATCH_NAMES. The brand's own names (display
 * names, name tags, Wikidata's label) come first. NSI's `matchNames` follow only when they share a word with those
 * (`shell gas station`, `lidl deutschland`): they are what an OpenStreetMap feature may be named when it should carry
 * the brand, and that includes other brands (Coles Express stations are Shell's), which a search by name must not
 * answer with this brand.
 */
function matchNamesOf(own: readonly string[], nsiMatchNames: readonly string[], displayName: string): string[] {
  const display = normalizeName(displayName);
  const words = ownWords(own);
  const related = (norm: string) => norm.split(' ').some((w) => words.has(w)) || [...words].some((w) => w.length >= 4 && norm.includes(w));
  const out: string[] = [];
  for (const [name, checked] of [...own.map((n) => [n, false] as const), ...nsiMatchNames.map((n) => [n, true] as const)]) {
    const norm = normalizeName(name);
    if (norm.length < 2 || norm.length > MAX_NAME_LENGTH || norm === display || out.includes(norm)) continue;
    if (checked && !related(norm)) continue;
    out.push(norm);
    if (out.length === MAX_MATCH_NAMES) break;
  }
  return out;
}

/** The official websites, the one NSI prefers (`identities.website`) first. */
function websitesOf(entry: WikidataEntry | undefined): string[] {
  const urls = [entry?.identities?.website, ...(entry?.officialWebsites ?? [])].map(text).filter((u): u is string => u !== null);
  return [...new Set(urls)];
}

/**
 * Country sites from the other official websites: a country-code domain (`mcdonalds.de`) other than the global one,
 * for a country the brand trades in (any country when it is worldwide, in a region, or nowhere said). Where one
 * country has several, the one named like the global domain (`starbucks.co.kr` over `istarbucks.co.kr`), else
 * Wikidata's first.
 */
function countrySitesOf(urls: readonly string[], names: readonly string[], global: string, countries: readonly string[]): Record<string, string> {
  const anyCountry = countries.length === 0 || countries.some((c) => !/^[A-Z]{2}$/.test(c));
  const globalLabel = global.split('.')[0];
  const sites: Record<string, string> = {};
  for (const url of urls) {
    const site = brandWebsite(url, names);
    if (!('domain' in site) || site.domain === global) continue;
    const country = domainCountry(site.domain);
    if (country === null || !(anyCountry || countries.includes(country))) continue;
    const current = sites[country];
    if (current === undefined || (current.split('.')[0] !== globalLabel && site.domain.split('.')[0] === globalLabel)) sites[country] = site.domain;
  }
  return sites;
}

/**
 * The brand's global domain and country sites, or the reason it has none: the first official website that is the
 * brand's own (NSI's preferred one first), except that a country's domain listed first gives way to a later one of the
 * same name without a country (lidl.de, then lidl.com: Lidl is lidl.com, and lidl.de its German site; counted as
 * `corrected.global-site-after-country-site`). A brand whose first website is no brand website counts
 * `corrected.website-<reason>`.
 */
function websiteOf(entry: WikidataEntry | undefined, names: readonly string[], countries: readonly string[], note: (reason: string) => void): { domain: string; countrySites: Record<string, string> } | { drop: WebsiteDrop | 'no-website' } {
  const urls = websitesOf(entry);
  const sites = urls.map((url) => brandWebsite(url, names));
  const own = sites.flatMap((site) => ('domain' in site ? [site.domain] : []));
  const firstDrop = sites.find((site) => 'drop' in site);
  const [first] = own;
  if (first === undefined) return { drop: firstDrop !== undefined && 'drop' in firstDrop ? firstDrop.drop : 'no-website' };
  const preferred = sites[0];
  if (preferred !== undefined && 'drop' in preferred) note(`website-${preferred.drop}`);
  const label = first.split('.')[0];
  const global = domainCountry(first) === null ? first : (own.find((d) => domainCountry(d) === null && d.split('.')[0] === label) ?? first);
  if (global !== first) note('global-site-after-country-site');
  return { domain: global, countrySites: countrySitesOf(urls, names, global, countries) };
}

/** Categories that describe a sign or a machine of the brand, not the brand's business: chosen last. */
const SECONDARY_CATEGORY = /^(?:advertising|man_made|vending|emergency)\/|^leisure\/playground$|^amenity\/(?:vending_machine|atm|parcel_locker|charging_station)$/;

/**
 * The brand's category: the one holding most of its items (McDonald's: 11 fast-food items, 1 playground), signs and
 * machines last; then its name: the item of that category named as Wikidata names the brand, else a worldwide one,
 * else the first (`McDonald's`, not `McDonald's (France)` or `McDonald's PlayPlace`).
 */
function primaryItem(items: readonly { category: string; item: NsiItem }[], label: string | null): { category: string; item: NsiItem } {
  const count = new Map<string, number>();
  for (const { category } of items) count.set(category, (count.get(category) ?? 0) + 1);
  const secondary = (c: string) => (SECONDARY_CATEGORY.test(c) ? 1 : 0);
  const [category] = [...count.keys()].sort((a, b) => secondary(a) - secondary(b) || (count.get(b) ?? 0) - (count.get(a) ?? 0));
  const inCategory = items.filter((i) => i.category === category);
  const labelNorm = label === null ? null : normalizeName(label);
  const worldwide = (i: NsiItem) => (i.locationSet?.include ?? []).includes('001');
  return inCategory.find((i) => normalizeName(i.item.displayName) === labelNorm) ?? inCategory.find((i) => worldwide(i.item)) ?? (inCategory[0] as { category: string; item: NsiItem });
}

/** The knowledge set's rows from an NSI package's two files, sorted by id; drops and corrections go to `report`. */
export function nsiBrands(files: NsiFiles, report: ImportReport, provenance: { source: string; sourceDate: string }): KnownBrand[] {
  const categories = isRecord(files.nsi) && isRecord(files.nsi.nsi) ? files.nsi.nsi : {};
  const wikidata = isRecord(files.wikidata) && isRecord(files.wikidata.wikidata) ? (files.wikidata.wikidata as Record<string, WikidataEntry>) : {};
  // Items grouped by Wikidata item, in the file's order.
  const byQid = new Map<string, { category: string; item: NsiItem }[]>();
  for (const [path, group] of Object.entries(categories)) {
    if (!path.startsWith(BRANDS_TREE) || !isRecord(group) || !Array.isArray(group.items)) continue;
    const category = path.slice(BRANDS_TREE.length);
    for (const raw of group.items) {
      report.rowsRead += 1;
      const item = asItem(raw);
      const qid = item === null ? null : text(item.tags['brand:wikidata']);
      if (item === null) report.skip('malformed-row', `${path}: ${JSON.stringify(raw).slice(0, 80)}`);
      else if (qid === null || !/^Q\d+$/.test(qid)) report.skip('no-wikidata', `${item.id} (${item.displayName})`);
      else byQid.set(qid, [...(byQid.get(qid) ?? []), { category, item }]);
    }
  }
  const brands: KnownBrand[] = [];
  for (const [qid, entries] of byQid) {
    const entry = wikidata[qid];
    const label = text(entry?.label);
    const { category, item: primary } = primaryItem(entries, label);
    const items = [primary, ...entries.map((e) => e.item).filter((i) => i !== primary)];
    const example = `${primary.id} (${primary.displayName}, ${qid})`;
    const dropAll = (reason: string) => {
      for (const item of items) report.skip(reason, item === primary ? example : `${item.id} (${qid})`);
    };
    if (Array.isArray(entry?.dissolutions) && entry.dissolutions.length > 0) {
      dropAll('dissolved');
      continue;
    }
    const own = ownNamesOf(items, label);
    const countries = countriesOf(items, report);
    const site = websiteOf(entry, own, countries, (reason) => report.correct(reason, example));
    if ('drop' in site) {
      dropAll(site.drop);
      continue;
    }
    for (const item of items.slice(1)) report.skip('duplicate', `${item.id} (same Wikidata item as ${primary.id})`);
    if (countries.length === 0) report.correct('countries-unknown', example);
    brands.push({
      id: primary.id,
      name: primary.displayName,
      matchNames: matchNamesOf(own, nsiMatchNamesOf(items), primary.displayName),
      domain: site.domain,
      countrySites: site.countrySites,
      countries,
      category,
      wikidata: qid,
      ...provenance,
    });
  }
  return brands.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
