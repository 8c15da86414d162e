import type { Command } from 'commander';
import type { Config } from '../config/config.js';
import type { RunningServer } from '../main/serve.js';
import { openBackends } from '../main/open-backends.js';
import { createLogger } from '../platform/logger.js';

/** Stops gracefully on the first SIGTERM/SIGINT; a second one exits at once. */
function stopOnSignals(running: RunningServer): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(1);
    stopping = true;
    running.services.logger.info({ signal }, 'shutting down');
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        running.services.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

export function registerServeCommands(program: Command, config: () => Readonly<Config>): void {
  program
    .command('serve')
    .description('run the HTTP API and an in-process worker pool (the embedded default)')
    .option('--no-worker', 'run the API only (scale-out: run `brandbase worker` elsewhere)')
    .action(async (opts: { worker: boolean }) => {
      const cfg = config();
      const logger = createLogger({ level: cfg.logLevel });
      // Loaded here, not at the top: admin commands should not pay for Fastify and the worker pool.
      const { serve } = await import('../main/serve.js');
      const running = await serve(cfg, logger, { api: true, worker: opts.worker });
      logger.info({ address: running.address, dataDir: cfg.dataDir, worker: opts.worker }, 'brandbase is serving');
      stopOnSignals(running);
    });

  program
    .command('worker')
    .description('run crawl workers only')
    .action(async () => {
      const cfg = config();
      const logger = createLogger({ level: cfg.logLevel });
      const { serve } = await import('../main/serve.js');
      const running = await serve(cfg, logger, { api: false, worker: true });
      logger.info({ concurrency: cfg.workerConcurrency }, 'brandbase worker running');
      stopOnSignals(running);
    });

  program
    .command('migrate')
    .description('apply schema migrations to the configured store')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const backends = await openBackends(config());
      await backends.close();
      console.log(opts.json ? JSON.stringify({ migrated: true }) : 'migrations applied');
    });
}
