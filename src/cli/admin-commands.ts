import { Option, type Command } from 'commander';
import type { Config } from '../config/config.js';
import { refreshAgeMs, refreshBrand } from '../brands/refresh.js';
import { registrableDomain } from '../domain/identifiers.js';
import { createServices, type Services } from '../main/services.js';
import type { Logger } from '../platform/logger.js';
import { keyJson, orgJson, print } from './cli-output.js';
import { wholeNumber } from './whole-number.js';

type ConfigFn = () => Readonly<Config>;

/** Opens the services for one command and always closes them (flushes the usage buffer, closes the database). */
async function withServices<T>(config: ConfigFn, logger: () => Logger, run: (s: Services) => Promise<T>): Promise<T> {
  const services = await createServices(config(), logger());
  try {
    return await run(services);
  } finally {
    await services.close();
  }
}

function registerOrgCommands(program: Command, config: ConfigFn, logger: () => Logger): void {
  const orgs = program.command('orgs').description('manage organizations');
  orgs
    .command('create')
    .requiredOption('--name <name>', 'display name')
    .addOption(new Option('--plan <plan>', 'billing plan').choices(['free', 'paid']).default('free'))
    .option('--quota <credits>', 'credits per billing period (default depends on the plan)', wholeNumber)
    .option('--json', 'print one JSON object')
    .action(async (opts: { name: string; plan: 'free' | 'paid'; quota?: number; json?: boolean }) => {
      const org = await withServices(config, logger, (s) => s.accounts.createOrganization(opts));
      print(opts.json, orgJson(org), `created organization ${org.id} (${org.name}, ${org.plan}, quota ${org.quota})`);
    });
  orgs
    .command('list')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const list = await withServices(config, logger, (s) => s.accounts.listOrganizations());
      const text = list.map((o) => `${o.id}\t${o.plan}\t${o.quota}\t${o.name}`).join('\n') || 'no organizations';
      print(opts.json, { organizations: list.map(orgJson) }, text);
    });
}

function registerKeyCommands(program: Command, config: ConfigFn, logger: () => Logger): void {
  const keys = program.command('keys').description('manage API keys');
  keys
    .command('create')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--name <name>', 'display name')
    .option('--json', 'print one JSON object')
    .action(async (opts: { org: string; name?: string; json?: boolean }) => {
      const key = await withServices(config, logger, (s) => s.accounts.createApiKey({ orgId: opts.org, name: opts.name }));
      const json = { id: key.id, key: key.key, orgId: key.orgId, name: key.name, createdAt: key.createdAt.toISOString() };
      print(opts.json, json, `created API key ${key.id} for ${key.orgId}\n\n  ${key.key}\n\nStore it now: it is shown only once.`);
    });
  keys
    .command('revoke')
    .argument('<keyId>', 'API key id (key_...)')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, opts: { json?: boolean }) => {
      const key = await withServices(config, logger, (s) => s.accounts.revokeApiKey(keyId));
      print(opts.json, keyJson(key), `revoked API key ${key.id}`);
    });
  keys
    .command('list')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--json', 'print one JSON object')
    .action(async (opts: { org: string; json?: boolean }) => {
      const list = await withServices(config, logger, (s) => s.accounts.listApiKeys(opts.org));
      const text = list.map((k) => `${k.id}\t${k.prefix}…\t${k.revokedAt ? 'revoked' : 'active'}\t${k.name}`).join('\n') || 'no keys';
      print(opts.json, { keys: list.map(keyJson) }, text);
    });
}

function registerCrawlCommand(program: Command, config: ConfigFn, logger: () => Logger): void {
  program
    .command('crawl')
    .description('index brands now, from the shell; a held brand is re-crawled when older than BRANDBASE_REFRESH_AGE_DAYS')
    .argument('<domains...>', 'domains to index')
    .option('--refresh', 're-crawl even when the held record is fresh')
    .option('--json', 'print one JSON object')
    .action(async (domains: string[], opts: { refresh?: boolean; json?: boolean }) => {
      const results = await withServices(config, logger, async (s) => {
        const out: Record<string, unknown>[] = [];
        for (const [i, input] of domains.entries()) {
          const domain = registrableDomain(input);
          if (!opts.json) process.stderr.write(`[${i + 1}/${domains.length}] ${domain ?? input} … `);
          const row = domain ? await crawlOne(s, domain, opts.refresh === true) : { domain: input, status: 'failed', reason: 'invalid_domain' };
          if (!opts.json) process.stderr.write(`${String(row.status)}${row.reason ? ` (${String(row.reason)})` : ''}\n`);
          out.push(row);
        }
        return out;
      });
      if (opts.json) console.log(JSON.stringify({ results }));
      if (results.some((r) => r.status === 'failed')) process.exitCode = 1;
    });
}

async function crawlOne(s: Services, domain: string, force: boolean): Promise<Record<string, unknown>> {
  const outcome = await refreshBrand(domain, { store: s.store, indexer: s.indexer }, { force, maxAgeMs: refreshAgeMs(s.config.refreshAgeDays) });
  if (outcome.status === 'failed') return { domain, status: 'failed', reason: outcome.reason };
  return { domain, status: outcome.status, brandId: outcome.brand.id, name: outcome.brand.name, crawledAt: outcome.crawledAt.toISOString() };
}

export function registerAdminCommands(program: Command, config: ConfigFn, logger: () => Logger): void {
  registerOrgCommands(program, config, logger);
  registerKeyCommands(program, config, logger);
  registerCrawlCommand(program, config, logger);
}
