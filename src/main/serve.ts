import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { CrawlFailedError } from '../domain/crawl-failures.js';
import { buildApp } from '../http/app.js';
import { buildCdnApp } from '../http/cdn/build-cdn-app.js';
import { buildMetricsApp } from '../http/metrics-app.js';
import { JOB_NAMES, type CrawlBrandPayload, type PaletteRenderPayload } from '../jobs/queue.js';
import { PaletteRenderJob } from '../palette/palette-render-job.js';
import { WorkerPool } from '../jobs/worker-pool.js';
import { JobRetention } from '../jobs/job-retention.js';
import type { Logger } from '../platform/logger.js';
import { appDepsFor } from './app-deps.js';
import { cdnDepsFor } from './cdn-deps.js';
import { createServices, type Services } from './services.js';

export interface RunningServer {
  services: Services;
  app: FastifyInstance | null;
  pool: WorkerPool | null;
  /** `http://host:port` the API listens on, or null for a worker-only process. */
  address: string | null;
  /** The logo CDN's own listener (BRANDBASE_CDN_PORT); null when the API's listener serves it, or no API runs. */
  cdnApp: FastifyInstance | null;
  /** `http://host:port` of that listener, or null. */
  cdnAddress: string | null;
  /** `http://host:port` of the metrics listener (BRANDBASE_METRICS_PORT, API and worker processes alike), or null. */
  metricsAddress: string | null;
  /** Graceful stop: in-flight requests finish, running jobs finish or go back to the queue. */
  close(): Promise<void>;
}

/** `paletteRenderTimeoutMs`: the background render's cap, the crawl's own render cap unless a test on a loaded machine widens it. */
export function createWorkerPool(services: Services, options: { paletteRenderTimeoutMs?: number } = {}): WorkerPool {
  // The palette's background render (ADR 0023) runs here, in the worker pool, never on a request's path.
  const paletteRender = new PaletteRenderJob({
    store: services.stores.brands, palettes: services.stores.palette, renderer: () => services.renderer(), logger: services.logger, enabled: services.config.paletteRender,
    ...(options.paletteRenderTimeoutMs !== undefined ? { timeoutMs: options.paletteRenderTimeoutMs } : {}),
  });
  return new WorkerPool(
    services.queue,
    {
      [JOB_NAMES.crawlBrand]: async (job) => {
        const { domain, requestId } = job.payload as CrawlBrandPayload;
        // The pool logs a failed attempt in one line (domain, reason, attempt), so the indexer does not. The request
        // that queued the crawl, if any, is named in the indexer's lines as in the API's (`reqId`, ADR 0039).
        const outcome = await services.indexer.index(domain, { retry: job.attempts > 1, owner: job.owner, logFailure: false, ...(requestId === undefined ? {} : { requestId }) });
        // The pool retries the job only when the reason is retryable (domain/crawl-failures.ts).
        if (!outcome.ok) throw new CrawlFailedError(domain, outcome.reason);
      },
      [JOB_NAMES.paletteRender]: async (job) => void (await paletteRender.run(job.payload as PaletteRenderPayload)),
    },
    services.logger,
    { concurrency: services.config.workerConcurrency, leaseMs: services.config.jobLeaseMs },
  );
}

export async function serve(config: Readonly<Config>, logger: Logger, roles: { api: boolean; worker: boolean }): Promise<RunningServer> {
  const services = await createServices(config, logger);
  await services.warmCrawler();
  const pool = roles.worker && config.workerConcurrency > 0 ? createWorkerPool(services) : null;
  if (pool) services.onJobQueued(() => pool.notify());
  pool?.start();
  // Finished jobs past their retention are deleted wherever jobs run (ADR 0041).
  const retention = pool && config.jobRetentionMs !== null ? new JobRetention(services.queue, logger, { retentionMs: config.jobRetentionMs, everyMs: 10 * 60_000 }) : null;
  retention?.start();
  // Webhook fan-out and delivery run wherever crawl workers do (ADR 0031).
  if (roles.worker) await services.webhookDelivery.start();
  // Scheduled refresh (docs/refresh.md): every crawling process runs it; one at a time leads, through a store lease.
  if (pool && config.refresh.enabled) services.refresh.start();
  let app: FastifyInstance | null = null;
  let address: string | null = null;
  let cdnApp: FastifyInstance | null = null;
  let cdnAddress: string | null = null;
  if (roles.api) {
    // Before the first request fills the cache: brands other processes write from now on are dropped from it.
    await services.cacheSync.start();
    // Payments a stopped process verified but never settled: record what the ledger did move, forget what expired.
    const reconciled = await services.payments?.reconcile(120_000);
    if (reconciled && reconciled.recorded + reconciled.released > 0) logger.warn(reconciled, 'reconciled unsettled payment claims');
    app = await buildApp(appDepsFor(services));
    address = await app.listen({ port: config.port, host: config.host });
    // The logo CDN on its own port (ADR 0034), so it can sit behind a CDN with nothing else exposed.
    if (config.cdn.port !== null) {
      cdnApp = await buildCdnApp(cdnDepsFor(services, services.clientIdGate));
      cdnAddress = await cdnApp.listen({ port: config.cdn.port, host: config.host });
    }
    logger.info({ address: cdnAddress ?? address, path: config.cdn.path || '/', host: config.cdn.host, baseUrl: config.cdn.baseUrl }, 'logo CDN serving');
  }
  // The metrics port (ADR 0039): every process has one when configured, so worker-only processes are scraped too.
  const metricsApp = config.metrics.port === null ? null : await buildMetricsApp({ logger, registry: services.metrics, ping: () => services.backends.ping(), pingQueue: async () => void (await services.queue.depth()) });
  const metricsAddress = metricsApp ? await metricsApp.listen({ port: config.metrics.port ?? 0, host: config.host }) : null;
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // A keep-alive connection that is busy when shutdown starts must close once its response is sent; otherwise
      // close() waits for it until the keep-alive timeout. Idle connections are closed as they become idle.
      const reaper = app ? setInterval(() => [app, cdnApp].forEach((a) => a?.server.closeIdleConnections()), 50) : null;
      await Promise.all([app?.close(), cdnApp?.close(), metricsApp?.close()]);
      if (reaper) clearInterval(reaper);
      logger.info('http server closed');
      // Before the pool: nothing is queued while it drains, and another process takes the lease at once.
      await services.refresh.stop();
      await pool?.stop(config.shutdownGraceMs);
      await retention?.stop();
      await services.webhookDelivery.stop(config.shutdownGraceMs);
      logger.info('workers stopped');
      await services.close();
      logger.info('store closed');
    })();
    return closing;
  };
  return { services, app, pool, address, cdnApp, cdnAddress, metricsAddress, close };
}
