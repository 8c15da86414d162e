import type { Organization } from '../domain/accounts.js';
import type { AssetStore } from '../assets/asset-store.js';
import type { Logger } from '../platform/logger.js';
import type { MetricsRegistry } from '../platform/metrics.js';
import type { StandingAccess } from '../payments/standing-access.js';
import type { UseCaseDeps } from '../usecases/use-case-deps.js';
import type { CdnDeps } from './cdn/cdn-deps.js';
import type { SearchUseCaseDeps } from '../usecases/search-brands.js';
import type { WebhookManagement } from '../webhooks/management/webhook-management.js';
import type { McpDeps } from '../mcp/mcp-tools.js';
import type { BrandPageDeps } from './pages/brand/brand-page-deps.js';
import type { OrgPagesDeps } from './pages/dashboard/org-pages-deps.js';
import type { ActiveSession, DashboardAccounts } from '../dashboard-accounts/dashboard-accounts.js';
import type { CredentialPayers } from '../usecases/credential-payer.js';
import type { Accounts } from '../billing/accounts.js';
import type { MerchantCorrections } from '../transactions/corrections/merchant-corrections.js';

export interface GraphqlCostLimits {
  maxCost: number;
  spend(orgId: string, cost: number): number;
}

/** Everything the HTTP layer needs; main/ builds it from Config. Routes parse, call one use case, shape the answer. */
export interface AppDeps {
  logger: Logger;
  publicUrl: string;
  /** Whose X-Forwarded-For gives the client address (`request.ip`): Config.trustProxy; unset trusts none. */
  trustProxy?: boolean | string[];
  /**
   * The one credential-to-payer resolver (usecases/credential-payer.ts), built once by main/: API keys, MCP tokens,
   * dashboard sessions (bearer and cookie), x402 and MPP payments (`noPayments` when off), and the admission of keyed
   * payers. Routes, the viewer, GraphQL, the MCP server and the dashboard all go through it.
   */
  credentials: CredentialPayers<ActiveSession>;
  /** An organization's usage this period (the viewer and the dashboard's overview). */
  orgUsage: { usage(org: Organization): Promise<{ used: number; quota: number }> };
  usecases: UseCaseDeps;
  assets: AssetStore;
  /** Readiness probe: resolves when the store answers. */
  ping: () => Promise<void>;
  /** Readiness probe of the job queue (`/readyz`); the store's probe stands in when absent. */
  pingQueue?: () => Promise<void>;
  /**
   * The process's metrics (ADR 0039; `NO_METRICS` records nothing): requests are counted, and `GET /metrics` answers
   * with `token` as its bearer token (a null token: no token is accepted; the metrics port, http/metrics-app.ts,
   * serves them).
   */
  metrics: { registry: MetricsRegistry; token: string | null };
  /** An oversize request body is read and discarded up to this many bytes before its 413 (body-limit.ts). */
  discardBodyMaxBytes: number;
  /** Standing access (`POST /v2/agents/access`, ADR 0029); `noStandingAccess` (501) when payments are off. */
  access: StandingAccess;
  /** Webhook management behind `POST /graphql`. */
  webhooks: WebhookManagement;
  /**
   * Organizations' merchant corrections (issue 34): `/v2/transactions/corrections`, GraphQL and the dashboard's
   * corrections page; the transaction use case reads them through `usecases.corrections`.
   */
  corrections: MerchantCorrections;
  /**
   * Bounds of `POST /graphql` (issue 33): `maxCost` per request, and `spend`, which takes a request's cost from its
   * organization's per-minute allowance (main/ wires it to a token bucket): 0 when taken, else the milliseconds until
   * it would be (Infinity: never).
   */
  graphql: GraphqlCostLimits;
  /** Search by name with a client ID (GET /v2/search/{name}). */
  search: SearchUseCaseDeps;
  /** The logo CDN served by this app (under its path prefix or host name); null or absent when it has its own port. */
  cdn?: CdnDeps | null;
  /** The MCP server at /mcp (ADR 0037). */
  mcp: McpDeps;
  /** The public brand pages `/brands/{domain}` and `/brands?q=` (ADR 0044). */
  brandPages: BrandPageDeps;
  /** Dashboard accounts and sessions (issue 23, ADR 0043): /dashboard and session tokens on /v2/viewer. */
  dashboard: DashboardAccounts;
  /** Organizations and API keys (the dashboard's keys page creates and revokes keys through it). */
  accounts: Accounts;
  /** The dashboard's organization pages beyond keys (client IDs, usage, billing, webhooks, payments; issue 23). */
  orgPages: OrgPagesDeps;
}
