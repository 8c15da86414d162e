/**
 * What the dashboard's organization pages (client IDs, usage, billing, webhooks, payments; issue 23) need beyond
 * the rest of AppDeps: the management services they call (the same the CLI calls; never the store, issue 31) and a
 * way to wake this process's webhook sender. main/org-pages-deps.ts builds it from the services.
 */
import type { Accounts } from '../../../billing/accounts.js';
import type { BillingAdmin } from '../../../billing/billing-admin.js';
import type { ClientIds } from '../../../billing/client-ids.js';
import type { UsageReport } from '../../../billing/billing.js';
import type { Organization } from '../../../domain/accounts.js';
import type { PaymentAdmin } from '../../../payments/payment-admin.js';
import type { WebhookManagement } from '../../../webhooks/management/webhook-management.js';

export interface OrgPagesDeps {
  /** The organization a page shows. */
  accounts: Pick<Accounts, 'getOrganization'>;
  clientIds: ClientIds;
  /** Exact usage of the organization's current period (the billing meter's view, this process's buffer included). */
  usageReport(org: Organization): Promise<UsageReport>;
  /** Contacts and the spending limit; the same rules as `brandbase orgs set-contacts|set-spending-limit`. */
  billingAdmin: Pick<BillingAdmin, 'setContacts' | 'setSpendingLimit' | 'dailyUsage'>;
  /** Standing-access purchases, keys, MCP tokens and credit grants (the payments page). */
  payments: Pick<PaymentAdmin, 'ofOrganization'>;
  /** The monthly overage cap in cents for organizations without their own (BRANDBASE_OVERAGE_SPENDING_LIMIT_CENTS). */
  defaultSpendingLimitCents: number;
  webhooks: WebhookManagement;
  /** Wakes this process's webhook sender after a test event is queued (a no-op where no sender runs). */
  notifyWebhookSender(): void;
  /** Search and logo allowances per plan, shown next to the client IDs' request counts. */
  clientIdAllowances: { search: { free: number; paid: number }; logo: { free: number; paid: number } };
  now(): Date;
}
