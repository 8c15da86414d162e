/**
 * `brandbase webhooks create|list|update|delete|rotate-secret|subscribe|unsubscribe|deliveries|test --org ORG`:
 * the operator's mirror of the GraphQL management API (docs/webhooks.md). It calls the same WebhookManagement
 * operations as the resolvers, with the same rules (paid plan, URL policy, 1,000 domains, page sizes); errors are
 * printed as one line with exit code 2. Loaded on demand like every command (ADR 0018).
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Organization } from '../domain/accounts.js';
import type { Webhook } from '../domain/webhooks.js';
import type { DeliveryView, SubscriptionChange, WebhookManagement } from '../webhooks/management/webhook-management.js';
import { print, table } from './cli-output.js';
import { wholeNumber } from './whole-number.js';
import { CliError, guarded } from './guarded-command.js';

interface OrgOption {
  org: string;
  json?: boolean;
}

/** Opens the store, the crawl queue and the management service for one command, on the organization `--org`. */
async function withWebhooks<T>(orgId: string, run: (management: WebhookManagement, org: Organization) => Promise<T>): Promise<T> {
  const { cliConfig, withAdmin } = await import('./cli-runtime.js');
  return withAdmin(cliConfig(), async (admin) => {
    const org = await admin.accounts.getOrganization(orgId);
    if (!org) throw new CliError(`unknown organization ${orgId}`);
    return run(await admin.webhooks(), org);
  });
}

export function webhookJson(w: Webhook): Record<string, unknown> {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    events: w.events,
    enabled: w.enabled,
    disabledReason: w.disabledReason,
    hasAuthorization: w.hasAuthorization,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
    lastAcceptedAt: w.lastAcceptedAt?.toISOString() ?? null,
  };
}

function deliveryJson(d: DeliveryView): Record<string, unknown> {
  return {
    id: d.id,
    eventId: d.eventId,
    kind: d.kind,
    domain: d.domain,
    state: d.state,
    attemptCount: d.attempts,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    attempts: d.attemptList.map((a) => ({ ...a, startedAt: a.startedAt.toISOString() })),
  };
}

function events(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function isoDate(value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d\d-\d\d/.test(value) || Number.isNaN(date.getTime())) throw new InvalidArgumentError('expected an ISO 8601 date, e.g. 2026-11-01T00:00:00Z');
  return date;
}

function changeText(verb: string, c: SubscriptionChange): string {
  const lines = [`${verb} ${c.changed.length} domain(s) on ${c.webhookId}; ${c.unchanged.length} unchanged`];
  if (c.queued.length > 0) lines.push(`queued for indexing: ${c.queued.join(' ')}`);
  if (c.notQueued.length > 0) lines.push(`not queued (crawl queue full): ${c.notQueued.join(' ')}`);
  for (const bad of c.invalid) lines.push(`invalid: ${bad.input}: ${bad.message}`);
  return lines.join('\n');
}

function webhooksCommand(program: Command): Command {
  return program.command('webhooks').description('manage an organization\'s webhooks (paid plans; the CLI mirror of POST /graphql)');
}

