/**
 * The MCP server's tools (docs/mcp.md, ADR 0037), transport-free: each has a JSON Schema (TypeBox) and calls the
 * same use case as the HTTP route it stands for, through the same payer, so it is billed exactly like that route:
 *
 *   get_brand           GET /v2/brands/{identifier}       usecases/lookup-brand.ts    one credit per brand returned
 *   get_brand_context   GET /v2/context/{identifier}      usecases/brand-context.ts   one credit per context returned
 *   enrich_transaction  POST /v2/brands/transaction       usecases/enrich-transaction.ts  one credit per brand returned
 *   brand_search        GET /v2/search/{name}?c=…         usecases/search-brands.ts   the organization's search allowance
 *   build_logo_urls     logo CDN URLs (docs/logo-cdn.md)  mcp/logo-url-builder.ts     free (the CDN counts what it serves)
 *
 * A tool call that is refused or fails answers a tool error (`isError`) carrying the error code, status and message
 * of the route's answer (docs/errors.md), so an agent reads it; nothing is charged for it.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ApiError } from '../domain/errors.js';
import { detectedReadings, domainReadings } from '../usecases/identifier-readings.js';
import { contextMarkdown } from '../context/context-markdown.js';
import { brandContext } from '../usecases/brand-context.js';
import { lookupBrand } from '../usecases/lookup-brand.js';
import { enrichTransaction } from '../usecases/enrich-transaction.js';
import type { Payer, UsageSnapshot } from '../usecases/payer.js';
import { searchBrands, type SearchUseCaseDeps } from '../usecases/search-brands.js';
import type { UseCaseDeps } from '../usecases/use-case-deps.js';
import { buildLogoUrls } from './logo-url-builder.js';

/** What the tools run on; main/ builds it once. */
export interface McpToolDeps {
  publicUrl: string;
  usecases: UseCaseDeps;
  /** Search by name; the tool is not offered without it. */
  search: SearchUseCaseDeps | null;
  /** The organization's first active client ID: search and logo URLs are counted on it, as on their routes. */
  clientIdOf(orgId: string): Promise<string | undefined>;
  /** Public base of logo CDN URLs (no trailing slash); the tool is not offered without it. */
  logoBaseUrl: string | null;
}

/**
 * What the MCP endpoint needs (http/mcp-route.ts); main/ builds it. Its callers are authenticated by the one
 * credential-to-payer resolver (AppDeps.credentials), which holds the MCP tokens.
 */
export interface McpDeps {
  tools: McpToolDeps;
  /** Reported as the server's version in `initialize`. */
  version: string;
}

/** The caller of one tool call, as the transport authenticated it. */
export interface McpCaller {
  orgId: string;
  /** The caller's address (the search gate's per-address limit). */
  ip: string;
  /** The payer of a charged call, admitted as the route admits it (403 no credits or plan, 429 throughput). */
  payer(): Promise<Payer>;
}

/** A tool's answer: the text an agent reads, the same facts as structured content, and what it cost. */
export interface ToolAnswer {
  text: string;
  structured?: Record<string, unknown>;
  cost: number;
  usage: UsageSnapshot | null;
}

export interface McpToolDefinition<S extends TSchema> {
  name: string;
  title: string;
  description: string;
  /** Charges credits like its route: covered by the shared route tests of billable routes (test/billable/). */
  billable?: boolean;
  inputSchema: S;
  call(args: Static<S>, deps: McpToolDeps, caller: McpCaller): Promise<ToolAnswer>;
}

