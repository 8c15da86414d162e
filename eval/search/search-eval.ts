/**
 * Search-by-name quality (issue 20): the labelled queries of queries.tsv (written for this eval: prefixes, typos,
 * accents, multi-word names, tickers typed as names, case) run through the real search service over a real store
 * holding the embedded reference data plus the crawled brands of held-brands.tsv; scored top-1 and top-3 by the
 * expected domain. Used by suite.ts (`npm run eval`) and by test/search/search-eval.test.ts (the gate).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEmbeddedReferenceData } from '../../src/refdata/embedded-reference-data.js';
import { createLogger } from '../../src/platform/logger.js';
import { BrandSearch } from '../../src/search/brand-search.js';
import type { ReferenceData } from '../../src/refdata/reference-data.js';
import type { SearchIndexStore } from '../../src/search/search-store.js';
import type { BrandStore } from '../../src/brands/brand-store.js';
import { sampleBrand } from '../../test/store/sample-brand.js';

export interface LabelledQuery {
  query: string;
  /** The expected domain; `a|b` when any of the brand's own sites counts (queries-34.tsv). */
  domain: string;
  kind: string;
  /** Investor-relations, holding or parent domains that would be the wrong top-1 (queries-34.tsv's 4th column). */
  holding?: string[];
}

export interface SearchScore {
  queries: number;
  top1: number;
  top3: number;
  byKind: Record<string, { queries: number; top1: number }>;
  /** `query → expected, got a | b | c` for every query whose expected domain is not first. */
  misses: string[];
  /** Queries whose top-1 is an investor-relations or holding domain instead of the brand's own site (see holdingDomain). */
  holdingTop1: string[];
}

function rows(file: string): string[][] {
  return readFileSync(fileURLToPath(new URL(file, import.meta.url)), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split('\t'));
}

/** `file`: queries.tsv (the regression list, the default) or queries-34.tsv (issue 34's held-out list). */
export function labelledQueries(file = './queries.tsv'): LabelledQuery[] {
  return rows(file).map(([query = '', domain = '', kind = '', holding = '']) => ({ query, domain, kind, ...(holding.trim() ? { holding: holding.split(',').map((d) => d.trim()) } : {}) }));
}

const CORPORATE_WORDS = new Set(['ag', 'se', 'sa', 'nv', 'plc', 'inc', 'corp', 'corporate', 'company', 'group', 'global', 'holding', 'holdings', 'investor', 'investors', 'ir']);

/**
 * Whether `top1` (not an expected domain) is the brand's investor-relations or holding site: one of the query's
 * listed holding domains, the brand's label with a corporate word (toyota-global.com, volkswagenag.com,
 * coca-colacompany.com for toyota.com, volkswagen.com, coca-cola.com), or the brand's own top-level domain
 * (global.toyota). A country site with the same label (toyota.co.jp) is not.
 */
export function holdingDomain(q: LabelledQuery, top1: string): boolean {
  if (q.holding?.includes(top1)) return true;
  const label = (q.domain.split('|')[0] ?? '').split('.')[0] ?? '';
  if (label.length < 2) return false;
  if (top1.endsWith(`.${label}`)) return true;
  const first = top1.split('.')[0] ?? '';
  if (first === label || !first.includes(label)) return false;
  return CORPORATE_WORDS.has(first.replace(label, '').replace(/-/g, ''));
}

/** Migrates the store, loads the embedded reference data and saves the held brands (crawled records, minimal). */
export async function fillSearchStore({ migrate, stores }: { migrate(): Promise<void>; stores: { referenceData: ReferenceData; brands: Pick<BrandStore, 'saveBrand'> } }): Promise<void> {
  await migrate();
  await loadEmbeddedReferenceData(stores.referenceData);
  const at = new Date('2026-11-01T00:00:00Z');
  for (const [domain = '', name = '', quality = '0'] of rows('./held-brands.tsv')) {
    const brand = sampleBrand(domain, { name, qualityScore: Number(quality), images: [] });
    await stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: at, createdAt: at, updatedAt: at }, [{ kind: 'domain', value: domain }]);
  }
}

export async function scoreSearch(store: SearchIndexStore, queries: readonly LabelledQuery[] = labelledQueries()): Promise<SearchScore> {
  const search = new BrandSearch(store, (key) => key, { timeoutMs: 60_000, referenceCheckMs: 3_600_000, logger: createLogger({ level: 'warn' }) });
  const score: SearchScore = { queries: queries.length, top1: 0, top3: 0, byKind: {}, misses: [], holdingTop1: [] };
  for (const q of queries) {
    const hits = await search.search(q.query, 10);
    const wanted = q.domain.split('|');
    const rank = hits.findIndex((h) => wanted.includes(h.domain));
    const kind = (score.byKind[q.kind] ??= { queries: 0, top1: 0 });
    kind.queries++;
    if (rank === 0) {
      score.top1++;
      kind.top1++;
    }
    if (rank >= 0 && rank < 3) score.top3++;
    if (rank !== 0 && hits[0] && holdingDomain(q, hits[0].domain)) score.holdingTop1.push(`${q.query} → ${hits[0].domain} (want ${q.domain})`);
    if (rank !== 0) score.misses.push(`${q.query} → ${q.domain} (${q.kind}), got ${hits.slice(0, 3).map((h) => h.domain).join(' | ') || 'nothing'}`);
  }
  return score;
}
