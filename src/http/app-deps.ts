import type { Authenticator } from '../billing/authenticator.js';
import type { Billing } from '../billing/billing.js';
import type { AssetStore } from '../assets/asset-store.js';
import type { Logger } from '../platform/logger.js';
import type { MetricsRegistry } from '../platform/metrics.js';
import type { X402Payments } from '../payments/x402-payments.js';
import type { MppPayments } from '../payments/mpp-payments.js';
import type { StandingAccess } from '../payments/standing-access.js';
import type { UseCaseDeps } from '../usecases/use-case-deps.js';
import type { CdnDeps } from './cdn/cdn-deps.js';
import type { SearchUseCaseDeps } from '../usecases/search-brands.js';
import type { WebhookManagement } from '../webhooks/management/webhook-management.js';
import type { McpDeps } from '../mcp/mcp-tools.js';
import type { BrandPageDeps } from './pages/brand/brand-page-deps.js';
import type { OrgPagesDeps } from './pages/dashboard/org-pages-deps.js';
import type { DashboardAccounts } from '../dashboard-accounts/dashboard-accounts.js';
import type { Accounts } from '../billing/accounts.js';

/** Everything the HTTP layer needs; main/ builds it from Config. Routes parse, call one use case, shape the answer. */
export interface AppDeps {
  logger: Logger;
  publicUrl: string;
  /** Whose X-Forwarded-For gives the client address (`request.ip`): Config.trustProxy; unset trusts none. */
  trustProxy?: boolean | string[];
  authenticator: Authenticator;
  /**
   * Admission of API-key payers (plan, credits, throughput), read only where a credential becomes a payer
   * (credentials.ts, mcp-route.ts); issue 31 item 1 moves that into the one credential-to-payer path.
   */
  billing: Billing;
  /** An organization's usage this period (the viewer and the dashboard's overview). */
  orgUsage: Pick<Billing, 'usage'>;
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
  /** Pay-per-request over x402 (ADR 0028); null when payments are off (BRANDBASE_PAYMENTS=off). */
  payments?: X402Payments | null;
  /** Pay-per-request over MPP (`Authorization: Payment`); null when off. */
  mpp?: MppPayments | null;
  /** Standing access (`POST /v2/agents/access`, ADR 0029); `noStandingAccess` (501) when payments are off. */
  access: StandingAccess;
  /** Webhook management behind `POST /graphql`. */
  webhooks: WebhookManagement;
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