/** A tool as the server holds it: `call` takes arguments the server checked against `inputSchema`. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  billable?: boolean;
  inputSchema: TSchema;
  call(args: unknown, deps: McpToolDeps, caller: McpCaller): Promise<ToolAnswer>;
}

function defineTool<S extends TSchema>(tool: McpToolDefinition<S>): McpTool {
  return { ...tool, call: (args, deps, caller) => tool.call(args as Static<S>, deps, caller) };
}

const Identifier = Type.String({ minLength: 1, maxLength: 2048, description: 'domain (acme.com), website URL, email address, brand ID, stock or ETF ticker, ISIN or crypto symbol' });

function notFound(message: string, reason?: string): never {
  throw new ApiError('not_found', message, reason ? { reason } : {});
}

const GetBrandInput = Type.Object(
  {
    identifier: Identifier,
    cachedOnly: Type.Optional(Type.Boolean({ description: 'answer from what is held only; never crawl (free when nothing is held)' })),
    allowNsfw: Type.Optional(Type.Boolean({ description: 'false: adult brands answer not found; true or unset: returned, flagged isNsfw' })),
    palette: Type.Optional(Type.Boolean({ description: 'add the color palette (beta)' })),
  },
  { additionalProperties: false },
);

const getBrand = defineTool({
  name: 'get_brand',
  billable: true,
  title: 'Get brand',
  description:
    'The brand record of a company (name, descriptions, logos with URLs, colors, fonts, images, links, company facts, industries) for a domain, website URL, email address, brand ID, ticker, ISIN or crypto symbol. A brand not held yet is indexed live from its website (a few seconds). Costs one credit when a brand is returned.',
  inputSchema: GetBrandInput,
  async call(args, deps, caller) {
    const payer = await caller.payer();
    const { value, cost, usage } = await lookupBrand(deps.usecases, payer, { readings: detectedReadings(args.identifier), cachedOnly: args.cachedOnly ?? false, allowNsfw: args.allowNsfw, palette: args.palette ?? false });
    if (value.status === 'not_indexed') return { text: 'This brand is not indexed yet (cachedOnly: nothing was crawled).', structured: { status: 'not_indexed' }, cost, usage };
    if (value.status === 'not_found') notFound(value.message, value.reason);
    const record = typeof value.record === 'string' ? value.record : value.record.toString('utf8');
    return { text: record, structured: JSON.parse(record) as Record<string, unknown>, cost, usage };
  },
});

const ContextInput = Type.Object(
  {
    identifier: Type.String({ minLength: 1, maxLength: 2048, description: 'domain, website URL or email address of the company' }),
    format: Type.Optional(Type.Union([Type.Literal('markdown'), Type.Literal('json')], { description: 'markdown (default, for a prompt) or json' })),
    cachedOnly: Type.Optional(Type.Boolean({ description: 'answer from what is held only; never crawl' })),
  },
  { additionalProperties: false },
);

const getBrandContext = defineTool({
  name: 'get_brand_context',
  billable: true,
  title: 'Get brand context',
  description:
    "A compact profile of a company for a prompt: tagline, mission, description, value proposition, target audiences, products and services, voice and style, with links to its logos and colors. Every text is quoted from the company's own website (null where the site does not say it). Costs one credit when a context is returned.",
  inputSchema: ContextInput,
  async call(args, deps, caller) {
    const readings = domainReadings(args.identifier);
    const payer = await caller.payer();
    const { value, cost, usage } = await brandContext(deps.usecases, payer, { readings, cachedOnly: args.cachedOnly ?? false });
    if (value.status === 'not_indexed') return { text: 'No context is held for this brand yet (cachedOnly: nothing was crawled).', structured: { status: 'not_indexed' }, cost, usage };
    if (value.status === 'not_found') notFound(value.message, value.reason);
    const structured = value.context as unknown as Record<string, unknown>;
    return { text: args.format === 'json' ? JSON.stringify(value.context) : contextMarkdown(value.context), structured, cost, usage };
  },
});

const TransactionInput = Type.Object(
  {
    transactionLabel: Type.String({ minLength: 1, maxLength: 256, pattern: '\\S', description: 'the raw card descriptor as the statement prints it, e.g. "SQ *BLUE BOTTLE COF 4"' }),
    countryCode: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166 alpha-2 country of the transaction' }),
    mcc: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', description: 'ISO 18245 merchant category code, four digits' })),
    city: Type.Optional(Type.String({ maxLength: 100, description: 'city of the transaction, when known' })),
  },
  { additionalProperties: false },
);

const enrichTransactionTool = defineTool({
  name: 'enrich_transaction',
  billable: true,
  title: 'Enrich a card transaction',
  description:
    'The merchant behind a raw card descriptor ("AMZN Mktp US*2K4", "PAYPAL *SPOTIFY") as its full brand record, with how confident the match is, the alias it matched and the payment processor that carried the payment (paymentProcessor, e.g. "paypal", or null). Payments to people, transfers between accounts, fees, interest, cash, cheques and pay name no merchant. No confident match answers an error (a retry will not change it). Your organization\'s merchant corrections decide before any rule (match source `correction`). Costs one credit when a brand is returned.',
  inputSchema: TransactionInput,
  async call(args, deps, caller) {
    const payer = await caller.payer();
    const request = { transactionLabel: args.transactionLabel.trim(), countryCode: args.countryCode.toUpperCase(), mcc: args.mcc, city: args.city?.trim() || undefined };
    const { value, cost, usage } = await enrichTransaction(deps.usecases, payer, request);
    const record = typeof value.record === 'string' ? value.record : value.record.toString('utf8');
    // `paymentProcessor`: the route's `x-bf-payment-processor` header (null when it is not sent). A correction's answer
    // names it (source `correction` or `operator`), as the route's x-bf-match-source does.
    const { domain, name, confidence, alias, source, processor, correctionId } = value.match;
    const match = { domain, name, confidence, alias, source, paymentProcessor: processor ?? null, ...(correctionId === undefined ? {} : { correctionId }) };
    return { text: JSON.stringify({ match, brand: JSON.parse(record) as unknown }), structured: { match, brand: JSON.parse(record) as Record<string, unknown> }, cost, usage };
  },
});

const SearchInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'a company or brand name, or its beginning' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, description: 'at most this many results (default 10)' })),
  },
  { additionalProperties: false },
);

const brandSearch = defineTool({
  name: 'brand_search',
  title: 'Search brands by name',
  description: "Brands and listed companies whose name matches, best first, with their domain (pass it to get_brand or get_brand_context). Counted on the organization's search allowance, not on credits.",
  inputSchema: SearchInput,
  async call(args, deps, caller) {
    if (!deps.search) throw new ApiError('route_not_found');
    const clientId = await deps.clientIdOf(caller.orgId);
    // The organization's client ID admits the search, as `?c=` does on the route (never the API key itself).
    const answer = await searchBrands(deps.search, { clientId, ip: caller.ip, referrerHost: undefined, apiKeySent: false }, { name: args.name, limit: args.limit ?? 10 }, `${deps.publicUrl}/docs/search`);
    const structured = { results: answer.hits, overAllowance: answer.overAllowance };
    return { text: JSON.stringify(structured), structured, cost: 0, usage: null };
  },
});

const LogoInput = Type.Object(
  {
    identifier: Identifier,
    type: Type.Optional(Type.Union([Type.Literal('icon'), Type.Literal('logo'), Type.Literal('symbol')], { description: 'one logo type; all three when unset' })),
    theme: Type.Optional(Type.Union([Type.Literal('light'), Type.Literal('dark')], { description: "the logo's theme as in records (dark logos for light backgrounds)" })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1024, description: 'square side in pixels' })),
    format: Type.Optional(Type.Union([Type.Literal('png'), Type.Literal('webp'), Type.Literal('jpg'), Type.Literal('svg')], { description: 'png (default), webp, jpg, or svg (logo and symbol only)' })),
    fallback: Type.Optional(Type.Union([Type.Literal('default'), Type.Literal('transparent'), Type.Literal('lettermark'), Type.Literal('404')], { description: 'what the CDN serves when the brand has no such logo' })),
  },
  { additionalProperties: false },
);

const buildLogoUrlsTool = defineTool({
  name: 'build_logo_urls',
  title: 'Build logo URLs',
  description: "Logo CDN image URLs for a company (for an <img> tag or a document), carrying the organization's client ID. Free: nothing is looked up; the CDN counts each image it serves on the logo allowance.",
  inputSchema: LogoInput,
  async call(args, deps, caller) {
    if (!deps.logoBaseUrl) throw new ApiError('route_not_found');
    const built = buildLogoUrls(deps.logoBaseUrl, args, await deps.clientIdOf(caller.orgId));
    const structured = { ...built };
    return { text: JSON.stringify(structured), structured, cost: 0, usage: null };
  },
});

/** The tools this server offers with these deps (search and logo URLs only where their product is served). */
export function mcpTools(deps: McpToolDeps): McpTool[] {
  const tools = [getBrand, brandSearch, getBrandContext, enrichTransactionTool, buildLogoUrlsTool];
  return tools.filter((t) => (t.name !== 'brand_search' || deps.search) && (t.name !== 'build_logo_urls' || deps.logoBaseUrl));
}
