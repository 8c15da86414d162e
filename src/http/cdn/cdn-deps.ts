import type { LogoCdn } from '../../cdn/logo-cdn.js';
import type { ClientIdGate } from '../../domain/client-ids.js';
import type { Logger } from '../../platform/logger.js';
import type { MetricsRegistry } from '../../platform/metrics.js';

/** What the logo CDN's HTTP layer needs; main/ builds it from the services (main/cdn-deps.ts). */
export interface CdnDeps {
  logger: Logger;
  /** The API's public URL: documentation links in refusals point at its /docs. */
  publicUrl: string;
  cdn: LogoCdn;
  /** Admits `?c=CLIENT_ID` for the product `logo` (billing/, issue 20). */
  gate: ClientIdGate;
  /** Path prefix of CDN URLs ('' or `/logo`). */
  path: string;
  /** On the API's listener: the one host name the CDN answers for (null: any). Ignored by buildCdnApp. */
  host: string | null;
  /** Counts the CDN listener's requests (BRANDBASE_CDN_PORT) like the API's (ADR 0039); `NO_METRICS`: not counted. */
  metrics: MetricsRegistry;
}
