import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { CrawlFailedError } from '../domain/crawl-failures.js';
import { buildApp } from '../http/app.js';
import { JOB_NAMES, type CrawlBrandPayload } from '../jobs/queue.js';
import { WorkerPool } from '../jobs/worker-pool.js';
import type { Logger } from '../platform/logger.js';
import { appDepsFor } from './app-deps.js';
import { createServices, type Services } from './services.js';

export interface RunningServer {
  services: Services;
  app: FastifyInstance | null;
  pool: WorkerPool | null;
  /** `http://host:port` the API listens on, or null for a worker-only process. */
  address: string | null;
  /** Graceful stop: in-flight requests finish, running jobs finish or go back to the queue. */
  close(): Promise<void>;
}

export function createWorkerPool(services: Services): WorkerPool {
  return new WorkerPool(
    services.queue,
    {
      [JOB_NAMES.crawlBrand]: async (job) => {
        const { domain } = job.payload as CrawlBrandPayload;
        // The pool logs a failed attempt in one line (domain, reason, attempt), so the indexer does not.
        const outcome = await services.indexer.index(domain, { retry: job.attempts > 1, owner: job.owner, logFailure: false });
        // The pool retries the job only when the reason is retryable (domain/crawl-failures.ts).
        if (!outcome.ok) throw new CrawlFailedError(domain, outcome.reason);
      },
    },
    services.logger,
    { concurrency: services.config.workerConcurrency },
  );
}

export async function serve(config: Readonly<Config>, logger: Logger, roles: { api: boolean; worker: boolean }): Promise<RunningServer> {
  const services = await createServices(config, logger);
  await services.warmCrawler();
  const pool = roles.worker && config.workerConcurrency > 0 ? createWorkerPool(services) : null;
  if (pool) services.onJobQueued(() => pool.notify());
  pool?.start();
  let app: FastifyInstance | null = null;
  let address: string | null = null;
  if (roles.api) {
    // Before the first request fills the cache: brands other processes write from now on are dropped from it.
    await services.cacheSync.start();
    // Payments a stopped process verified but never settled: record what the ledger did move, forget what expired.
    const reconciled = await services.payments?.reconcile(120_000);
    if (reconciled && reconciled.recorded + reconciled.released > 0) logger.warn(reconciled, 'reconciled unsettled payment claims');
    app = await buildApp(appDepsFor(services));
    address = await app.listen({ port: config.port, host: config.host });
  }
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // A keep-alive connection that is busy when shutdown starts must close once its response is sent; otherwise
      // close() waits for it until the keep-alive timeout. Idle connections are closed as they become idle.
      const reaper = app ? setInterval(() => app?.server.closeIdleConnections(), 50) : null;
      await app?.close();
      if (reaper) clearInterval(reaper);
      logger.info('http server closed');
      await pool?.stop(config.shutdownGraceMs);
      logger.info('workers stopped');
      await services.close();
      logger.info('store closed');
    })();
    return closing;
  };
  return { services, app, pool, address, close };
}
