import { createHash, randomBytes } from 'node:crypto';
import type { McpTokenRecord } from '../domain/access-purchases.js';
import type { AccountStore } from './billing-store.js';

/**
 * MCP tokens (spec 5.4) look like `bb_mcp_<43 base64url chars>` (256 random bits), like API keys but with their own
 * prefix so the two are never confused. Only the SHA-256 is stored (mcp_tokens.token_hash); the MCP server
 * authenticates a token by that hash (AccessStore.findMcpTokenByHash).
 */
export const MCP_TOKEN_PREFIX = 'bb_mcp_';
const TOKEN_SHAPE = /^bb_mcp_[A-Za-z0-9_-]{43}$/;

export interface NewMcpToken {
  token: string;
  tokenHash: string;
  /** Shown in listings; too short to help guess the token. */
  prefix: string;
}

export function generateMcpToken(): NewMcpToken {
  const token = MCP_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, tokenHash: hashMcpToken(token), prefix: token.slice(0, MCP_TOKEN_PREFIX.length + 4) };
}

export function hashMcpToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function looksLikeMcpToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/** Who an MCP token acts for: its organization and the API key it was sold with (usage is charged to that key). */
export interface McpPrincipal {
  tokenId: string;
  orgId: string;
  apiKeyId: string;
}

/** MCP tokens by hash: standing access stores them (payments/access-store.ts); billing declares only the read it needs. */
export interface McpTokensByHash {
  findMcpTokenByHash(tokenHash: string): Promise<McpTokenRecord | null>;
}

/**
 * For the MCP server (spec 5.4, issue 21): the principal of a presented MCP token, or null when the token is
 * malformed, unknown, revoked, or sold with an API key that was revoked since (revoking the key ends the token).
 * Only the token's SHA-256 is looked up; the token itself is never stored or logged.
 */
export async function verifyMcpToken(store: McpTokensByHash & Pick<AccountStore, 'getApiKey'>, token: string): Promise<McpPrincipal | null> {
  if (!looksLikeMcpToken(token)) return null;
  const record = await store.findMcpTokenByHash(hashMcpToken(token));
  if (record === null || record.revokedAt !== null) return null;
  const key = await store.getApiKey(record.apiKeyId);
  if (key === null || key.revokedAt !== null) return null;
  return { tokenId: record.id, orgId: record.orgId, apiKeyId: record.apiKeyId };
}
