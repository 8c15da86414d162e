/**
 * The billable routes and MCP tools the shared route tests (common-route-tests.ts) run on, each with the request it
 * makes for one fixture brand, and what the spec says it answers without a credential. The app says which routes
 * and tools are billable (`config: { billable: true }`, src/http/route-registry.ts; `billable` on an MCP tool);
 * billable-route-coverage.test.ts fails when the app flags one that is not listed here.
 */
import type { RegisteredRoute } from '../../src/http/route-registry.js';

/** A brand the suite saves before it starts, held under every identifier kind a route takes. */
export interface FixtureBrand {
  domain: string;
  name: string;
  ticker: string;
  isin: string;
  crypto: string;
  /** A card descriptor the transaction matcher reads as this brand. */
  descriptor: string;
}

export interface RouteRequest {
  path: string;
  /** A JSON body (POST routes). */
  body?: unknown;
}

export interface BillableRouteCase {
  method: 'GET' | 'POST';
  /** The URL pattern as the app registers it (RegisteredRoute.url). */
  pattern: string;
  /** The route template the 402 body and the payments ledger name (never the identifier asked for). */
  template: string;
  /**
   * Spec 5.2.1: a request to /v2/brands/*, /v2/context/* or POST /v2/brands/transaction without key or payment
   * answers 402 with both challenges, and a payment pays for it. The batch answers 401 instead (spec 7.1).
   */
  payable: boolean;
  /**
   * The request names the brand by its domain, so the operator's own domain holds no credit at all and is answered
   * even with the quota used up (docs/billing.md); by a ticker or a descriptor the brand is known only once found:
   * one credit is held, and released since the operator's brand costs nothing.
   */
  namesDomain: boolean;
  request(brand: FixtureBrand): RouteRequest;
}

const typed = (type: 'domain' | 'ticker' | 'isin' | 'crypto', brand: FixtureBrand): string =>
  type === 'domain' ? brand.domain : type === 'ticker' ? brand.ticker : type === 'isin' ? brand.isin : brand.crypto;

const TYPES = ['domain', 'ticker', 'isin', 'crypto'] as const;

export const BILLABLE_ROUTES: readonly BillableRouteCase[] = [
  { method: 'GET', pattern: '/v2/brands/*', template: '/v2/brands/{identifier}', payable: true, namesDomain: true, request: (b) => ({ path: `/v2/brands/${b.domain}` }) },
  ...TYPES.map(
    (type): BillableRouteCase => ({
      method: 'GET',
      pattern: `/v2/brands/${type}/:identifier`,
      template: `/v2/brands/${type}/{identifier}`,
      payable: true,
      namesDomain: type === 'domain',
      request: (b) => ({ path: `/v2/brands/${type}/${typed(type, b)}` }),
    }),
  ),
  // Industries are charged like a lookup (docs/spec-decisions.md 21) and live under /v2/brands/* (spec 5.2.1).
  {
    method: 'GET',
    pattern: '/v2/brands/:identifier/company/industries',
    template: '/v2/brands/{identifier}/company/industries',
    payable: true,
    namesDomain: true,
    request: (b) => ({ path: `/v2/brands/${b.domain}/company/industries` }),
  },
  ...TYPES.map(
    (type): BillableRouteCase => ({
      method: 'GET',
      pattern: `/v2/brands/${type}/:identifier/company/industries`,
      template: `/v2/brands/${type}/{identifier}/company/industries`,
      payable: true,
      namesDomain: type === 'domain',
      request: (b) => ({ path: `/v2/brands/${type}/${typed(type, b)}/company/industries` }),
    }),
  ),
  { method: 'GET', pattern: '/v2/context/*', template: '/v2/context/{identifier}', payable: true, namesDomain: true, request: (b) => ({ path: `/v2/context/${b.domain}` }) },
  {
    method: 'POST',
    pattern: '/v2/brands/transaction',
    template: '/v2/brands/transaction',
    payable: true,
    namesDomain: false,
    request: (b) => ({ path: '/v2/brands/transaction', body: { transactionLabel: b.descriptor, countryCode: 'US' } }),
  },
  { method: 'POST', pattern: '/v2/brands/batch', template: '/v2/brands/batch', payable: false, namesDomain: true, request: (b) => ({ path: '/v2/brands/batch', body: { identifiers: [b.domain] } }) },
];

export interface BillableToolCase {
  name: string;
  /** As BillableRouteCase.namesDomain. */
  namesDomain: boolean;
  arguments(brand: FixtureBrand): Record<string, unknown>;
}

export const BILLABLE_TOOLS: readonly BillableToolCase[] = [
  { name: 'get_brand', namesDomain: true, arguments: (b) => ({ identifier: b.domain }) },
  { name: 'get_brand_context', namesDomain: true, arguments: (b) => ({ identifier: b.domain, format: 'json' }) },
  { name: 'enrich_transaction', namesDomain: false, arguments: (b) => ({ transactionLabel: b.descriptor, countryCode: 'US' }) },
];

export const routeKey = (route: Pick<RegisteredRoute, 'method' | 'url'>): string => `${route.method} ${route.url}`;

/** The routes the app flags billable that the shared route tests do not run on. */
export function uncoveredBillableRoutes(routes: readonly RegisteredRoute[]): string[] {
  const covered = new Set(BILLABLE_ROUTES.map((r) => routeKey({ method: r.method, url: r.pattern })));
  return routes.filter((r) => r.billable && !covered.has(routeKey(r))).map(routeKey);
}
