/**
 * The store the transaction eval, its test and the bench match against: a fresh SQLite store as `brandbase serve`
 * opens it (migrations, then the embedded reference data every new store loads) plus the held brands of
 * held-brands.ts saved as crawled records.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { openBackends } from '../../src/main/open-backends.js';
import type { ReferenceData } from '../../src/refdata/reference-data.js';
import type { SearchIndexStore } from '../../src/search/search-store.js';
import type { BrandStore } from '../../src/brands/brand-store.js';
import { AliasTable } from '../../src/transactions/merchant-aliases.js';
import { MerchantMatcher } from '../../src/transactions/merchant-matcher.js';
import { sampleBrand } from '../../test/store/sample-brand.js';
import { HELD_BRANDS } from './held-brands.js';

export interface EvalStore {
  referenceData: ReferenceData;
  search: SearchIndexStore;
  matcher: MerchantMatcher;
  close(): Promise<void>;
}

/** Saves a held brand named `name` for `domain` (a sample record with the name, domain and country replaced). */
export async function holdBrand(brands: Pick<BrandStore, 'saveBrand'>, held: { domain: string; name: string; countryCode: string }): Promise<void> {
  const brand = sampleBrand(held.domain, { name: held.name });
  brand.company.location = { ...brand.company.location, countryCode: held.countryCode, country: null, city: null, region: null, state: null, subregion: null };
  const now = new Date();
  await brands.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: held.domain }]);
}

/**
 * `databaseUrl`: run on PostgreSQL instead (the eval test runs both when PostgreSQL is reachable); `held`: brands held
 * besides HELD_BRANDS (a test's own).
 */
export async function openEvalStore(options: { databaseUrl?: string; held?: readonly { domain: string; name: string; countryCode: string }[] } = {}): Promise<EvalStore> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-transactions-'));
  const config = loadConfig({ BRANDBASE_DATA_DIR: dataDir, ...(options.databaseUrl ? { BRANDBASE_DATABASE_URL: options.databaseUrl } : {}) });
  const backends = await openBackends(config);
  for (const held of [...HELD_BRANDS, ...(options.held ?? [])]) await holdBrand(backends.stores.brands, held);
  const matcher = new MerchantMatcher(backends.stores.search, AliasTable.load());
  return {
    referenceData: backends.stores.referenceData,
    search: backends.stores.search,
    matcher,
    async close() {
      await backends.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
