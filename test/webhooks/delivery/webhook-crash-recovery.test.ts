/**
 * At-least-once delivery across crashes, with real `brandbase serve` processes on one SQLite file, and again on one
 * PostgreSQL schema (ADR 0031): a refresh that rebrands a brand is committed to the store (the record, its
 * `brand.saved` event and the event's delivery to the `webhooks` consumer, in one transaction); a running
 * `brandbase serve` fans it out into the outbox and is killed with SIGKILL before it sends anything; the next one
 * sends it and is killed with SIGKILL while the receiver holds the request unanswered; the third delivers it. The receiver gets the event (same webhook-id every
 * time) and verifies it with the official `standardwebhooks` package.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFromSecret, sealedBox } from '../../../src/platform/sealed-box.js';
import type { Database } from '../../../src/db/database.js';
import type { WebhookStore } from '../../../src/webhooks/webhook-store.js';
import type { BillingStore } from '../../../src/billing/billing-store.js';
import type { BrandStore } from '../../../src/brands/brand-store.js';
import { startServer, type ServerProcess } from '../../helpers/brandbase-process.js';
import { eventually, until } from '../../helpers/until.js';
import { sampleBrand } from '../../store/sample-brand.js';
import { createOrg, createWebhook, type TestWebhook } from './webhook-fixtures.js';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.js';
import { connectTo, describeEachBackend, openBackendDatabase } from '../../helpers/backends.js';
import type { SharedDatabase } from '../../helpers/shared-database.js';

describeEachBackend('webhook crash recovery', (backend) => {
  const SITE = 'phoenix-rockets.com';
  const HOOK_HOST = 'hooks.test';
  const SECRET_KEY = 'crash-test-installation-key-0123456789abcdef';

  let database: SharedDatabase;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  let server: ServerProcess | null = null;
  let migrate: () => Promise<void>;
  let webhooks: WebhookStore;
  /** The kernel's handle of the same connection, for the webhook rows the test writes (webhook-fixtures.ts). */
  let kernel: Database;
  let billing: BillingStore;
  let brands: BrandStore;

  beforeAll(async () => {
    database = await openBackendDatabase(backend);
    const configFile = path.join(database.dataDir, 'brandbase.env');
    await writeFile(configFile, '');
    receiver = await startReceiver('hang');
    env = {
      BRANDBASE_CONFIG_FILE: configFile,
      BRANDBASE_DATABASE_URL: '',
      ...database.env,
      BRANDBASE_SECRET_KEY: SECRET_KEY,
      BRANDBASE_CRAWL_HOSTS: JSON.stringify({ [HOOK_HOST]: `127.0.0.1:${receiver.port}` }),
      BRANDBASE_CRAWL_ISOLATION: 'off',
      BRANDBASE_WORKER_CONCURRENCY: '0',
      BRANDBASE_REFRESH: 'off',
      // An attempt may take 10 s, longer than it takes to kill the process holding the request (even on a busy
      // machine); its lease (4 × that) is what the next process waits for before sending it again.
      BRANDBASE_WEBHOOK_TIMEOUT_MS: '10000',
      BRANDBASE_LOG_LEVEL: 'info',
    };
    ({ migrate, stores: { webhooks, billing, brands }, database: kernel } = await connectTo(database));
    await migrate();
  });

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await kernel?.close();
    await receiver?.close();
    await database?.cleanup();
  });

  async function kill(s: ServerProcess): Promise<void> {
    s.child.kill('SIGKILL');
    expect(await s.exited).toBeNull();
  }

  /** Two crawls of the brand as the indexer saves them: the second, later one shows a new logo, icon and name. */
  async function commitRebrand(): Promise<void> {
    const first = sampleBrand(SITE, { name: 'Phoenix Rockets' });
    const t1 = new Date(Date.now() - 86_400_000);
    await brands.saveBrand({ brand: first, status: 'indexed', crawledAt: t1, createdAt: t1, updatedAt: t1 }, [{ kind: 'domain', value: SITE }]);
    const renamed = {
      ...first,
      name: 'Ashbird',
      logos: first.logos.map((logo) => ({ ...logo, formats: logo.formats.map((f) => ({ ...f, src: f.src.replace('cdn.example/', 'cdn.example/v2/') })) })),
    };
    const t2 = new Date();
    const event = await brands.saveBrand({ brand: renamed, status: 'indexed', crawledAt: t2, createdAt: t1, updatedAt: t2 }, [{ kind: 'domain', value: SITE }]);
    expect(event.announce?.kind).toBe('brand.rebranded');
  }

  describe('webhook delivery survives SIGKILL', () => {
    it('a committed rebrand is delivered after restarts, never lost', async () => {
      const orgId = await createOrg(billing);
      const hook: TestWebhook = await createWebhook(kernel, sealedBox(keyFromSecret(SECRET_KEY)), { orgId, url: `https://${HOOK_HOST}/events`, domains: [SITE], authorization: 'Bearer crash-token' });
      const deliveries = () => webhooks.listWebhookDeliveries(orgId, hook.id, { from: null, to: null, after: null, limit: 10 });

      // The first process only fans out (no sender), so it dies with the delivery committed and unsent.
      server = await startServer({ ...env, BRANDBASE_WEBHOOK_SENDERS: '0' });
      await commitRebrand();
      const [pending] = await eventually(deliveries, (list) => list.length === 1);
      expect(pending).toMatchObject({ kind: 'brand.rebranded', state: 'pending', attempts: 0, domain: SITE });
      await kill(server);
      expect(receiver.connections).toBe(0);

      // The second process sends it; the receiver holds the request without answering, and the process is killed.
      server = await startServer(env);
      await until(() => receiver.requests.length === 1, 'the first request');
      await kill(server);
      expect((await deliveries())[0]).toMatchObject({ state: 'pending', attempts: 0 });

      // The third process sends it again once the dead process's lease expires; this time the receiver accepts.
      receiver.mode = 'accept';
      server = await startServer(env);
      const [delivered] = await eventually(deliveries, (list) => list[0]?.state === 'delivered');
      expect(delivered).toMatchObject({ id: pending?.id, attempts: 1 });

      expect(receiver.requests.length).toBeGreaterThanOrEqual(2);
      const ids = new Set(receiver.requests.map((r) => r.headers['webhook-id']));
      expect([...ids]).toEqual([pending?.id]);
      for (const request of receiver.requests) {
        expect(request.headers.authorization).toBe('Bearer crash-token');
        const payload = new Webhook(hook.secret).verify(request.body, request.headers) as { type: string; data: { brand: { name: string }; previous: { name: string } } };
        expect(payload).toMatchObject({ type: 'brand.rebranded', data: { brand: { name: 'Ashbird' }, previous: { name: 'Phoenix Rockets' } } });
      }
      // Every attempt carries the same event data.
      expect(new Set(receiver.requests.map((r) => r.body)).size).toBe(1);
      await kill(server);
      server = null;
    }, 600_000);
  });
});
