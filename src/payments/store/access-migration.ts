import type { Kysely, Migration } from 'kysely';

/**
 * 0012: standing access (spec 5.3, ADR 0029). `access_purchases` holds one row per access payment (its claim key is
 * the primary key: one authorization buys once) with the sealed key and token until they are delivered or three
 * minutes pass; `agent_wallets` names the organization a wallet owns (so the same wallet tops it up);
 * `mcp_tokens` holds MCP tokens as hashes, for the MCP server of a later issue; `card_tokens` holds the embedded
 * card processor's single-use payment tokens (hashes), the offline stand-in for Stripe's (card purchases over MPP).
 */
export const standingAccessMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('access_purchases')
      .addColumn('payment_key', 'text', (c) => c.primaryKey())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('payer_kind', 'text', (c) => c.notNull())
      .addColumn('network', 'text')
      .addColumn('payer', 'text')
      .addColumn('usd', 'bigint', (c) => c.notNull())
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
      .addColumn('top_up', 'integer', (c) => c.notNull())
      .addColumn('paid_at', 'bigint', (c) => c.notNull())
      .addColumn('delivered_at', 'bigint')
      .addColumn('sealed', 'text')
      .execute();
    await db.schema.createIndex('access_purchases_api_key_idx').on('access_purchases').column('api_key_id').execute();
    // Wiping expired seals scans the undelivered rows by payment time.
    await db.schema.createIndex('access_purchases_paid_at_idx').on('access_purchases').column('paid_at').execute();
    await db.schema
      .createTable('agent_wallets')
      .addColumn('network', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('agent_wallets_pk', ['network', 'address'])
      .execute();
    await db.schema.createIndex('agent_wallets_api_key_idx').on('agent_wallets').column('api_key_id').execute();
    await db.schema
      .createTable('mcp_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema
      .createTable('card_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('max_amount', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('amount', 'bigint')
      .addColumn('payment_intent', 'text')
      .addColumn('idempotency_hash', 'text')
      .execute();
  },
};
