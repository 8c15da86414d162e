/**
 * What a delivery costs (ADR 0031, docs/webhooks.md "Billing"): one credit per accepted delivery, charged to the
 * organization like a lookup (quota, then prepaid, then overage) under `webhook.delivery`. Free: deliveries about
 * the operator's own domain (spec section 6 rule 6) and test events. The credit is held before the request and
 * charged only when the endpoint accepted it; a failed attempt costs nothing. With no credit available the
 * delivery waits (it is not attempted, so it is not abandoned for it).
 */
import type { Hold } from '../../billing/billing.js';
import type { Organization } from '../../domain/accounts.js';
import type { AccountStore } from '../../billing/billing-store.js';
import type { ClaimedWebhookDelivery } from '../webhook-store.js';
import type { ChargeRule } from '../../usecases/charge-rule.js';

export const WEBHOOK_DELIVERY_REASON = 'webhook.delivery';
export const WEBHOOK_DELIVERY_CREDITS = 1;

export interface DeliveryCharge {
  /** The endpoint accepted the delivery. */
  settle(): void;
  release(): void;
}

const FREE: DeliveryCharge = { settle() {}, release() {} };

export interface DeliveryBillingDeps {
  accounts: Pick<AccountStore, 'getOrganization'>;
  reserve(org: Organization, credits: number): Promise<Hold | null>;
  /** The lookups' billing rule: its operator domain is the registrable domain of the configured one. */
  rule: Pick<ChargeRule, 'isOperatorDomain'>;
}

/** Who pays for deliveries: the sender holds a charge before each attempt. */
export interface DeliveryPayer {
  hold(delivery: ClaimedWebhookDelivery): Promise<DeliveryCharge | null>;
}

export class DeliveryBilling implements DeliveryPayer {
  constructor(private readonly deps: DeliveryBillingDeps) {}

  isFree(delivery: Pick<ClaimedWebhookDelivery, 'kind' | 'domain'>): boolean {
    return delivery.kind === 'webhook.test' || this.deps.rule.isOperatorDomain(delivery.domain);
  }

  /** A charge to settle or release after the attempt; null when the organization has no credit for it. */
  async hold(delivery: ClaimedWebhookDelivery): Promise<DeliveryCharge | null> {
    if (this.isFree(delivery)) return FREE;
    const org = await this.deps.accounts.getOrganization(delivery.orgId);
    if (org === null) return null;
    const hold = await this.deps.reserve(org, WEBHOOK_DELIVERY_CREDITS);
    if (hold === null) return null;
    return { settle: () => hold.settle(WEBHOOK_DELIVERY_CREDITS, WEBHOOK_DELIVERY_REASON), release: () => hold.release() };
  }
}

/** No charging at all (the bench, tests of the sender alone). */
export const FREE_DELIVERIES: DeliveryPayer = { hold: () => Promise.resolve(FREE) };
