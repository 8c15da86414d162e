/**
 * The webhooks product's migrations (src/db/migrations.ts): the same names and bodies as when they shipped, append-only.
 * Webhooks reference billing's organizations, so main/product-stores.ts lists this after the product that creates them.
 */
import type { ProductMigrations } from '../../db/migrations.js';
import { leasedWorkMigration } from './leased-work-migration.js';
import { webhookDeliveryMigration } from './webhook-delivery-migration.js';
import { webhookPauseMigration } from './webhook-pause-migration.js';
import { webhooksMigration } from './webhook-migration.js';

export const webhookMigrations: ProductMigrations = {
  '0013_webhooks': webhooksMigration,
  '0015_webhook_delivery': webhookDeliveryMigration,
  // The webhook outbox's part of 0024 (ADR 0049); the brand events' part is in events/store/event-migrations.ts.
  '0024_leased_work': leasedWorkMigration,
  // A failing endpoint's circuit breaker (issue 33).
  '0025_webhook_pause': webhookPauseMigration,
};