function registerWriteCommands(webhooks: Command): void {
  webhooks
    .command('create')
    .description('create a webhook; its signing secret is shown once')
    .requiredOption('--org <orgId>', 'organization id')
    .requiredOption('--url <url>', 'endpoint URL (https)')
    .option('--name <name>', 'display name (default: the URL host)')
    .option('--events <kinds>', 'comma-separated: brand.rebranded,brand.updated (default: both)', events)
    .option('--authorization <value>', 'Authorization header value sent with every delivery')
    .option('--disabled', 'create it disabled')
    .option('--json', 'print one JSON object')
    .action((opts: OrgOption & { url: string; name?: string; events?: string[]; authorization?: string; disabled?: boolean }) =>
      guarded(async () => {
        const input = { url: opts.url, name: opts.name ?? null, events: opts.events ?? null, authorization: opts.authorization ?? null, enabled: !opts.disabled };
        const { webhook, secret } = await withWebhooks(opts.org, (m, org) => m.create(org, input));
        print(opts.json, { webhook: webhookJson(webhook), secret }, `created webhook ${webhook.id} (${webhook.url})\n\n  ${secret}\n\nStore the signing secret now: it is shown only once.`);
      }),
    );
  webhooks
    .command('update')
    .description('change a webhook\'s URL, name, events, Authorization header or enabled state')
    .argument('<webhookId>', 'webhook id (whk_...)')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--url <url>', 'new endpoint URL')
    .option('--name <name>', 'new display name')
    .option('--events <kinds>', 'comma-separated event kinds', events)
    .option('--authorization <value>', 'new Authorization header value')
    .option('--no-authorization', 'stop sending an Authorization header')
    .option('--enable', 'enable (deliveries resume)')
    .option('--disable', 'disable (deliveries stop; subscriptions stay)')
    .option('--json', 'print one JSON object')
    .action((id: string, opts: OrgOption & { url?: string; name?: string; events?: string[]; authorization?: string | boolean; enable?: boolean; disable?: boolean }) =>
      guarded(async () => {
        if (opts.enable && opts.disable) throw new CliError('--enable and --disable exclude each other');
        const authorization = opts.authorization === false ? null : typeof opts.authorization === 'string' ? opts.authorization : undefined;
        const enabled = opts.enable ? true : opts.disable ? false : null;
        const update = { url: opts.url ?? null, name: opts.name ?? null, events: opts.events ?? null, enabled, ...(authorization === undefined ? {} : { authorization }) };
        const webhook = await withWebhooks(opts.org, (m, org) => m.update(org, id, update));
        print(opts.json, webhookJson(webhook), `updated webhook ${webhook.id} (${webhook.enabled ? 'enabled' : 'disabled'})`);
      }),
    );
  webhooks
    .command('delete')
    .description('delete a webhook with its subscriptions and delivery history')
    .argument('<webhookId>', 'webhook id (whk_...)')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--json', 'print one JSON object')
    .action((id: string, opts: OrgOption) =>
      guarded(async () => {
        await withWebhooks(opts.org, (m, org) => m.delete(org, id));
        print(opts.json, { deletedWebhookId: id }, `deleted webhook ${id}`);
      }),
    );
  webhooks
    .command('rotate-secret')
    .description('new signing secret (shown once); the current one keeps signing for a while')
    .argument('<webhookId>', 'webhook id (whk_...)')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--expire-current-in <seconds>', 'how long the current secret keeps signing (default 86400; 0 stops it now)', wholeNumber)
    .option('--json', 'print one JSON object')
    .action((id: string, opts: OrgOption & { expireCurrentIn?: number }) =>
      guarded(async () => {
        const rotated = await withWebhooks(opts.org, (m, org) => m.rotateSecret(org, id, opts.expireCurrentIn));
        const until = rotated.previousSecretExpiresAt?.toISOString() ?? null;
        const json = { webhook: webhookJson(rotated.webhook), secret: rotated.secret, previousSecretExpiresAt: until };
        print(opts.json, json, `new signing secret for ${id}\n\n  ${rotated.secret}\n\nStore it now: it is shown only once. The previous secret ${until ? `signs until ${until}` : 'no longer signs'}.`);
      }),
    );
}

