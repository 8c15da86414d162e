/**
 * `brandbase client-ids create|list|revoke|set-referrers` (issue 20, docs/search.md): publishable client IDs for
 * search and the logo CDN. Registration loads only commander; each action opens the store when it runs.
 */
import type { Command } from 'commander';
import type { ClientIds } from '../billing/client-ids.js';
import type { ClientIdRecord } from '../domain/client-id-record.js';
import { print, table } from './cli-output.js';

async function withClientIds<T>(run: (ids: ClientIds) => Promise<T>): Promise<T> {
  const { cliConfig, withAdmin } = await import('./cli-runtime.js');
  return withAdmin(cliConfig(), ({ clientIds }) => run(clientIds));
}

async function json(record: ClientIdRecord): Promise<Record<string, unknown>> {
  const { clientIdJson } = await import('../billing/client-ids.js');
  return clientIdJson(record);
}

function describe(r: ClientIdRecord): string {
  const referrers = r.allowedReferrers.length === 0 ? 'any referrer' : `referrers ${r.allowedReferrers.join(', ')}`;
  return `${r.id} (${r.name}, ${referrers}${r.requireReferrer ? ', referrer required' : ''}${r.revokedAt ? ', revoked' : ''})`;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function registerClientIdCommands(program: Command): void {
  const ids = program.command('client-ids').description('manage client IDs: publishable credentials for search and the logo CDN');
  ids
    .command('create')
    .description('create a client ID for an organization (safe to put in a web page)')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--name <name>', 'display name')
    .option('--referrer <host>', 'allowed referrer host (example.com or *.example.com); repeat or comma-separate', collect, [])
    .option('--require-referrer', 'refuse requests that send no Referer/Origin (server-side fetches)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { org: string; name?: string; referrer: string[]; requireReferrer?: boolean; json?: boolean }) => {
      const record = await withClientIds((c) => c.create(opts.org, { ...(opts.name ? { name: opts.name } : {}), referrers: opts.referrer, requireReferrer: opts.requireReferrer === true }));
      print(opts.json, await json(record), `created client ID ${describe(record)} for ${record.orgId}`);
    });
  ids
    .command('list')
    .description("list an organization's client IDs")
    .requiredOption('--org <orgId>', 'organization id')
    .option('--json', 'print one JSON object')
    .action(async (opts: { org: string; json?: boolean }) => {
      const list = await withClientIds((c) => c.list(opts.org));
      const rows = list.map((r) => [r.id, r.revokedAt ? 'revoked' : 'active', r.allowedReferrers.join(',') || '*', r.name]);
      print(opts.json, { clientIds: await Promise.all(list.map(json)) }, table(['id', 'state', 'referrers', 'name'], rows, 'no client IDs'));
    });
  ids
    .command('revoke')
    .description('revoke a client ID (its requests answer 403 client_id_revoked within BRANDBASE_CLIENT_ID_CACHE_MS)')
    .argument('<clientId>', 'client ID (cid_...)')
    .option('--json', 'print one JSON object')
    .action(async (clientId: string, opts: { json?: boolean }) => {
      const record = await withClientIds((c) => c.revoke(clientId));
      print(opts.json, await json(record), `revoked client ID ${record.id}`);
    });
  ids
    .command('set-referrers')
    .description('replace the allowed referrer hosts of a client ID (none: any referrer)')
    .argument('<clientId>', 'client ID (cid_...)')
    .option('--referrer <host>', 'allowed referrer host (example.com or *.example.com); repeat or comma-separate', collect, [])
    .option('--require-referrer', 'refuse requests that send no Referer/Origin')
    .option('--json', 'print one JSON object')
    .action(async (clientId: string, opts: { referrer: string[]; requireReferrer?: boolean; json?: boolean }) => {
      const record = await withClientIds((c) => c.setReferrers(clientId, opts.referrer, opts.requireReferrer === true));
      print(opts.json, await json(record), `client ID ${describe(record)}`);
    });
}
