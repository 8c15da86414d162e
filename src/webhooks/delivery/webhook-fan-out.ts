/**
 * The `webhooks` consumer of brand events (src/events/brand-event-consumer.ts): an event whose save announces
 * something (`announce`, decided by change detection) becomes one delivery per subscribed webhook, with the payload
 * fixed now (docs/webhooks.md, "Payload"), each with its `webhook.deliver` job in the same transaction (ADR 0031,
 * ADR 0049). The event and its `brand.event` job were written in the same transaction as the refresh that caused it,
 * so from the save to the delivery rows nothing can be lost; the event's job completes after the fan-out commits,
 * and a repeated event adds nothing (deliveries are unique per webhook and event).
 */
import type { AssetUrls } from '../../assets/asset-urls.js';
import { currentQualityScore } from '../../brands/refresh.js';
import { BRAND_REBRANDED, type BrandSavedEvent } from '../../domain/brand-changes.js';
import { registrableDomain } from '../../domain/identifiers.js';
import type { WebhookPayload } from '../../domain/webhooks.js';
import type { Logger } from '../../platform/logger.js';
import type { BrandStore, StoredBrand } from '../../brands/brand-store.js';
import type { WebhookDeliveryStore } from '../webhook-store.js';

/** The consumer name the fan-out subscribes under. */
export const WEBHOOK_CONSUMER = 'webhooks';

/**
 * The delivery body of a brand event: the brand as now stored, serialized like a GET answer (asset keys rendered
 * as URLs, quality score as of now, no palette), and for a rebrand the previous name and main logo.
 */
export function brandEventPayload(event: BrandSavedEvent, stored: StoredBrand, assetUrls: AssetUrls, now: Date): WebhookPayload | null {
  const announce = event.announce;
  if (announce === null) return null;
  const brand = assetUrls.renderBrand({ ...stored.brand, qualityScore: currentQualityScore(stored, now) });
  const previousLogo = announce.previous.logo;
  const logo = previousLogo === null ? null : (assetUrls.renderBrand({ logos: [previousLogo], images: [] }).logos[0] ?? null);
  return {
    type: announce.kind,
    id: event.id,
    timestamp: event.occurredAt.toISOString(),
    data: {
      brand,
      changedFields: announce.changedFields,
      ...(announce.kind === BRAND_REBRANDED ? { previous: { name: announce.previous.name, logo } } : {}),
    },
  };
}

export class WebhookFanOut {
  readonly #now: () => Date;

  constructor(
    /** The brand as now stored, and the webhooks' outbox (main/'s ProductStores fits). */
    private readonly stores: { brands: Pick<BrandStore, 'getBrand'>; webhooks: Pick<WebhookDeliveryStore, 'fanOutWebhookEvent'> },
    private readonly assetUrls: AssetUrls,
    private readonly logger: Logger,
    options: { now?: () => Date; consumer?: string } = {},
  ) {
    this.#now = options.now ?? (() => new Date());
    this.consumer = options.consumer ?? WEBHOOK_CONSUMER;
  }

  readonly consumer: string;

  /** The consumer's handler: returns how many deliveries it created (0 for an event that announces nothing). */
  async handle(event: BrandSavedEvent): Promise<number> {
    if (event.announce === null) return 0;
    const stored = await this.stores.brands.getBrand(event.brandId);
    // A brand removed since the save is not announced.
    if (stored === null || stored.status !== 'indexed') return 0;
    const now = this.#now();
    const payload = brandEventPayload(event, stored, this.assetUrls, now);
    if (payload === null) return 0;
    const domain = registrableDomain(event.domain) ?? event.domain;
    const created = await this.stores.webhooks.fanOutWebhookEvent({ eventId: event.id, kind: payload.type, domain, payload: JSON.stringify(payload), createdAt: now });
    if (created > 0) this.logger.info({ eventId: event.id, brandId: event.brandId, kind: payload.type, deliveries: created }, 'webhook deliveries created');
    return created;
  }
}
