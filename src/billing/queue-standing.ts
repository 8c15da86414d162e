/**
 * An organization's standing for the crawl queue's admission (ADR 0050): its plan, when it was created, and what it
 * has paid for credits (standing-access purchases and top-ups: the `amountCents` of its credit grants), so that an
 * account bought for a dollar counts by the dollar it spent.
 */
import type { OrganizationStanding } from '../domain/queue-admission.js';
import type { BillingStore } from './billing-store.js';

export function queueStandingReader(store: Pick<BillingStore, 'getOrganization' | 'listCreditGrants'>): (owner: string) => Promise<OrganizationStanding | null> {
  return async (owner) => {
    const org = await store.getOrganization(owner);
    if (org === null) return null;
    const grants = await store.listCreditGrants(org.id);
    const spentCents = grants.reduce((sum, grant) => sum + (grant.amountCents ?? 0), 0);
    return { plan: org.plan, createdAt: org.createdAt, spentCents };
  };
}
