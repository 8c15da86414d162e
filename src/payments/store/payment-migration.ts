import type { Kysely, Migration } from 'kysely';

/**
 * 0010: pay-per-request payments (ADR 0028). `payment_claims` holds each authorization presented, recorded before
 * its answer is sent (the primary key refuses a replay in any process); `payments` holds one row per settlement;
 * `ledger_*` are the embedded facilitator's token balances and used authorizations.
 */
export const paymentsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('payment_claims')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('network', 'text', (c) => c.notNull())
      .addColumn('asset', 'text', (c) => c.notNull())
      .addColumn('payer', 'text', (c) => c.notNull())
      .addColumn('pay_to', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('claimed_at', 'bigint', (c) => c.notNull())
      .addColumn('valid_before', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('payment_claims_state_idx').on('payment_claims').columns(['state', 'claimed_at']).execute();
    await db.schema
      .createTable('payments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('claim_key', 'text', (c) => c.notNull().unique())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('network', 'text', (c) => c.notNull())
      .addColumn('asset', 'text', (c) => c.notNull())
      .addColumn('payer', 'text', (c) => c.notNull())
      .addColumn('pay_to', 'text', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('tx', 'text', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('settled_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('payments_settled_at_idx').on('payments').column('settled_at').execute();
    await db.schema
      .createTable('ledger_accounts')
      .addColumn('network', 'text', (c) => c.notNull())
      .addColumn('asset', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('balance', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('ledger_accounts_pk', ['network', 'asset', 'address'])
      .execute();
    await db.schema
      .createTable('ledger_authorizations')
      .addColumn('network', 'text', (c) => c.notNull())
      .addColumn('asset', 'text', (c) => c.notNull())
      .addColumn('authorizer', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .addColumn('tx', 'text', (c) => c.notNull())
      .addColumn('used_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('ledger_authorizations_pk', ['network', 'asset', 'authorizer', 'nonce'])
      .execute();
  },
};
