import type { Command } from 'commander';
import type { RunningServer } from '../main/serve.js';
import type { GlobalOptions } from './cli-runtime.js';

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

/** Starts the server's parts (API, workers) with the logger at the configured level: stdout, or --log-file. */
async function start(global: GlobalOptions, parts: { api: boolean; worker: boolean }): Promise<RunningServer> {
  const [{ cliConfig, reportNewStore }, { createLogger }, { serve }, { createWriteStream }] = await Promise.all([
    import('./cli-runtime.js'),
    import('../platform/logger.js'),
    import('../main/serve.js'),
    import('node:fs'),
  ]);
  const config = cliConfig();
  const logger = createLogger({ level: config.logLevel, ...(global.logFile ? { destination: createWriteStream(global.logFile, { flags: 'a' }) } : {}) });
  const running = await serve(config, logger, parts);
  reportNewStore(running.services.backends);
  const { location, created } = running.services.backends;
  const fields = { address: running.address, store: location, storeCreated: created, concurrency: config.workerConcurrency, ...parts };
  logger.info(fields, parts.api ? 'brandbase is serving' : 'brandbase worker running');
  // The queue's poll timers are unref'd (so an embedded service never holds its host open), and a worker without
  // Chromium or refresh has no other handle: the command runs until a signal, not until the event loop drains.
  if (!parts.api) setInterval(() => undefined, 2 ** 30);
  stopOnSignals(running);
  return running;
}

export function registerServeCommands(program: Command, globals: () => GlobalOptions): void {
  program
    .command('serve')
    .description('run the HTTP API and an in-process worker pool (the embedded default)')
    .option('--no-worker', 'run the API only (scale-out: run `brandbase worker` elsewhere)')
    .action(async (opts: { worker: boolean }) => {
      await start(globals(), { api: true, worker: opts.worker });
    });

  program
    .command('worker')
    .description('run crawl workers only (scale-out: next to `brandbase serve --no-worker`)')
    .action(async () => {
      await start(globals(), { api: false, worker: true });
    });

  program
    .command('migrate')
    .description('apply schema migrations to the configured store (every command does it too)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const { cliConfig, withStore } = await import('./cli-runtime.js');
      const location = await withStore(cliConfig(), async (backends) => backends.location);
      console.log(opts.json ? JSON.stringify({ migrated: true, store: location }) : `migrations applied to ${location}`);
    });
}
