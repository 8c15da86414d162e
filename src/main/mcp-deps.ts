/** The MCP server's dependencies (http/mcp-route.ts, ADR 0037), from the services. */
import { readFileSync } from 'node:fs';
import type { McpDeps } from '../mcp/mcp-tools.js';
import type { Services } from './services.js';

function packageVersion(): string {
  try {
    // src/main/ under tsx, dist/chunks/ or dist/cli/ when built: the package root is two folders up in each case.
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

export function mcpDepsFor(services: Services): McpDeps {
  const { config, stores } = services;
  return {
    tools: {
      publicUrl: config.publicUrl,
      usecases: services.usecases,
      search: { gate: services.clientIdGate, brands: services.brandSearch },
      // Search and logo URLs count on a client ID, as on their routes: the organization's first that works without
      // a Referer (an MCP client sends none).
      clientIdOf: async (orgId) => (await stores.billing.listClientIds(orgId)).find((c) => c.revokedAt === null && !c.requireReferrer)?.id,
      logoBaseUrl: config.cdn.baseUrl,
    },
    version: packageVersion(),
  };
}
