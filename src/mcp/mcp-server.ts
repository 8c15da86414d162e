/**
 * The MCP protocol side of the server (ADR 0037): `tools/list` and `tools/call` over the tools of mcp-tools.ts, on
 * the SDK's low-level `Server`, for one caller. Transport-free: http/mcp-route.ts connects it to a Streamable HTTP
 * transport per request (stateless: each POST carries its own credential, so every call is authenticated and
 * admitted like a request to the route it stands for).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import { ApiError, ERROR_CODES } from '../domain/errors.js';
import type { Logger } from '../platform/logger.js';
import type { McpCaller, McpTool, McpToolDeps, ToolAnswer } from './mcp-tools.js';

export const MCP_SERVER_NAME = 'brandbase';

/** Compiled argument checks, once per tool schema for the process. */
const checks = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkOf(schema: TSchema): TypeCheck<TSchema> {
  let check = checks.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    checks.set(schema, check);
  }
  return check;
}

export interface McpServerOptions {
  version: string;
  logger?: Logger;
}

export function createMcpServer(tools: readonly McpTool[], deps: McpToolDeps, caller: McpCaller, options: McpServerOptions): Server {
  const server = new Server({ name: MCP_SERVER_NAME, version: options.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema as unknown as { type: 'object'; [k: string]: unknown } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    const check = checkOf(tool.inputSchema);
    if (!check.Check(args)) {
      const first = check.Errors(args).First();
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${first ? `${first.path || '/'} ${first.message}` : 'do not match the schema'}`);
    }
    try {
      return toolResult(await tool.call(args, deps, caller));
    } catch (error) {
      return toolError(error, tool.name, options.logger);
    }
  });
  return server;
}

function toolResult(answer: ToolAnswer): CallToolResult {
  return {
    content: [{ type: 'text', text: answer.text }],
    ...(answer.structured ? { structuredContent: answer.structured } : {}),
    _meta: { 'brandbase/cost': answer.cost, ...(answer.usage ? { 'brandbase/usage': { quota: answer.usage.quota, approximateUsed: answer.usage.approximateUsed } } : {}) },
  };
}

/** The route's error answer as a tool error: code, status and message (docs/errors.md), never internals. */
function toolError(error: unknown, tool: string, logger: Logger | undefined): CallToolResult {
  const api = error instanceof ApiError ? error : null;
  if (!api) logger?.error({ err: error, tool }, 'MCP tool failed');
  const code = api?.code ?? 'internal_error';
  const body = {
    code,
    status: api?.status ?? ERROR_CODES.internal_error.status,
    message: api?.message ?? ERROR_CODES.internal_error.message,
    retryable: api?.retryable ?? true,
    ...(api?.headers['retry-after'] ? { retryAfterSeconds: Number(api.headers['retry-after']) } : {}),
    ...(api && typeof api.body['reason'] === 'string' ? { reason: api.body['reason'] } : {}),
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], _meta: { 'brandbase/error': code, 'brandbase/cost': 0 } };
}
