/** Dashboard accounts' migrations (issue 30): the same name and body as when it shipped, append-only. */
import type { Kysely } from 'kysely';
import type { MigrationPart, ProductMigrations } from '../../db/migrations.js';

/**
 * 0021: dashboard accounts (issue 23, ADR 0043). Users (an email each), their memberships of organizations (owner
 * or member), sign-in tokens (hashes of the link token and the code, single use, short-lived), sessions (so they can
 * be listed and revoked), one row per counted sign-in request (keyed MACs, pruned after the window) and the session
 * secret generated once for the whole fleet when BRANDBASE_SESSION_SECRET is not set.
 */
const dashboardAccounts: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('dashboard_users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('dashboard_memberships')
      .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id').onDelete('cascade'))
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('dashboard_memberships_pk', ['user_id', 'org_id'])
      .execute();
    await db.schema.createIndex('dashboard_memberships_org_idx').on('dashboard_memberships').column('org_id').execute();
    await db.schema
      .createTable('dashboard_sign_in_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id').onDelete('cascade'))
      .addColumn('link_hash', 'text', (c) => c.notNull().unique())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('failed_codes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('dashboard_sign_in_tokens_user_idx').on('dashboard_sign_in_tokens').columns(['user_id', 'created_at']).execute();
    await db.schema
      .createTable('dashboard_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema.createIndex('dashboard_sessions_user_idx').on('dashboard_sessions').column('user_id').execute();
    await db.schema
      .createTable('dashboard_sign_in_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_hash', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('dashboard_sign_in_requests_key_idx').on('dashboard_sign_in_requests').columns(['key_hash', 'at']).execute();
    await db.schema.createIndex('dashboard_sign_in_requests_at_idx').on('dashboard_sign_in_requests').column('at').execute();
    await db.schema
      .createTable('dashboard_secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};

export const dashboardAccountMigrations: ProductMigrations = {
  '0021_dashboard_accounts': dashboardAccounts,
};
