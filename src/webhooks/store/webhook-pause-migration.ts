import type { Kysely, Migration } from 'kysely';

/**
 * 0025: `webhooks.paused_until`, the circuit breaker of a failing endpoint (docs/webhooks.md "Fairness", issue 33).
 * While a webhook is failing (`failing_since` set), its deliveries wait until this instant without spending an
 * attempt; then one of them (the probe) is attempted alone. Null while the endpoint accepts deliveries.
 */
export const webhookPauseMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('webhooks').addColumn('paused_until', 'bigint').execute();
  },
};
