/**
 * The client-ID products' services (issue 20, ADR 0033), built from Config: the gate both search and the logo CDN
 * admit requests through, the allowance counter it writes in groups, the search service, and the admin service.
 */
import type { Config } from '../config/config.js';
import { ClientIdGateService } from '../billing/client-id-gate.js';
import { ClientIdUsage } from '../billing/client-id-usage.js';
import { ClientIds } from '../billing/client-ids.js';
import type { AssetUrls } from '../assets/asset-urls.js';
import type { Logger } from '../platform/logger.js';
import { BrandSearch } from '../search/brand-search.js';
import type { SearchIndexStore } from '../search/search-store.js';
import type { BillingStore } from '../billing/billing-store.js';

export interface ClientIdServices {
  clientIds: ClientIds;
  clientIdUsage: ClientIdUsage;
  clientIdGate: ClientIdGateService;
  brandSearch: BrandSearch;
}

export function clientIdServicesFor(config: Readonly<Config>, store: BillingStore, search: SearchIndexStore, logger: Logger, icons: AssetUrls, clock: () => number = Date.now): ClientIdServices {
  const c = config.clientIds;
  const clientIdUsage = new ClientIdUsage(store, () => new Date(clock()), { onFlushError: (err) => logger.error({ err }, 'client ID usage flush failed; retrying') });
  const policy = (p: typeof c.search) => ({ perClientId: p.perClientId, perIp: p.perIp, allowance: { free: p.allowanceFree, paid: p.allowancePaid } });
  const clientIdGate = new ClientIdGateService(store, clientIdUsage, {
    products: { search: policy(c.search), logo: policy(c.logo) },
    windowMs: c.windowMs,
    hardLimitFactor: c.hardLimitFactor,
    apiProcesses: c.apiProcesses,
    cacheMs: c.cacheMs,
    clock,
  });
  const brandSearch = new BrandSearch(search, (key) => icons.src(key), { timeoutMs: c.searchTimeoutMs, referenceCheckMs: 60_000, logger, now: clock });
  return { clientIds: new ClientIds(store), clientIdUsage, clientIdGate, brandSearch };
}
