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
  domain: string;
  kind: string;
}

export interface SearchScore {
  queries: number;
  top1: number;
  top3: number;
  byKind: Record<string, { queries: number; top1: number }>;
  /** `query → expected, got a | b | c` for every query whose expected domain is not first. */
  misses: string[];
}

function rows(file: string): string[][] {
  return readFileSync(fileURLToPath(new URL(file, import.meta.url)), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split('\t'));
}

export function labelledQueries(): LabelledQuery[] {
  return rows('./queries.tsv').map(([query = '', domain = '', kind = '']) => ({ query, domain, kind }));
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
  const score: SearchScore = { queries: queries.length, top1: 0, top3: 0, byKind: {}, misses: [] };
  for (const q of queries) {
    const hits = await search.search(q.query, 10);
    const rank = hits.findIndex((h) => h.domain === q.domain);
    const kind = (score.byKind[q.kind] ??= { queries: 0, top1: 0 });
    kind.queries++;
    if (rank === 0) {
      score.top1++;
      kind.top1++;
    }
    if (rank >= 0 && rank < 3) score.top3++;
    if (rank !== 0) score.misses.push(`${q.query} → ${q.domain} (${q.kind}), got ${hits.slice(0, 3).map((h) => h.domain).join(' | ') || 'nothing'}`);
  }
  return score;
}
