/**
 * The `webhook.test` event of sendTestEvent: the payload shape of every delivery (docs/webhooks.md), carrying a held
 * brand when the caller names one (or the webhook subscribes to one that is held), otherwise a fixed sample brand
 * for `example.com` so an endpoint can be tested before any subscription exists. An organization with no credit for
 * a lookup always gets the sample: a test event is free, and must not hand out a record a lookup would have charged.
 */
import { emptyCompany, type Brand } from '../../domain/brand.js';
import { brandIdForDomain, brandUrn } from '../../domain/ids.js';
import type { WebhookPayload } from '../../domain/webhooks.js';

export const SAMPLE_DOMAIN = 'example.com';

/** Why the sample is sent: nothing held to send (the default), or the organization has no credit for a lookup. */
export const NO_HELD_SAMPLE = 'A sample brand sent by sendTestEvent: no brand of your subscriptions is held yet.';
export const NO_CREDIT_SAMPLE = 'A sample brand sent by sendTestEvent: the organization has no credit left for a lookup, so no held brand is sent.';

/** A complete Brand record, clearly a sample: a test must exercise the receiver's parsing of the real shape. */
export function sampleBrand(description: string = NO_HELD_SAMPLE): Brand {
  const id = brandIdForDomain(SAMPLE_DOMAIN);
  return {
    id,
    name: 'Example',
    domain: SAMPLE_DOMAIN,
    claimed: false,
    description,
    longDescription: null,
    links: [],
    logos: [],
    colors: [{ hex: '#1a73e8', type: 'accent', brightness: 121 }],
    fonts: [],
    images: [],
    qualityScore: 0,
    company: emptyCompany(),
    isNsfw: false,
    urn: brandUrn(id),
  };
}

/** The body of a test delivery, as sent (JSON text fixed at creation). */
export function testEventPayload(eventId: string, at: Date, brand: Brand): string {
  const payload: WebhookPayload = { type: 'webhook.test', id: eventId, timestamp: at.toISOString(), data: { brand, changedFields: [] } };
  return JSON.stringify(payload);
}
