/**
 * Webhook deliveries per second through the outbox (issue 19, docs/performance.md "Webhook delivery"): N brand
 * events fanned out into `webhook_deliveries` on a real store, then drained by the real sender (lease, credit hold
 * of a paid organization, Standard Webhooks signature, POST through the poster's network rules, attempt recorded in
 * one transaction) with its default concurrency, to a receiver on loopback answering 204. The baseline, measured in
 * the same run with the same concurrency: the same poster sending the same signed body to the same receiver with
 * no store at all — so the ratio is what the outbox costs on top of the HTTP request. Once on SQLite and once on
 * PostgreSQL (BENCH_PG_URL, default the local server; skipped when none answers).
 *
 * Alone: `node --import tsx bench/webhook-delivery.ts [--count N] [--rounds R]`; `npm run bench` runs it too.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { AssetUrls } from '../src/assets/asset-urls.js';
import { Billing } from '../src/billing/billing.js';
import { noMailer } from '../src/billing/mailer.js';
import { UsageMeter } from '../src/billing/usage-meter.js';
import { newId } from '../src/domain/ids.js';
import { newWebhookSecret } from '../src/domain/webhooks.js';
import { silentLogger } from '../src/platform/logger.js';
import { sealedBox } from '../src/platform/sealed-box.js';
import type { BillingStore } from '../src/billing/billing-store.js';
import type { JobQueue } from '../src/jobs/queue.js';
import type { WebhookStore } from '../src/webhooks/webhook-store.js';
import { DeliveryBilling } from '../src/webhooks/delivery/delivery-billing.js';
import { brandEventPayload } from '../src/webhooks/delivery/webhook-fan-out.js';
import { WebhookPoster } from '../src/webhooks/delivery/webhook-poster.js';
import { WebhookSender } from '../src/webhooks/delivery/webhook-sender.js';
import { standardWebhookHeaders } from '../src/webhooks/delivery/webhook-signature.js';
import { sampleBrand } from '../test/store/sample-brand.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgresStore, openSqliteStore } from '../test/store/open-store.js';
import { ChargeRule } from '../src/usecases/charge-rule.js';

const HOOK_HOST = 'hooks.bench';
/** The sender's default (BRANDBASE_WEBHOOK_SENDERS). */
const CONCURRENCY = 4;

export interface WebhookDeliveryBenchOptions {
  /** Deliveries per round. */
  count?: number;
  rounds?: number;
}

