/**
 * Wiring of webhook management (GraphQL and `brandbase webhooks`): the installation's sealed box and the
 * WebhookManagement service over the webhooks' store, the brand store's rendering and the crawl queue.
 */
import type { AssetUrls } from '../assets/asset-urls.js';
import type { Billing } from '../billing/billing.js';
import type { CrawlScheduler } from '../brands/crawl-scheduler.js';
import type { Config } from '../config/config.js';
import { parseHostMap } from '../platform/fetch-target.js';
import type { Logger } from '../platform/logger.js';
import { installationSealedBox, type SealedBox } from '../platform/sealed-box.js';
import type { ProductStores } from './product-stores.js';
import { StoreWebhookBrands } from '../webhooks/management/webhook-brands.js';
import { WebhookManagement } from '../webhooks/management/webhook-management.js';

/**
 * The installation's box, opened on first use: a process that never seals or opens (most CLI commands) never
 * creates `secret.key`. On PostgreSQL without BRANDBASE_SECRET_KEY each host would make its own key: said once.
 */
export function lazySealedBox(config: Readonly<Config>, logger?: Logger): SealedBox {
  let box: SealedBox | undefined;
  const open = (): SealedBox => {
    if (box) return box;
    if (config.secretKey === null && config.databaseUrl !== null) {
      logger?.warn('BRANDBASE_SECRET_KEY is not set: webhook secrets are sealed with secret.key in the data folder; every process on this PostgreSQL store must use the same key');
    }
    box = installationSealedBox({ secretKey: config.secretKey, dataDir: config.dataDir });
    return box;
  };
  return { seal: (plain) => open().seal(plain), open: (sealed) => open().open(sealed) };
}

/**
 * `billing`: whether the organization could look a brand up now (Billing.canLookUp): a test event carries a held
 * brand only then, a sample otherwise.
 */
export function webhookManagementFor(
  config: Readonly<Config>,
  stores: Pick<ProductStores, 'webhooks' | 'brands'>,
  scheduler: CrawlScheduler,
  box: SealedBox,
  assetUrls: AssetUrls,
  billing: Pick<Billing, 'canLookUp'>,
): WebhookManagement {
  const settings = config.webhookDelivery;
  return new WebhookManagement({
    store: stores.webhooks,
    box,
    brands: new StoreWebhookBrands(stores.brands, assetUrls, scheduler),
    hostMap: parseHostMap(config.crawlHosts),
    canLookUp: (org) => billing.canLookUp(org),
    limits: { webhooksPerOrganization: settings.webhooksPerOrganization, testEventsPerMinute: settings.testEventsPerMinute },
  });
}
