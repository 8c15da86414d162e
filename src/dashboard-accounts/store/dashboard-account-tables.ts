/**
 * Dashboard accounts' tables (issue 30; 0021, dashboard-account-migrations.ts): dashboard users, memberships, sign-in
 * tokens, sessions, sign-in rate-limit counts and the generated session secret. Timestamps are epoch milliseconds.
 */
import type { Millis } from '../../db/column-codec.js';

export interface DashboardUsersTable {
  id: string;
  email: string;
  created_at: Millis;
}

export interface DashboardMembershipsTable {
  user_id: string;
  org_id: string;
  role: string;
  created_at: Millis;
}

export interface DashboardSignInTokensTable {
  id: string;
  user_id: string;
  link_hash: string;
  code_hash: string;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
  failed_codes: number;
}

export interface DashboardSessionsTable {
  id: string;
  user_id: string;
  created_at: Millis;
  last_seen_at: Millis;
  expires_at: Millis;
  revoked_at: Millis | null;
  user_agent: string | null;
}

export interface DashboardSignInRequestsTable {
  /** Random: one row per counted request. */
  id: string;
  /** A keyed MAC naming an email address or a client address; never the address itself. */
  key_hash: string;
  at: Millis;
}

export interface DashboardSecretsTable {
  name: string;
  value: string;
  created_at: Millis;
}

export interface DashboardAccountTables {
  dashboard_users: DashboardUsersTable;
  dashboard_memberships: DashboardMembershipsTable;
  dashboard_sign_in_tokens: DashboardSignInTokensTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_sign_in_requests: DashboardSignInRequestsTable;
  dashboard_secrets: DashboardSecretsTable;
}