interface Receiver {
  port: number;
  received: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { port: 0, received: 0, close: async () => undefined };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receiver.received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The body a real rebrand delivery carries (a full brand record), so both sides send realistic bytes. */
function samplePayload(domain: string): string {
  const brand = sampleBrand(domain);
  const now = new Date();
  const payload = brandEventPayload(
    { id: newId('evt'), type: 'brand.saved', brandId: brand.id, domain, created: false, changes: ['logos', 'name'], occurredAt: now, announce: { kind: 'brand.rebranded', changedFields: ['logos', 'name'], previous: { name: 'Old', logo: brand.logos[0] ?? null } } },
    { brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now },
    new AssetUrls('https://brandbase.example/assets/'),
    now,
  );
  return JSON.stringify(payload);
}

async function setUp(stores: { webhooks: WebhookStore; billing: BillingStore }, queue: JobQueue, box: ReturnType<typeof sealedBox>, receiverPort: number): Promise<{ sender: WebhookSender; domain: string }> {
  const { webhooks, billing: billingStore } = stores;
  const orgId = newId('org');
  await billingStore.createOrganization({ id: orgId, name: 'Bench', plan: 'paid', quota: 100_000_000, createdAt: new Date() });
  const domain = `bench-${randomBytes(4).toString('hex')}.com`;
  const now = new Date();
  await webhooks.insertWebhook({
    id: newId('whk'), orgId, name: 'bench', url: `https://${HOOK_HOST}/events`, events: ['brand.rebranded', 'brand.updated'], enabled: true, disabledReason: null,
    hasAuthorization: true, createdAt: now, updatedAt: now, lastAcceptedAt: null, secretSealed: box.seal(newWebhookSecret()), authorizationSealed: box.seal('Bearer bench'),
    previousSecretSealed: null, previousSecretExpiresAt: null,
  });
  const [webhook] = await webhooks.listWebhooks(orgId, null, 1);
  await webhooks.addWebhookSubscriptions(orgId, webhook?.id ?? '', [domain], now);
  const meter = new UsageMeter(billingStore);
  const billing = new Billing({ store: billingStore, meter, mailer: noMailer, logger: silentLogger(), defaults: { spendingLimitCents: 0, rateLimitPerMinute: 0 } });
  const poster = new WebhookPoster({ hostMap: { [HOOK_HOST]: `127.0.0.1:${receiverPort}` } });
  const payer = new DeliveryBilling({ accounts: billingStore, reserve: (org, credits) => billing.reserveForOrganization(org, credits), rule: new ChargeRule(null) });
  const sender = new WebhookSender({ queue, store: webhooks, box, poster, payer, notices: null, logger: silentLogger() }, { leaseMs: 60_000 });
  return { sender, domain };
}

/** Deliveries per second through the outbox: `count` fanned out first (not timed), then drained by CONCURRENCY loops. */
async function outboxRound(webhooks: WebhookStore, sender: WebhookSender, domain: string, payload: string, count: number): Promise<{ perSec: number; fanOutPerSec: number }> {
  const fanStart = performance.now();
  for (let i = 0; i < count; i++) {
    await webhooks.fanOutWebhookEvent({ eventId: newId('evt'), kind: 'brand.rebranded', domain, payload, createdAt: new Date() });
  }
  const fanOutPerSec = count / ((performance.now() - fanStart) / 1000);
  const start = performance.now();
  const outcomes = (await Promise.all(Array.from({ length: CONCURRENCY }, () => sender.drain()))).flat();
  const seconds = (performance.now() - start) / 1000;
  const delivered = outcomes.filter((o) => o === 'delivered').length;
  if (delivered !== count) throw new Error(`delivered ${delivered} of ${count}: ${JSON.stringify(outcomes.filter((o) => o !== 'delivered').slice(0, 5))}`);
  return { perSec: count / seconds, fanOutPerSec };
}

/** The same signed POSTs, same poster and concurrency, with no store. */
async function baselineRound(receiverPort: number, payload: string, count: number): Promise<number> {
  const poster = new WebhookPoster({ hostMap: { [HOOK_HOST]: `127.0.0.1:${receiverPort}` } });
  const secret = newWebhookSecret();
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next++;
        const id = newId('msg');
        const headers = { ...standardWebhookHeaders([secret], id, new Date(), payload), authorization: 'Bearer bench' };
        const result = await poster.post(`https://${HOOK_HOST}/events`, headers, payload);
        if (result.statusCode !== 204) throw new Error(`baseline POST: ${result.statusCode ?? result.error}`);
      }
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

interface BenchStore {
  webhooks: WebhookStore;
  /** Billing's store on the same database: the organization and its credits. */
  billing: BillingStore;
  /** The job queue on the same database: deliveries are its `webhook.deliver` jobs. */
  queue: JobQueue;
  close(): Promise<void>;
}

async function sqliteStore(): Promise<BenchStore> {
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-bench-webhooks-'));
  const { migrate, close, stores } = await openSqliteStore({ file: path.join(dir, 'brandbase.sqlite') });
  await migrate();
  return { webhooks: stores.webhooks, billing: stores.billing, queue: stores.queue, close: async () => { await close(); await rm(dir, { recursive: true, force: true }); } };
}

/** A fresh schema on `url`, dropped afterwards; null when no server answers. */
async function postgresStore(url: string): Promise<BenchStore | null> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  await admin.query(`create schema "${schema}"`);
  const { migrate, close, stores } = await openPostgresStore({ url, schema });
  await migrate();
  return {
    webhooks: stores.webhooks,
    billing: stores.billing,
    queue: stores.queue,
    close: async () => {
      await close();
      await admin.query(`drop schema if exists "${schema}" cascade`);
      await admin.end();
    },
  };
}

async function benchOn(database: BenchStore, options: Required<WebhookDeliveryBenchOptions>): Promise<Record<string, unknown>> {
  const receiver = await startReceiver();
  const box = sealedBox(randomBytes(32));
  try {
    const { webhooks, billing, queue } = database;
    const { sender, domain } = await setUp({ webhooks, billing }, queue, box, receiver.port);
    const payload = samplePayload(domain);
    // Warm-up of both paths (JIT, connections, the store's statements).
    await outboxRound(webhooks, sender, domain, payload, 50);
    await baselineRound(receiver.port, payload, 50);
    const outbox: number[] = [];
    const baseline: number[] = [];
    const fanOut: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const r = await outboxRound(webhooks, sender, domain, payload, options.count);
      outbox.push(r.perSec);
      fanOut.push(r.fanOutPerSec);
      baseline.push(await baselineRound(receiver.port, payload, options.count));
    }
    return {
      deliveriesPerSec: outbox.map(Math.round),
      baselinePostsPerSec: baseline.map(Math.round),
      fanOutPerSec: fanOut.map(Math.round),
      ratio: Number((median(outbox) / median(baseline)).toFixed(3)),
      payloadBytes: Buffer.byteLength(payload),
    };
  } finally {
    await receiver.close();
  }
}

export async function benchWebhookDelivery(options: WebhookDeliveryBenchOptions = {}): Promise<Record<string, unknown>> {
  const opts = { count: options.count ?? 500, rounds: options.rounds ?? 3 };
  const result: Record<string, unknown> = { count: opts.count, rounds: opts.rounds, concurrency: CONCURRENCY };
  const sqlite = await sqliteStore();
  try {
    result.sqlite = await benchOn(sqlite, opts);
  } finally {
    await sqlite.close();
  }
  const postgres = await postgresStore(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  if (postgres === null) {
    result.postgres = 'skipped: no PostgreSQL answered';
  } else {
    try {
      result.postgres = await benchOn(postgres, opts);
    } finally {
      await postgres.close();
    }
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string): number | undefined => {
    const at = process.argv.indexOf(name);
    return at > 0 ? Number(process.argv[at + 1]) : undefined;
  };
  const result = await benchWebhookDelivery({ count: arg('--count'), rounds: arg('--rounds') });
  console.log(JSON.stringify(result));
}
