/**
 * `brandbase crawl DOMAIN...`: index brands now, from the shell. On a terminal a progress bar runs on stderr and
 * each result is a line on stdout above it; log lines (warnings, or every line with --log-file) never break the bar.
 */
import { createWriteStream } from 'node:fs';
import type { Command } from 'commander';
import type { Services } from '../main/services.js';
import type { Logger } from '../platform/logger.js';
import type { GlobalOptions } from './cli-runtime.js';
import { ProgressLine } from './progress-line.js';

type CrawlRow = Record<string, unknown> & { domain: string; status: string; reason?: string };

async function crawlOne(s: Services, domain: string, force: boolean): Promise<CrawlRow> {
  const { refreshAgeMs } = await import('../brands/refresh.js');
  const outcome = await s.refreshBrand(domain, { force, maxAgeMs: refreshAgeMs(s.config.refreshAgeDays) });
  if (outcome.status === 'failed') return { domain, status: 'failed', reason: outcome.reason };
  return { domain, status: outcome.status, brandId: outcome.brand.id, name: outcome.brand.name, crawledAt: outcome.crawledAt.toISOString() };
}

function rowText(row: CrawlRow, width: number): string {
  const detail = row.status === 'failed' ? `(${row.reason ?? 'failed'})` : `${String(row.brandId)}  ${String(row.name ?? '')}`;
  return `${row.domain.padEnd(width)}  ${row.status.padEnd(9)}  ${detail}`;
}

/**
 * With --log-file, every line at the configured level (BRANDBASE_LOG_LEVEL) goes to the file; otherwise warnings and
 * errors only, above the progress bar on stderr. stdout carries only the results.
 */
async function crawlLogger(global: GlobalOptions, level: string, progress: ProgressLine): Promise<Logger> {
  const { createLogger } = await import('../platform/logger.js');
  if (global.logFile) return createLogger({ level, destination: createWriteStream(global.logFile, { flags: 'a' }) });
  return createLogger({ level: 'warn', destination: progress.logs() });
}

async function crawlAll(domains: string[], opts: { refresh?: boolean; json?: boolean }, global: GlobalOptions): Promise<CrawlRow[]> {
  const [{ cliConfig, reportNewStore }, { createServices }, { registrableDomain }] = await Promise.all([
    import('./cli-runtime.js'),
    import('../main/services.js'),
    import('../domain/identifiers.js'),
  ]);
  const progress = new ProgressLine(domains.length);
  const config = cliConfig();
  const services = await createServices(config, await crawlLogger(global, config.logLevel, progress));
  reportNewStore(services.backends);
  const width = Math.max(...domains.map((d) => d.length));
  const rows: CrawlRow[] = [];
  try {
    for (const input of domains) {
      const domain = registrableDomain(input);
      progress.start(domain ?? input);
      const row = domain ? await crawlOne(services, domain, opts.refresh === true) : { domain: input, status: 'failed', reason: 'invalid_domain' };
      rows.push(row);
      progress.advance();
      if (!opts.json) progress.print(rowText(row, width));
    }
  } finally {
    progress.finish();
    await services.close();
  }
  return rows;
}

export function registerCrawlCommand(program: Command, globals: () => GlobalOptions): void {
  program
    .command('crawl')
    .description('index brands now, from the shell; a held brand is re-crawled when older than BRANDBASE_REFRESH_AGE_DAYS')
    .argument('<domains...>', 'domains to index')
    .option('--refresh', 're-crawl even when the held record is fresh')
    .option('--json', 'print one JSON object')
    .action(async (domains: string[], opts: { refresh?: boolean; json?: boolean }) => {
      const results = await crawlAll(domains, opts, globals());
      if (opts.json) console.log(JSON.stringify({ results }));
      else if (results.length > 1) console.log(summary(results));
      if (results.some((r) => r.status === 'failed')) process.exitCode = 1;
    });
}

function summary(rows: CrawlRow[]): string {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
}
