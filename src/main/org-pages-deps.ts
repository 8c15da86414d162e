/**
 * The dashboard's organization pages' dependencies (issue 23), taken from the services: accounts, client IDs, the
 * payments view, billing administration with the configured defaults, webhook management and the process's webhook
 * sender.
 */
import { BillingAdmin } from '../billing/billing-admin.js';
import { billingDefaults } from '../billing/billing-defaults.js';
import type { OrgPagesDeps } from '../http/pages/dashboard/org-pages-deps.js';
import type { Services } from './services.js';

export function orgPagesDepsFor(services: Services): OrgPagesDeps {
  const defaults = billingDefaults(services.config);
  const c = services.config.clientIds;
  return {
    accounts: services.accounts,
    clientIds: services.clientIds,
    usageReport: (org) => services.billing.report(org),
    billingAdmin: new BillingAdmin(services.stores.billing, defaults),
    payments: services.paymentAdmin,
    defaultSpendingLimitCents: defaults.spendingLimitCents,
    webhooks: services.webhooks,
    notifyWebhookSender: () => services.webhookDelivery.sender.notify(),
    clientIdAllowances: {
      search: { free: c.search.allowanceFree, paid: c.search.allowancePaid },
      logo: { free: c.logo.allowanceFree, paid: c.logo.allowancePaid },
    },
    now: () => new Date(),
  };
}
