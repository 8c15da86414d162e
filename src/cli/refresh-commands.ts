import type { Command } from 'commander';
import type { DueBrand, RefreshRun, RefreshScheduler, RefreshStatus } from '../brands/refresh-scheduler.js';
import type { Config } from '../config/config.js';
import { print, table } from './cli-output.js';
import { wholeNumber } from './whole-number.js';

/**
 * Opens the store and queue for one command and a scheduler over them with the configured settings (the same the
 * worker processes use); loaded when the command runs.
 */
async function withScheduler<T>(run: (scheduler: RefreshScheduler, config: Readonly<Config>) => Promise<T>): Promise<T> {
  const { cliConfig, withAdmin } = await import('./cli-runtime.js');
  const config = cliConfig();
  return withAdmin(config, ({ refresh }) => run(refresh, config));
}

function dueJson(brand: DueBrand): Record<string, unknown> {
  return { brandId: brand.brandId, domain: brand.domain, crawledAt: brand.crawledAt.toISOString(), lookups: brand.lookups, subscribed: brand.subscribed };
}

function runJson(run: RefreshRun | null): Record<string, unknown> | null {
  return run === null ? null : { startedAt: run.startedAt.toISOString(), finishedAt: run.finishedAt.toISOString(), queued: run.queued, deferred: run.deferred, by: run.by };
}

function statusJson(status: RefreshStatus, config: Readonly<Config>, analysisRows: number, now: Date): Record<string, unknown> {
  const { holder, leaseUntil, lastRun } = status.state;
  const leading = holder !== null && leaseUntil !== null && leaseUntil > now;
  return {
    enabled: config.refresh.enabled,
    refreshAgeDays: config.refreshAgeDays,
    intervalMs: config.refresh.intervalMs,
    perTick: config.refresh.perTick,
    maxActive: config.refresh.maxActive,
    stale: status.stale,
    queued: status.queued,
    running: status.running,
    leader: leading ? { holder, leaseUntil: leaseUntil.toISOString() } : null,
    lastRun: runJson(lastRun),
    analysisCacheRows: analysisRows,
    next: status.next.map(dueJson),
  };
}

function statusText(json: Record<string, unknown>, status: RefreshStatus): string {
  const leader = json.leader as { holder: string; leaseUntil: string } | null;
  const last = status.state.lastRun;
  const lines = [
    `refresh: ${json.enabled ? 'on' : 'off'}, brands older than ${String(json.refreshAgeDays)} days, up to ${String(json.perTick)} per ${String(json.intervalMs)} ms tick, ${String(json.maxActive)} at once`,
    `stale brands: ${status.stale}   refresh crawls queued: ${status.queued}   running: ${status.running}   analysis cache rows: ${String(json.analysisCacheRows)}`,
    `leader: ${leader ? `${leader.holder} (lease until ${leader.leaseUntil})` : 'none (no worker process is scheduling)'}`,
    `last run: ${last ? `${last.finishedAt.toISOString()} by ${last.by}: ${last.queued} queued, ${last.deferred} left for later` : 'never'}`,
  ];
  const rows = status.next.map((b) => [b.domain, b.crawledAt.toISOString(), String(b.lookups), b.subscribed ? 'yes' : 'no']);
  return [...lines, 'next:', table(['domain', 'crawled', 'lookups', 'subscribed'], rows, '  nothing is due')].join('\n');
}

/** `brandbase refresh status|run` (docs/refresh.md). */
export function registerRefreshCommands(program: Command): void {
  if (program.commands.some((c) => c.name() === 'refresh')) return;
  const refresh = program.command('refresh').description('scheduled refresh of stale brands (docs/refresh.md)');

  refresh
    .command('status')
    .description('stale brands, refresh crawls queued and running, the leader and its last run, what is due next')
    .option('--next <n>', 'list this many of the next brands due', wholeNumber, 10)
    .option('--json', 'print one JSON object')
    .action(async (opts: { next: number; json?: boolean }) => {
      const { json, status } = await withScheduler(async (scheduler, config) => {
        const status = await scheduler.status(opts.next);
        return { status, json: statusJson(status, config, await scheduler.analysisCacheSize(), new Date()) };
      });
      print(opts.json, json, statusText(json, status));
    });

  refresh
    .command('run')
    .description('queue the next due brands now, in refresh order (a worker process crawls them)')
    .option('--limit <n>', 'queue at most this many (default: one tick, within the refresh and queue bounds)', wholeNumber)
    .option('--json', 'print one JSON object')
    .action(async (opts: { limit?: number; json?: boolean }) => {
      const tick = await withScheduler((scheduler) => scheduler.runNow('cli', opts.limit));
      const queued = tick.queuedBrands.map(dueJson);
      const text =
        tick.queuedBrands.length === 0
          ? `nothing queued (${tick.run?.deferred ?? 0} stale brands wait: none due, or the refresh or queue bound is reached)`
          : `${tick.queuedBrands.length} refresh crawls queued (${tick.run?.deferred ?? 0} left for later); \`brandbase serve\` or \`brandbase worker\` crawls them:\n${tick.queuedBrands.map((b) => `  ${b.domain}`).join('\n')}`;
      print(opts.json, { ...runJson(tick.run), brands: queued }, text);
    });
}
