/**
 * Attack: one organization floods free webhook test events at an endpoint that never answers (issue 33, docs/security.md
 * "Fair webhook delivery"). Measured: another organization's delivery latency (its brand change fanned out until its
 * receiver holds the signed POST) with no flood (baseline), then while the flood waits on the hanging endpoint.
 * Before issue 33 deliveries were first due, first sent: 40 test events delayed the victim from 0.75 s to 151 s.
 * The real service as `brandbase serve` wires it (SQLite in a temp folder), its GraphQL API through inject, and two
 * loopback receivers (test/webhooks/delivery/webhook-receiver.ts). Part of `npm run bench -- --attacks`.
 *
 * Alone: `node --import tsx bench/attacks/webhook-flood.ts [--flood N] [--timeout-ms MS]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { createServices } from '../../src/main/services.js';
import { silentLogger } from '../../src/platform/logger.js';
import { savedRebrand } from '../../test/webhooks/delivery/webhook-fixtures.js';
import { startReceiver } from '../../test/webhooks/delivery/webhook-receiver.js';


function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

export interface WebhookFloodResult {
  flood: number;
  timeoutMs: number;
  baselineMs: number;
  underFloodMs: number;
  /** Requests the hanging endpoint held when the victim was served. */
  floodAttemptsMeanwhile: number;
}

export async function benchWebhookFlood(options: { flood?: number; timeoutMs?: number } = {}): Promise<WebhookFloodResult> {
  const flood = options.flood ?? 40;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-webhook-flood-'));
  const hanging = await startReceiver('hang');
  const answering = await startReceiver('accept');
  const config = loadConfig({
    BRANDBASE_DATA_DIR: dataDir,
    BRANDBASE_PUBLIC_URL: 'http://brandbase.bench',
    BRANDBASE_CRAWL_HOSTS: JSON.stringify({ 'hang.bench': `127.0.0.1:${hanging.port}`, 'answer.bench': `127.0.0.1:${answering.port}` }),
    BRANDBASE_WEBHOOK_TIMEOUT_MS: String(timeoutMs),
    BRANDBASE_WEBHOOK_TESTS_PER_MINUTE: String(Math.max(flood, 1)),
  });
  const services = await createServices(config, silentLogger());
  const app = await buildApp(appDepsFor(services));
  await app.ready();
  try {
    const keyOf = async (): Promise<string> => {
      const org = await services.accounts.createOrganization({ name: 'Bench org', plan: 'paid', quota: 100_000 });
      return (await services.accounts.createApiKey({ orgId: org.id })).key;
    };
    const gql = async (key: string, query: string, variables: Record<string, unknown>): Promise<Record<string, any>> => { // eslint-disable-line @typescript-eslint/no-explicit-any -- GraphQL answers
      const res = await app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${key}` }, payload: { query, variables } });
      const body = res.json();
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    };
    const create = 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }';
    const flooder = await keyOf();
    const victim = await keyOf();
    const floodHook = (await gql(flooder, create, { input: { url: 'http://hang.bench/flood' } })).createWebhook.webhook.id as string;
    const victimHook = (await gql(victim, create, { input: { url: 'http://answer.bench/victim' } })).createWebhook.webhook.id as string;
    const domains = ['victim-baseline.com', 'victim-flooded.com'];
    await gql(victim, 'mutation($id: ID!, $d: [String!]!) { addWebhookSubscriptions(webhookId: $id, domains: $d) { changed } }', { id: victimHook, d: domains });
    const events = await Promise.all(domains.map((d) => savedRebrand(services.stores.brands, d)));
    await services.webhookDelivery.start();

    const deliverVictim = async (index: number): Promise<number> => {
      const arrived = answering.next();
      const started = performance.now();
      const event = events[index];
      if (event === undefined) throw new Error('no event');
      await services.webhookDelivery.fanOut.handle(event);
      services.webhookDelivery.sender.notify();
      await arrived;
      return performance.now() - started;
    };

    const baselineMs = await deliverVictim(0);
    for (let i = 0; i < flood; i++) await gql(flooder, 'mutation($id: ID!) { sendTestEvent(webhookId: $id) { delivery { id } } }', { id: floodHook });
    services.webhookDelivery.sender.notify();
    if (hanging.requests.length === 0) await hanging.next();
    const underFloodMs = await deliverVictim(1);
    return { flood, timeoutMs, baselineMs, underFloodMs, floodAttemptsMeanwhile: hanging.requests.length };
  } finally {
    await hanging.close();
    await answering.close();
    await app.close();
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchWebhookFlood({ flood: arg('--flood', 40), timeoutMs: arg('--timeout-ms', 15_000) });
  console.log(`webhook flood: ${result.flood} test events at an endpoint that never answers (attempt timeout ${result.timeoutMs} ms)`);
  console.log(`  victim delivery latency, baseline:    ${result.baselineMs.toFixed(0)} ms`);
  console.log(`  victim delivery latency, under flood: ${result.underFloodMs.toFixed(0)} ms (the hanging endpoint had received ${result.floodAttemptsMeanwhile} requests)`);
}
