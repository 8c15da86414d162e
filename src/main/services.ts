import path from 'node:path';
import type { Config } from '../config/config.js';
import { Accounts } from '../billing/accounts.js';
import { Authenticator } from '../billing/authenticator.js';
import { UsageMeter } from '../billing/usage-meter.js';
import { BrandCache } from '../brands/brand-cache.js';
import { BrandIndexer } from '../brands/brand-indexer.js';
import { BrandLookup } from '../brands/brand-lookup.js';
import { crawlBrand } from '../crawl/crawl-brand.js';
import type { JobQueue } from '../jobs/queue.js';
import { LocalAssetStore } from '../media/local-asset-store.js';
import type { AssetStore } from '../media/asset-store.js';
import type { Logger } from '../platform/logger.js';
import { SafeFetcher } from '../platform/safe-fetcher.js';
import type { Store } from '../store/store.js';
import { openBackends } from './open-backends.js';

export interface Services {
  config: Readonly<Config>;
  logger: Logger;
  store: Store;
  queue: JobQueue;
  assets: AssetStore;
  fetcher: SafeFetcher;
  accounts: Accounts;
  authenticator: Authenticator;
  meter: UsageMeter;
  cache: BrandCache;
  indexer: BrandIndexer;
  lookup: BrandLookup;
  close(): Promise<void>;
}

/** Builds every service from Config. The only place that chooses backends (SQLite file or PostgreSQL). */
export async function createServices(config: Readonly<Config>, logger: Logger): Promise<Services> {
  const { store, queue, close: closeBackends } = await openBackends(config);
  const assets = new LocalAssetStore({ dir: path.join(config.dataDir, 'assets'), publicUrl: config.publicUrl });
  const fetcher = new SafeFetcher({ hostMap: config.crawlHosts, logger });
  const cache = new BrandCache(60_000);
  const indexer = new BrandIndexer(
    store,
    (domain) => crawlBrand(domain, { fetcher, assets }, { timeoutMs: config.crawlTimeoutMs }),
    logger,
    () => new Date(),
    (stored, domains) => cache.put(stored, domains),
  );
  const meter = new UsageMeter(store);
  return {
    config,
    logger,
    store,
    queue,
    assets,
    fetcher,
    accounts: new Accounts(store, { freeQuota: config.defaultFreeQuota, paidQuota: config.defaultPaidQuota }),
    authenticator: new Authenticator(store, config.keyCacheMs),
    meter,
    cache,
    indexer,
    lookup: new BrandLookup(store, cache, indexer),
    async close() {
      await meter.close();
      await closeBackends();
    },
  };
}
