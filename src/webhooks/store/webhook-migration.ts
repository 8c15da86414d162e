import type { Kysely, Migration } from 'kysely';

/**
 * 0013: webhooks (spec section 6, issue 19). Written once for the three parts that use these tables: the GraphQL
 * management API (webhooks, subscriptions), the delivery outbox (deliveries, attempts) and the refresh scheduler
 * (which refreshes subscribed domains first). Secrets and the endpoint's `Authorization` value must be sent, so they
 * cannot be hashed: they are kept sealed (encrypted with the installation's key), hence `*_sealed`.
 */
export const webhooksMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      // JSON array of event kinds.
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('authorization_sealed', 'text')
      .addColumn('secret_sealed', 'text', (c) => c.notNull())
      // A rotated-out secret keeps signing (as a second signature) until it expires, so receivers can switch over.
      .addColumn('previous_secret_sealed', 'text')
      .addColumn('previous_secret_expires_at', 'bigint')
      .addColumn('enabled', 'integer', (c) => c.notNull())
      // null, 'manual' or 'failing' (14 days without an accepted delivery).
      .addColumn('disabled_reason', 'text')
      .addColumn('last_accepted_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhooks_org_idx').on('webhooks').columns(['org_id', 'created_at']).execute();
    await db.schema
      .createTable('webhook_subscriptions')
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('org_id', 'text', (c) => c.notNull())
      // Registrable domain.
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('webhook_subscriptions_pk', ['webhook_id', 'domain'])
      .execute();
    await db.schema.createIndex('webhook_subscriptions_domain_idx').on('webhook_subscriptions').column('domain').execute();
    await db.schema
      .createTable('webhook_deliveries')
      // The Standard Webhooks message id (`webhook-id`), the same on every attempt.
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('org_id', 'text', (c) => c.notNull())
      // The brand event it announces, or a test event's own id.
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      // Fixed when the delivery is created: every retry carries the same data (spec section 3).
      .addColumn('payload', 'text', (c) => c.notNull())
      // pending | delivered | abandoned
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('lease_until', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('delivered_at', 'bigint')
      .addUniqueConstraint('webhook_deliveries_event_uq', ['webhook_id', 'event_id'])
      .execute();
    await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_page_idx').on('webhook_deliveries').columns(['webhook_id', 'created_at', 'id']).execute();
    await db.schema
      .createTable('webhook_attempts')
      .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('latency_ms', 'integer', (c) => c.notNull())
      .addColumn('response_excerpt', 'text')
      .addColumn('error', 'text')
      .addColumn('source_address', 'text')
      .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
      .execute();
  },
};