function registerSubscriptionCommands(webhooks: Command): void {
  for (const [name, verb] of [
    ['subscribe', 'subscribed'],
    ['unsubscribe', 'unsubscribed'],
  ] as const) {
    webhooks
      .command(name)
      .description(name === 'subscribe' ? 'subscribe to brands by domain (subdomains count as their registrable domain; at most 1,000 per call)' : 'unsubscribe from brands by domain')
      .argument('<webhookId>', 'webhook id (whk_...)')
      .argument('<domains...>', 'domains')
      .requiredOption('--org <orgId>', 'organization id')
      .option('--json', 'print one JSON object')
      .action((id: string, domains: string[], opts: OrgOption) =>
        guarded(async () => {
          const change = await withWebhooks(opts.org, (m, org) => (name === 'subscribe' ? m.addSubscriptions(org, id, domains) : m.removeSubscriptions(org, id, domains)));
          print(opts.json, { ...change }, changeText(verb, change));
        }),
      );
  }
}

function registerReadCommands(webhooks: Command): void {
  webhooks
    .command('list')
    .description('list the organization\'s webhooks, newest first')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--json', 'print one JSON object')
    .action((opts: OrgOption) =>
      guarded(async () => {
        const all = await withWebhooks(opts.org, async (m, org) => {
          const list: Webhook[] = [];
          let after: string | null = null;
          for (;;) {
            const page = await m.list(org, { after });
            list.push(...page.edges.map((e) => e.node));
            if (!page.hasNextPage) return list;
            after = page.endCursor;
          }
        });
        const rows = all.map((w) => [w.id, w.enabled ? 'enabled' : `disabled (${w.disabledReason ?? 'manual'})`, w.events.join(','), w.url]);
        print(opts.json, { webhooks: all.map(webhookJson) }, table(['id', 'state', 'events', 'url'], rows, 'no webhooks'));
      }),
    );
  webhooks
    .command('deliveries')
    .description('a webhook\'s deliveries, newest first, with their attempts (one page)')
    .argument('<webhookId>', 'webhook id (whk_...)')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--from <date>', 'created at or after (ISO 8601)', isoDate)
    .option('--to <date>', 'created before (ISO 8601)', isoDate)
    .option('--first <n>', 'page size, 1 to 100 (default 100)', wholeNumber)
    .option('--after <cursor>', 'the endCursor of the previous page')
    .option('--json', 'print one JSON object')
    .action((id: string, opts: OrgOption & { from?: Date; to?: Date; first?: number; after?: string }) =>
      guarded(async () => {
        const page = await withWebhooks(opts.org, (m, org) => m.deliveries(org, id, { from: opts.from ?? null, to: opts.to ?? null, first: opts.first ?? null, after: opts.after ?? null }));
        const nodes = page.edges.map((e) => e.node);
        const json = { deliveries: nodes.map(deliveryJson), hasNextPage: page.hasNextPage, endCursor: page.endCursor };
        const rows = nodes.map((d) => [d.id, d.createdAt.toISOString(), d.kind, d.state, String(d.attempts), d.domain]);
        const more = page.hasNextPage ? `\nmore: --after ${page.endCursor ?? ''}` : '';
        print(opts.json, json, table(['id', 'created', 'kind', 'state', 'attempts', 'domain'], rows, 'no deliveries') + more);
      }),
    );
  webhooks
    .command('test')
    .description('queue a webhook.test delivery (sent by the delivery engine like any other)')
    .argument('<webhookId>', 'webhook id (whk_...)')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--domain <domain>', 'a held brand to carry (default: a subscribed one, or a sample brand)')
    .option('--json', 'print one JSON object')
    .action((id: string, opts: OrgOption & { domain?: string }) =>
      guarded(async () => {
        const delivery = await withWebhooks(opts.org, (m, org) => m.sendTestEvent(org, id, opts.domain ?? null));
        print(opts.json, { delivery: deliveryJson(delivery) }, `queued test delivery ${delivery.id} (${delivery.domain}) to ${id}`);
      }),
    );
}

/** Registering twice is a no-op. */
export function registerWebhookCommands(program: Command): void {
  if (program.commands.some((c) => c.name() === 'webhooks')) return;
  const webhooks = webhooksCommand(program);
  registerWriteCommands(webhooks);
  registerSubscriptionCommands(webhooks);
  registerReadCommands(webhooks);
}
