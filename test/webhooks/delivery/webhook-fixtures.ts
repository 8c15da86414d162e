/**
 * Rows the delivery tests start from, written with SQL into a real store (the management API has its own tests):
 * an organization, a webhook with a sealed secret, its subscriptions, and a brand with its `brand.saved` event.
 */
import { randomBytes } from 'node:crypto';
import type { Plan } from '../../../src/domain/accounts.js';
import type { BrandSavedEvent } from '../../../src/domain/brand-changes.js';
import { newId } from '../../../src/domain/ids.js';
import { newWebhookSecret, type WebhookEventKind } from '../../../src/domain/webhooks.js';
import type { SealedBox } from '../../../src/platform/sealed-box.js';
import type { Database } from '../../../src/db/database.js';
import type { WebhookTables } from '../../../src/webhooks/store/webhook-tables.js';
import type { AccountStore } from '../../../src/billing/billing-store.js';
import type { BrandStore } from '../../../src/brands/brand-store.js';
import { sampleBrand } from '../../store/sample-brand.js';

export async function createOrg(store: Pick<AccountStore, 'createOrganization'>, plan: Plan = 'paid', quota = 1000): Promise<string> {
  const org = await store.createOrganization({ id: newId('org'), name: 'Hooked Inc', plan, quota, billingContacts: ['ops@hooked.test'], createdAt: new Date() });
  return org.id;
}

export interface TestWebhook {
  id: string;
  secret: string;
}

export async function createWebhook(
  database: Database,
  box: SealedBox,
  input: { orgId: string; url: string; domains: string[]; events?: WebhookEventKind[]; authorization?: string; enabled?: boolean; previousSecret?: { secret: string; expiresAt: Date } },
): Promise<TestWebhook> {
  const id = newId('whk');
  const secret = newWebhookSecret();
  const now = Date.now();
  const db = database.tables<WebhookTables>();
  await db
    .insertInto('webhooks')
    .values({
      id,
      org_id: input.orgId,
      name: 'test hook',
      url: input.url,
      events: JSON.stringify(input.events ?? ['brand.rebranded', 'brand.updated']),
      authorization_sealed: input.authorization === undefined ? null : box.seal(input.authorization),
      secret_sealed: box.seal(secret),
      previous_secret_sealed: input.previousSecret ? box.seal(input.previousSecret.secret) : null,
      previous_secret_expires_at: input.previousSecret ? input.previousSecret.expiresAt.getTime() : null,
      enabled: input.enabled === false ? 0 : 1,
      disabled_reason: input.enabled === false ? 'manual' : null,
      last_accepted_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  for (const domain of input.domains) {
    await db.insertInto('webhook_subscriptions').values({ webhook_id: id, org_id: input.orgId, domain, created_at: now }).execute();
  }
  return { id, secret };
}

export function uniqueDomain(prefix = 'acme'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}.com`;
}

/** Saves a brand (which writes its `brand.saved` event) and returns the event as change detection would announce it. */
export async function savedRebrand(brands: Pick<BrandStore, 'saveBrand'>, domain: string, kind: 'brand.rebranded' | 'brand.updated' = 'brand.rebranded'): Promise<BrandSavedEvent> {
  const brand = sampleBrand(domain);
  const now = new Date();
  const event = await brands.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: domain }]);
  return {
    ...event,
    announce: { kind, changedFields: ['logos', 'name'], previous: { name: 'Old Acme', logo: brand.logos[0] ?? null } },
  };
}
