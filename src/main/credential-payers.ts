/**
 * The one credential-to-payer resolver (usecases/credential-payer.ts, issue 31, ADR 0047), built here from the
 * services and handed whole to every transport (AppDeps.credentials: the routes, the viewer, GraphQL, the MCP server
 * and the dashboard). Payment protocols that are off are `noPayments`, so transports never test for them.
 */
import { McpTokenAuthenticator } from '../billing/mcp-token-authenticator.js';
import type { ActiveSession } from '../dashboard-accounts/dashboard-accounts.js';
import { agentAccessBody, paymentRequiredBody } from '../http/payment-bodies.js';
import { CredentialPayers, noPayments } from '../usecases/credential-payer.js';
import type { Services } from './services.js';

export function credentialPayersFor(services: Services): CredentialPayers<ActiveSession> {
  const publicUrl = services.config.publicUrl;
  return new CredentialPayers<ActiveSession>({
    apiKeys: services.authenticator,
    // MCP tokens are standing access's; the key and organization they name are billing's.
    mcpTokens: new McpTokenAuthenticator({
      findMcpTokenByHash: (hash) => services.stores.access.findMcpTokenByHash(hash),
      getApiKey: (id) => services.stores.billing.getApiKey(id),
      getOrganization: (id) => services.stores.billing.getOrganization(id),
    }),
    sessions: services.dashboardAccounts,
    billing: services.billing,
    x402: services.payments ?? noPayments,
    mpp: services.mpp ?? noPayments,
    bodies: { paymentRequired: (template) => paymentRequiredBody(publicUrl, template), agentAccess: () => agentAccessBody(publicUrl) },
  });
}
