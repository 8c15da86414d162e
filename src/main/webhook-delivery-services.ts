/**
 * Wiring of the webhook delivery engine (ADR 0031, ADR 0049): the fan-out consumer and the sender over the job queue and the webhooks' store, the
 * installation's sealed box, the billing hold and the mailer. Started by worker processes (serve.ts).
 */
import type { AssetUrls } from '../assets/asset-urls.js';
import type { Billing } from '../billing/billing.js';
import type { Mailer } from '../billing/mailer.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../platform/logger.js';
import type { SealedBox } from '../platform/sealed-box.js';
import type { AccountStore } from '../billing/billing-store.js';
import type { BrandEventStore } from '../events/brand-event-store.js';
import type { BrandStore } from '../brands/brand-store.js';
import type { WebhookStore } from '../webhooks/webhook-store.js';
import type { JobQueue } from '../jobs/queue.js';
import { ChargeRule } from '../usecases/charge-rule.js';
import { DeliveryBilling } from '../webhooks/delivery/delivery-billing.js';
import { DeliveryNotices } from '../webhooks/delivery/delivery-notices.js';
import { WebhookDeliveryEngine } from '../webhooks/delivery/webhook-delivery-engine.js';
import { WebhookFanOut } from '../webhooks/delivery/webhook-fan-out.js';
import { WebhookPoster } from '../webhooks/delivery/webhook-poster.js';
import { WebhookSender } from '../webhooks/delivery/webhook-sender.js';

export function webhookDeliveryFor(
  config: Readonly<Config>,
  deps: { accounts: AccountStore; brands: Pick<BrandStore, 'getBrand'>; webhooks: WebhookStore; queue: JobQueue; events: BrandEventStore; billing: Billing; box: SealedBox; mailer: Mailer; logger: Logger; assetUrls: AssetUrls },
): WebhookDeliveryEngine {
  const { webhooks, queue, billing, box, mailer, logger } = deps;
  const settings = config.webhookDelivery;
  const poster = new WebhookPoster({ hostMap: config.crawlHosts, sourceAddresses: settings.sourceAddresses, timeoutMs: settings.timeoutMs });
  const payer = new DeliveryBilling({ accounts: deps.accounts, reserve: (org, credits) => billing.reserveForOrganization(org, credits), rule: new ChargeRule(config.operatorDomain) });
  // Abandon notices read billing's organizations and claim through the webhook store: two products' stores (issue 30).
  const sender = new WebhookSender(
    { queue, store: webhooks, box, poster, payer, notices: new DeliveryNotices({ accounts: deps.accounts, webhooks }, mailer, logger), logger },
    // The lease outlasts an attempt's whole time budget, so a live sender never loses its delivery to another. One
    // organization sends at most sendsPerOrganization at once, so its stalled endpoint never holds every sender.
    { concurrency: settings.senders, sendsPerOrganization: settings.sendsPerOrganization, leaseMs: settings.timeoutMs * 4 },
  );
  const fanOut = new WebhookFanOut({ brands: deps.brands, webhooks }, deps.assetUrls, logger);
  return new WebhookDeliveryEngine({ queue, events: deps.events }, fanOut, sender, logger, { senders: settings.senders });
}
