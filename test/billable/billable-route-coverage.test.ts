/**
 * Adding a billable route without the shared route tests fails here. The app says which of its routes and MCP tools
 * are billable (`config: { billable: true }`, src/http/route-registry.ts; `billable` on an MCP tool); every one must
 * be a case of the shared suite (billable-routes.ts), and every other route must be free for a reason listed below,
 * so a new route is either flagged and covered, or named here as free.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordRoutes, routesOf, type RegisteredRoute } from '../../src/http/route-registry.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { mcpTools } from '../../src/mcp/mcp-tools.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { BILLABLE_ROUTES, BILLABLE_TOOLS, routeKey, uncoveredBillableRoutes } from './billable-routes.js';

/** The routes that charge nothing, and why. */
const FREE_ROUTES: readonly { match: RegExp; why: string }[] = [
  { match: /^HEAD \/v2\/brands\//, why: 'availability and prefetch: HEAD never consumes a credit (spec 4.2, 8)' },
  { match: /^GET \/v2\/viewer$/, why: 'the viewer never consumes a credit (spec 4.4)' },
  { match: /^GET \/v2\/search\/:name$/, why: 'search takes a client ID and counts its allowance, never a key, credit or payment (spec 5.4, docs/search.md)' },
  { match: /^GET \/logo\//, why: 'the logo CDN takes a client ID and counts its allowance (spec 5.4, docs/logo-cdn.md)' },
  { match: /^(GET|HEAD|POST) \/v2\/agents\/access$/, why: 'standing access sells credits for a payment of its own (spec 5.3)' },
  { match: /^(POST|GET|DELETE) \/mcp$/, why: 'the MCP endpoint itself; its billable tools are covered as tools' },
  { match: /^POST \/graphql$/, why: 'webhook management (spec 6) and merchant corrections' },
  { match: /^(GET|POST) \/v2\/transactions\/corrections$|^DELETE \/v2\/transactions\/corrections\/:id$/, why: "an organization's merchant corrections: managing them costs no credit (docs/transactions.md#corrections)" },
  { match: /^(GET|HEAD) \/(docs|openapi\.json)/, why: 'documentation' },
  { match: /^GET \/(healthz|readyz|metrics)$/, why: 'health and metrics' },
  { match: /^GET \/assets\/:key$/, why: 'asset files, linked from records already paid for' },
  { match: /^GET \/brands/, why: 'public brand pages: held brands only, never a credit (docs/dashboard.md#brand-pages)' },
  { match: /^(GET|POST) \/dashboard/, why: 'the dashboard, behind a session' },
];

/** The MCP tools that charge no credit, and why. */
const FREE_TOOLS: Readonly<Record<string, string>> = {
  brand_search: "counted on the organization's search allowance through its client ID, as the search route (docs/mcp.md)",
  build_logo_urls: 'builds URLs only; the logo CDN counts the images it serves (docs/mcp.md)',
};

/** Routes neither flagged billable nor listed free. */
function unexplainedRoutes(routes: readonly RegisteredRoute[]): string[] {
  return routes.filter((r) => !r.billable && !FREE_ROUTES.some((free) => free.match.test(routeKey(r)))).map(routeKey);
}

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

describe('the shared route tests cover every billable route', () => {
  it('every route the app flags billable is a case of the shared suite', () => {
    expect(routesOf(stack.app).filter((r) => r.billable).length).toBeGreaterThan(0);
    expect(uncoveredBillableRoutes(routesOf(stack.app))).toEqual([]);
  });

  it('every case of the shared suite is a route the app flags billable', () => {
    const flagged = new Set(routesOf(stack.app).filter((r) => r.billable).map(routeKey));
    expect(BILLABLE_ROUTES.map((r) => routeKey({ method: r.method, url: r.pattern })).filter((key) => !flagged.has(key))).toEqual([]);
  });

  it('every other route is free for a reason listed here', () => {
    expect(unexplainedRoutes(routesOf(stack.app))).toEqual([]);
  });

  it('a billable route added without the shared tests is reported, and so is a new route flagged neither way', async () => {
    // As the app builds it (http/app.ts): no implicit HEAD beside a GET.
    const app = Fastify({ exposeHeadRoutes: false });
    recordRoutes(app);
    app.get('/v2/brands/:identifier/logo-history', { config: { billable: true } }, () => ({}));
    app.get('/v2/brands/:identifier/socials', () => ({}));
    await app.ready();
    expect(uncoveredBillableRoutes(routesOf(app))).toEqual(['GET /v2/brands/:identifier/logo-history']);
    expect(unexplainedRoutes(routesOf(app))).toEqual(['GET /v2/brands/:identifier/socials']);
    await app.close();
  });
});

describe('the shared route tests cover every billable MCP tool', () => {
  it('the tools flagged billable are the suite\'s tool cases; every other tool is free for a reason listed here', () => {
    const deps = appDepsFor(stack.services).mcp;
    if (!deps) throw new Error('the MCP server is not configured');
    const tools = mcpTools(deps.tools);
    expect(tools.length).toBe(5);
    expect(tools.filter((t) => t.billable).map((t) => t.name).sort()).toEqual(BILLABLE_TOOLS.map((t) => t.name).sort());
    expect(tools.filter((t) => !t.billable && FREE_TOOLS[t.name] === undefined).map((t) => t.name)).toEqual([]);
  });
});
