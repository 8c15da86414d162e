/**
 * MCP tokens bought with standing access (`bb_mcp_…`, spec 5.3, 5.4; docs/mcp.md#authentication, ADR 0037): each
 * acts for the API key it was sold with. Checked by `verifyMcpToken` (its SHA-256 only; a revoked token, or one whose
 * key was revoked, is refused like an unknown one). The credential resolver (usecases/credential-payer.ts) calls it
 * where MCP tokens are accepted, as it calls the API-key authenticator elsewhere.
 */
import type { Principal } from './authenticator.js';
import { verifyMcpToken, type McpTokensByHash } from './mcp-token-secret.js';
import { ApiError } from '../domain/errors.js';
import type { AccountStore } from './billing-store.js';

export type McpTokenStore = McpTokensByHash & Pick<AccountStore, 'getApiKey' | 'getOrganization'>;

export class McpTokenAuthenticator {
  constructor(private readonly store: McpTokenStore) {}

  /** The key and organization the token acts for; 403 `invalid_mcp_token` when malformed, unknown or revoked. */
  async authenticate(token: string): Promise<Principal> {
    const principal = await verifyMcpToken(this.store, token);
    if (!principal) throw new ApiError('invalid_mcp_token');
    const [key, org] = await Promise.all([this.store.getApiKey(principal.apiKeyId), this.store.getOrganization(principal.orgId)]);
    if (!key || key.revokedAt || !org || key.orgId !== org.id) throw new ApiError('invalid_mcp_token');
    return { key, org };
  }
}
