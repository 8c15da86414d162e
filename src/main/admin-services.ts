/**
 * The management services the CLI calls (issue 31: transports call use cases and services, never storage): the
 * same classes the dashboard pages and the routes call, built here over the backends one command opened. The
 * light ones are built at once; the dashboard accounts and webhook management load their modules when asked, so
 * `brandbase orgs list` loads no JWT library.
 */
import { AssetUrls } from '../assets/asset-urls.js';
import { Accounts } from '../billing/accounts.js';
import { BillingAdmin } from '../billing/billing-admin.js';
import { billingDefaults } from '../billing/billing-defaults.js';
import { ClientIds } from '../billing/client-ids.js';
import { noMailer } from '../billing/mailer.js';
import { BrandAdmin } from '../brands/brand-admin.js';
import { RefreshScheduler } from '../brands/refresh-scheduler.js';
import type { Config } from '../config/config.js';
import type { DashboardAccounts } from '../dashboard-accounts/dashboard-accounts.js';
import { silentLogger } from '../platform/logger.js';
import { PaymentAdmin, type PaymentAdminStores } from '../payments/payment-admin.js';
import type { ReferenceData } from '../refdata/reference-data.js';
import type { WebhookManagement } from '../webhooks/management/webhook-management.js';
import { MerchantCorrections } from '../transactions/corrections/merchant-corrections.js';
import type { Backends } from './open-backends.js';
import { refreshSettingsFor } from './refresh-settings.js';

export interface AdminServices {
  accounts: Accounts;
  billing: BillingAdmin;
  clientIds: ClientIds;
  brands: BrandAdmin;
  payments: PaymentAdmin;
  /** The reference data the identifier resolvers read (`brandbase refdata import|status`). */
  referenceData: ReferenceData;
  /** A scheduler with the configured settings, never started: its status and a tick on demand. */
  refresh: RefreshScheduler;
  /** Dashboard users and sessions; no mailer (the operator adds people; they sign in through the server). */
  dashboard(): Promise<DashboardAccounts>;
  /** Webhook management as `POST /graphql` runs it, over this command's crawl queue. */
  webhooks(): Promise<WebhookManagement>;
  /** The operator's merchant aliases and organizations' corrections (`brandbase merchants`, issue 34). */
  merchantCorrections: MerchantCorrections;
}

/** The payments view over the store: the embedded ledger unless a facilitator settles, embedded cards unless Stripe does. */
export function paymentAdminFor(config: Readonly<Config>, stores: PaymentAdminStores): PaymentAdmin {
  const p = config.payments;
  return new PaymentAdmin(stores, p.facilitatorUrl === null ? { network: p.network, asset: p.asset } : null, p.card && p.stripeSecretKey === null);
}

export function adminServicesFor(config: Readonly<Config>, backends: Backends): AdminServices {
  const { stores, queue } = backends;
  return {
    accounts: new Accounts(stores.billing, { freeQuota: config.defaultFreeQuota, paidQuota: config.defaultPaidQuota }),
    billing: new BillingAdmin(stores.billing, billingDefaults(config)),
    clientIds: new ClientIds(stores.billing),
    brands: new BrandAdmin(stores.brands),
    payments: paymentAdminFor(config, { ...stores, accounts: stores.billing }),
    referenceData: backends.stores.referenceData,
    refresh: new RefreshScheduler({ store: stores.brands, queue, logger: silentLogger() }, refreshSettingsFor(config)),
    merchantCorrections: new MerchantCorrections(stores.merchantCorrections),
    async dashboard() {
      const [{ DashboardAccounts }, { lazyDashboardKeys }] = await Promise.all([import('../dashboard-accounts/dashboard-accounts.js'), import('../dashboard-accounts/dashboard-secrets.js')]);
      return new DashboardAccounts({ store: stores.dashboardAccounts, organizations: stores.billing, keys: lazyDashboardKeys(stores.dashboardAccounts, config.sessionSecret), mailer: noMailer, logger: silentLogger(), publicUrl: config.publicUrl });
    },
    async webhooks() {
      const [{ lazySealedBox, webhookManagementFor }, { CrawlScheduler }, { queueStandingReader }, { Billing }, { UsageMeter }] = await Promise.all([
        import('./webhook-services.js'),
        import('../brands/crawl-scheduler.js'),
        import('../billing/queue-standing.js'),
        import('../billing/billing.js'),
        import('../billing/usage-meter.js'),
      ]);
      // The same admission as the API's (ADR 0050): a webhook subscription queues its crawls on the organization's share.
      const scheduler = new CrawlScheduler(queue, { rules: config.queueAdmission, standingOf: queueStandingReader(stores.billing) });
      // Read only: whether a test event may carry a held brand (the organization could look it up).
      const billing = new Billing({ store: stores.billing, meter: new UsageMeter(stores.billing), mailer: noMailer, logger: silentLogger(), defaults: billingDefaults(config) });
      return webhookManagementFor(config, stores, scheduler, lazySealedBox(config), new AssetUrls(config.assetBaseUrl), billing);
    },
  };
}
