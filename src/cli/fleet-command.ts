/**
 * `brandbase fleet --api N --workers M [--port P] [--proxy-port Q]`: the production layout on one machine (issue 22,
 * docs/deployment.md "Local fleet recipe"). N `brandbase serve --no-worker` processes on ports P, P+1, ... and M
 * `brandbase worker` processes, all against the configured store, as separate OS processes that share nothing but
 * the store (and the asset folder or bucket). Output is prefixed per process; SIGINT/SIGTERM are forwarded; a
 * process that dies is reported and not restarted.
 */
import type { Server } from 'node:http';
import { InvalidArgumentError, type Command } from 'commander';
import type { Config } from '../config/config.js';
import type { GlobalOptions } from './cli-runtime.js';
import type { FleetMember, FleetSupervisor } from './fleet-supervisor.js';

interface FleetOptions {
  api: number;
  workers: number;
  port?: number;
  proxyPort?: number;
}

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 64) throw new InvalidArgumentError('expected a whole number from 0 to 64');
  return n;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65_535) throw new InvalidArgumentError('expected a port from 1 to 65535');
  return n;
}

/**
 * The one address of the whole fleet: links and asset URLs in answers are rendered from it, so every process must
 * have the same. Left unset (its default is the process's own port), it is the proxy's address, or the first API's.
 */
function fleetPublicUrl(config: Readonly<Config>, options: FleetOptions): string {
  if (config.publicUrl !== `http://localhost:${config.port}`) return config.publicUrl;
  return `http://localhost:${options.proxyPort ?? options.port ?? config.port}`;
}

/**
 * One member per process. Every setting but the ports comes from the fleet's own environment and configuration
 * file; the ports that must differ per process (API, logo CDN listener, metrics listener) are numbered up.
 */
export function fleetMembers(config: Readonly<Config>, options: FleetOptions, global: GlobalOptions): FleetMember[] {
  const first = options.port ?? config.port;
  const logFile = global.logFile ? ['--log-file', global.logFile] : [];
  const shared = { BRANDBASE_PUBLIC_URL: fleetPublicUrl(config, options) };
  const metrics = (index: number): Record<string, string> => (config.metrics.port === null ? {} : { BRANDBASE_METRICS_PORT: String(config.metrics.port + index) });
  const apis = Array.from({ length: options.api }, (_, i): FleetMember => ({
    name: `api-${i + 1}`,
    args: [...logFile, 'serve', '--no-worker'],
    env: { ...shared, PORT: String(first + i), ...(config.cdn.port === null ? {} : { BRANDBASE_CDN_PORT: String(config.cdn.port + i) }), ...metrics(i) },
  }));
  const workers = Array.from({ length: options.workers }, (_, i): FleetMember => ({ name: `worker-${i + 1}`, args: [...logFile, 'worker'], env: { ...shared, ...metrics(options.api + i) } }));
  return [...apis, ...workers];
}

/** Where this machine reaches a listener bound to `host` (a wildcard address is reached on loopback). */
function localUrl(host: string, listenPort: number): string {
  const reach = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return `http://${reach}:${listenPort}`;
}

/** Says once on stderr when every API process answers /healthz, with the addresses to use. */
async function announceWhenReady(urls: string[], proxyUrl: string | null, stopped: () => boolean): Promise<void> {
  const healthy = async (url: string): Promise<boolean> => fetch(`${url}/healthz`).then((r) => r.ok, () => false);
  while (!stopped()) {
    if ((await Promise.all(urls.map(healthy))).every(Boolean)) {
      const proxy = proxyUrl ? `; proxy ${proxyUrl}` : '';
      process.stderr.write(`fleet: ready: ${urls.join(', ')}${proxy}\n`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Migrates once before the members start, so they do not race each other to it; notes a SQLite store. */
async function prepareStore(config: Readonly<Config>): Promise<void> {
  const { withStore } = await import('./cli-runtime.js');
  const location = await withStore(config, async (backends) => backends.location);
  if (config.databaseUrl === null) {
    process.stderr.write(`fleet: the store is SQLite (${location}): fine for a fleet on one machine; a production fleet uses PostgreSQL (BRANDBASE_DATABASE_URL, docs/deployment.md)\n`);
  }
}

function stopOnSignals(supervisor: FleetSupervisor, proxy: () => Server | null): void {
  const onSignal = (signal: NodeJS.Signals): void => {
    proxy()?.close();
    proxy()?.closeAllConnections();
    supervisor.stop(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** What is wrong with the options as a whole, if anything. */
function fleetProblem(options: FleetOptions): string | null {
  if (options.api + options.workers === 0) return 'a fleet needs at least one process: --api and --workers are both 0';
  if (options.proxyPort !== undefined && options.api === 0) return '--proxy-port needs at least one API process (--api)';
  return null;
}

/** The proxy in front of the API processes, or null when it cannot listen (then the fleet is stopped: said why). */
async function startProxy(port: number, config: Readonly<Config>, apiPorts: number[]): Promise<Server | null> {
  const { startFleetProxy } = await import('./fleet-proxy.js');
  try {
    return await startFleetProxy(port, config.host, apiPorts);
  } catch (error) {
    process.stderr.write(`fleet: the proxy cannot listen on port ${port}: ${error instanceof Error ? error.message : String(error)}; stopping\n`);
    return null;
  }
}

async function runFleet(options: FleetOptions, global: GlobalOptions): Promise<void> {
  const [{ cliConfig }, { FleetSupervisor }] = await Promise.all([import('./cli-runtime.js'), import('./fleet-supervisor.js')]);
  const config = cliConfig();
  await prepareStore(config);
  const members = fleetMembers(config, options, global);
  const supervisor = new FleetSupervisor(members, (line) => process.stderr.write(`${line}\n`));
  let proxy: Server | null = null;
  let stopped = false;
  stopOnSignals(supervisor, () => proxy);
  const done = supervisor.run().finally(() => (stopped = true));
  const apiPorts = members.filter((m) => m.name.startsWith('api-')).map((m) => Number(m.env.PORT));
  if (options.proxyPort !== undefined) {
    proxy = await startProxy(options.proxyPort, config, apiPorts);
    // The members are already starting: without the proxy asked for they are stopped, not left running alone.
    if (!proxy) supervisor.stop('SIGTERM');
  }
  const proxyUrl = options.proxyPort === undefined ? null : localUrl(config.host, options.proxyPort);
  if (proxy || proxyUrl === null) void announceWhenReady(apiPorts.map((p) => localUrl(config.host, p)), proxyUrl, () => stopped);
  await done;
  proxy?.close();
  // Non-zero unless every process stopped cleanly because the fleet was asked to stop (and the proxy started).
  process.exitCode = supervisor.allStoppedCleanly() && (proxy !== null || proxyUrl === null) ? 0 : 1;
}

export function registerFleetCommand(program: Command, globals: () => GlobalOptions): void {
  program
    .command('fleet')
    .description('run API processes and workers as separate processes against the configured store (a local fleet, docs/deployment.md)')
    .option('--api <n>', 'API processes (`serve --no-worker`)', count, 2)
    .option('--workers <n>', 'worker processes (`worker`)', count, 2)
    .option('--port <port>', 'port of the first API process; the others take the next ones (default: PORT)', port)
    .option('--proxy-port <port>', 'also listen here and spread requests over the API processes in turn', port)
    .action(async (opts: FleetOptions, command: Command) => {
      const problem = fleetProblem(opts);
      if (problem) command.error(`error: ${problem}`, { exitCode: 2 });
      await runFleet(opts, globals());
    });
}
