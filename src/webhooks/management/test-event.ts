/**
 * The `webhook.test` event of sendTestEvent: the payload shape of every delivery (docs/webhooks.md), carrying a held
 * brand when the caller names one (or the webhook subscribes to one that is held), otherwise a fixed sample brand
 * for `example.com` so an endpoint can be tested before any subscription exists.
 */
import { emptyCompany, type Brand } from '../../domain/brand.js';
import { brandIdForDomain, brandUrn } from '../../domain/ids.js';
import type { WebhookPayload } from '../../domain/webhooks.js';

export const SAMPLE_DOMAIN = 'example.com';

/** A complete Brand record, clearly a sample: a test must exercise the receiver's parsing of the real shape. */
export function sampleBrand(): Brand {
  const id = brandIdForDomain(SAMPLE_DOMAIN);
  return {
    id,
    name: 'Example',
    domain: SAMPLE_DOMAIN,
    claimed: false,
    description: 'A sample brand sent by sendTestEvent: no brand of your subscriptions is held yet.',
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
