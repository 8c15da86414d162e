/**
 * The MCP server at `/mcp` (spec 5.4, issue 21, docs/mcp.md, ADR 0037): Streamable HTTP in stateless mode (the
 * SDK's StreamableHTTPServerTransport, JSON responses). Every POST is authenticated before the protocol sees it:
 * `Authorization: Bearer` with an MCP token (`bb_mcp_…`, bought with standing access) or an API key; none answers
 * 401, an unknown or revoked one 403, in the service's usual JSON error shape. Then one MCP server for that caller
 * handles the request; each tool call is admitted and billed like the route it stands for (mcp/mcp-tools.ts).
 * GET (a server-initiated stream) and DELETE (a session end) answer 405: stateless servers have neither.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createMcpServer } from '../mcp/mcp-server.js';
import { mcpTools, type McpCaller } from '../mcp/mcp-tools.js';
import type { AppDeps } from './app-deps.js';
import { authenticate } from './credentials.js';

/** MCP tokens and API keys; no credential answers 401 with `WWW-Authenticate: Bearer` (the resolver's `mcp` answer). */
const MCP_ROUTE = { method: 'POST', template: '/mcp', missing: 'mcp', mcpTokens: true } as const;

const METHOD_NOT_ALLOWED = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send requests with POST.' }, id: null };

export function registerMcpRoute(app: FastifyInstance, deps: AppDeps): void {
  const mcp = deps.mcp;
  if (!mcp) return;
  const tools = mcpTools(mcp.tools);
  const docResponses = {
    200: { description: 'the JSON-RPC answer of the MCP message (Streamable HTTP, JSON response; see the MCP server page)', contentTypes: ['application/json'] },
    202: 'a notification or response was accepted; no body',
    400: { description: 'not a valid MCP message (a JSON-RPC error)', contentTypes: ['application/json'] },
    401: { description: 'no credential: send an MCP token or an API key', contentTypes: ['application/json'] },
    403: { description: 'unknown or revoked MCP token or API key', contentTypes: ['application/json'] },
    406: { description: 'the client does not accept application/json and text/event-stream (a JSON-RPC error)', contentTypes: ['application/json'] },
  } as const;
  const summary = 'MCP server (Streamable HTTP, stateless): tools get_brand, brand_search, get_brand_context, enrich_transaction, build_logo_urls';
  app.post('/mcp', { schema: { summary, tags: ['mcp'], docResponses } }, async (request, reply) => {
    const principal = await authenticate(deps, request, MCP_ROUTE);
    const caller: McpCaller = { orgId: principal.org.id, ip: request.ip, payer: () => deps.credentials.admit(principal, 'lookup') };
    return serve(request, reply, createMcpServer(tools, mcp.tools, caller, { version: mcp.version, logger: deps.logger }));
  });
  for (const method of ['GET', 'DELETE'] as const) {
    const schema = { summary: 'Not offered: the MCP server is stateless (no stream, no session)', tags: ['mcp'], docResponses: { 405: { description: 'a JSON-RPC error; use POST', contentTypes: ['application/json'] } } };
    app.route({ method, url: '/mcp', schema, handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send(METHOD_NOT_ALLOWED) });
  }
}

/** Hands the request to a stateless transport connected to `server`; both are closed with the response. */
async function serve(request: FastifyRequest, reply: FastifyReply, server: ReturnType<typeof createMcpServer>): Promise<FastifyReply> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
  return reply;
}
