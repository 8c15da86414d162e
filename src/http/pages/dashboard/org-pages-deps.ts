/**
 * What the dashboard's organization pages (client IDs, usage, billing, webhooks, payments; issue 23) need beyond
 * the rest of AppDeps: the store's reads they show, the client-ID and billing administration services, and a way to
 * wake this process's webhook sender. main/org-pages-deps.ts builds it from the services.
 */
import type { BillingAdmin } from '../../../billing/billing-admin.js';
import type { ClientIds } from '../../../billing/client-ids.js';
import type { UsageReport } from '../../../billing/billing.js';
import type { Organization } from '../../../domain/accounts.js';
import type { Store } from '../../../store/store.js';
import type { WebhookManagement } from '../../../webhooks/management/webhook-management.js';

export type OrgPagesStore = Pick<
  Store,
  'getOrganization' | 'usageByDay' | 'listAccessPurchases' | 'listMcpTokens' | 'listApiKeys' | 'listCreditGrants' | 'agentOfApiKey' | 'clientIdUsage'
>;

export interface OrgPagesDeps {
  store: OrgPagesStore;
  clientIds: ClientIds;
  /** Exact usage of the organization's current period (the billing meter's view, this process's buffer included). */
  usageReport(org: Organization): Promise<UsageReport>;
  /** Contacts and the spending limit; the same rules as `brandbase orgs set-contacts|set-spending-limit`. */
  billingAdmin: Pick<BillingAdmin, 'setContacts' | 'setSpendingLimit'>;
  /** The monthly overage cap in cents for organizations without their own (BRANDBASE_OVERAGE_SPENDING_LIMIT_CENTS). */
  defaultSpendingLimitCents: number;
  webhooks: WebhookManagement;
  /** Wakes this process's webhook sender after a test event is queued (a no-op where no sender runs). */
  notifyWebhookSender(): void;
  /** Search and logo allowances per plan, shown next to the client IDs' request counts. */
  clientIdAllowances: { search: { free: number; paid: number }; logo: { free: number; paid: number } };
  now(): Date;
}
