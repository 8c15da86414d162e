import type { Kysely, Migration } from 'kysely';

/**
 * 0015: what the delivery engine (src/webhooks/delivery, ADR 0031) keeps on a webhook beyond the 0013 columns.
 * - `failing_since`: the first failed attempt since the last accepted delivery (null while deliveries succeed). The
 *   14-day rule disables a webhook whose `failing_since` is 14 days old; disabling clears it, so re-enabling starts
 *   a new window instead of being disabled again at the next failure.
 * - `abandon_notice_at`: when the owner was last emailed about an abandoned delivery (at most one email a day per
 *   webhook, claimed with a conditional UPDATE so two senders never both send it).
 */
export const webhookDeliveryMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('webhooks').addColumn('failing_since', 'bigint').execute();
    await db.schema.alterTable('webhooks').addColumn('abandon_notice_at', 'bigint').execute();
    // The daily sweep looks for enabled webhooks failing for 14 days.
    await db.schema.createIndex('webhooks_failing_idx').on('webhooks').columns(['enabled', 'failing_since']).execute();
  },
};
