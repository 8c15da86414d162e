/** Standing access's tables (migration 0012, access-migration.ts), as Kysely sees them. */
import type { Millis } from '../../db/column-codec.js';

/** 0012: standing access (spec 5.3, ADR 0029; access-migration.ts). */
export interface AccessPurchasesTable {
  payment_key: string;
  method: string;
  payer_kind: 'wallet' | 'card';
  network: string | null;
  payer: string | null;
  usd: number;
  credits: number;
  org_id: string;
  api_key_id: string;
  /** 1 when the payment topped up the wallet's organization. */
  top_up: number;
  paid_at: Millis;
  delivered_at: Millis | null;
  /** The key and token sealed with a key derived from the payment proof; null once delivered or expired. */
  sealed: string | null;
}

export interface AgentWalletsTable {
  network: string;
  /** Lower-case address. */
  address: string;
  org_id: string;
  api_key_id: string;
  created_at: Millis;
}

export interface McpTokensTable {
  id: string;
  org_id: string;
  api_key_id: string;
  token_hash: string;
  prefix: string;
  created_at: Millis;
  revoked_at: Millis | null;
}

/** The embedded card processor's single-use payment tokens (0012; only hashes; access-rows.ts). */
export interface CardTokensTable {
  token_hash: string;
  currency: string;
  max_amount: number;
  expires_at: Millis;
  created_at: Millis;
  used_at: Millis | null;
  amount: number | null;
  payment_intent: string | null;
  idempotency_hash: string | null;
}

export interface AccessTables {
  access_purchases: AccessPurchasesTable;
  agent_wallets: AgentWalletsTable;
  mcp_tokens: McpTokensTable;
  card_tokens: CardTokensTable;
}
