/**
 * `brandbase orgs create|list` and `brandbase keys create|list|revoke`. Registration loads nothing but
 * commander; each action loads the store when it runs (cli-runtime.ts), and only the store: no crawler, no server.
 */
import { Option, type Command } from 'commander';
import type { Accounts } from '../billing/accounts.js';
import { keyJson, orgJson, print, table } from './cli-output.js';
import { wholeNumber } from './whole-number.js';

/** Opens the store and the account service for one command; the store is closed afterwards. */
async function withAccounts<T>(run: (accounts: Accounts) => Promise<T>): Promise<T> {
  const { cliConfig, withAdmin } = await import('./cli-runtime.js');
  return withAdmin(cliConfig(), ({ accounts }) => run(accounts));
}

function registerOrgCommands(program: Command): void {
  const orgs = program.command('orgs').description('manage organizations (customers): plans, quotas, credits, usage');
  orgs
    .command('create')
    .description('create an organization; prints its id')
    .requiredOption('--name <name>', 'display name')
    .addOption(new Option('--plan <plan>', 'billing plan').choices(['free', 'paid']).default('free'))
    .option('--quota <credits>', 'credits per billing period (default depends on the plan)', wholeNumber)
    .option('--json', 'print one JSON object')
    .action(async (opts: { name: string; plan: 'free' | 'paid'; quota?: number; json?: boolean }) => {
      const org = await withAccounts((a) => a.createOrganization(opts));
      print(opts.json, orgJson(org), `created organization ${org.id} (${org.name}, ${org.plan}, quota ${org.quota})`);
    });
  orgs
    .command('list')
    .description('list organizations with their plan and quota')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const list = await withAccounts((a) => a.listOrganizations());
      const rows = list.map((o) => [o.id, o.plan, String(o.quota), o.name]);
      print(opts.json, { organizations: list.map(orgJson) }, table(['id', 'plan', 'quota', 'name'], rows, 'no organizations'));
    });
}

function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('manage API keys (only a hash of each key is stored)');
  keys
    .command('create')
    .description('create an API key for an organization; the key is shown once')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--name <name>', 'display name')
    .option('--json', 'print one JSON object')
    .action(async (opts: { org: string; name?: string; json?: boolean }) => {
      const key = await withAccounts((a) => a.createApiKey({ orgId: opts.org, name: opts.name }));
      const json = { id: key.id, key: key.key, orgId: key.orgId, name: key.name, createdAt: key.createdAt.toISOString() };
      print(opts.json, json, `created API key ${key.id} for ${key.orgId}\n\n  ${key.key}\n\nStore it now: it is shown only once.`);
    });
  keys
    .command('revoke')
    .description('revoke an API key at once (requests with it answer 401)')
    .argument('<keyId>', 'API key id (key_...)')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, opts: { json?: boolean }) => {
      const key = await withAccounts((a) => a.revokeApiKey(keyId));
      print(opts.json, keyJson(key), `revoked API key ${key.id}`);
    });
  keys
    .command('list')
    .description("list an organization's API keys (never the secrets)")
    .requiredOption('--org <orgId>', 'organization id')
    .option('--json', 'print one JSON object')
    .action(async (opts: { org: string; json?: boolean }) => {
      const [{ cliConfig, withAdmin }, { clientIdJson }] = await Promise.all([import('./cli-runtime.js'), import('../billing/client-ids.js')]);
      // Client IDs (issue 20) are listed where keys are managed: the `clientIds` field, and a second table.
      const { list, clientIds } = await withAdmin(cliConfig(), async (admin) => ({
        list: await admin.accounts.listApiKeys(opts.org),
        clientIds: await admin.clientIds.list(opts.org),
      }));
      const rows = list.map((k) => [k.id, `${k.prefix}…`, k.revokedAt ? 'revoked' : 'active', k.name]);
      const idRows = clientIds.map((c) => [c.id, c.revokedAt ? 'revoked' : 'active', c.allowedReferrers.join(',') || '*', c.name]);
      const text = `${table(['id', 'prefix', 'state', 'name'], rows, 'no keys')}\n${table(['client id', 'state', 'referrers', 'name'], idRows, 'no client IDs')}`;
      print(opts.json, { keys: list.map(keyJson), clientIds: clientIds.map(clientIdJson) }, text);
    });
}

export function registerAdminCommands(program: Command): void {
  registerOrgCommands(program);
  registerKeyCommands(program);
}
