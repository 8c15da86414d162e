/**
 * Issue 30, "What it must show" (ADR 0049): a brand save and the work it queues commit together. A real child process
 * saves a brand (a rebrand, with CSS palette evidence) and is killed with SIGKILL before any of the work runs; a
 * `brandbase serve` started afterwards on the same database does all of it: the palette render job, the `webhooks`
 * consumer's brand event (fanned out into a delivery and its job) and the webhook delivery, which a receiver on
 * loopback gets, signed. A save that rolls back leaves no job, event or delivery behind. On SQLite and PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PALETTE_EVIDENCE_VERSION, type PaletteEvidence } from '../../src/domain/palette.js';
import { JOB_NAMES } from '../../src/jobs/queue.js';
import type { JobTables } from '../../src/jobs/sql/jobs-table.js';
import type { ProductStores } from '../../src/main/product-stores.js';
import { PaletteRenderScheduler } from '../../src/palette/palette-render-scheduler.js';
import { silentLogger } from '../../src/platform/logger.js';
import { keyFromSecret, sealedBox } from '../../src/platform/sealed-box.js';
import type { IdentifierRef } from '../../src/brands/brand-store.js';
import { WEBHOOK_CONSUMER } from '../../src/webhooks/delivery/webhook-fan-out.js';
import { describeEachBackend, openBackendDatabase } from '../helpers/backends.js';
import { startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { reapOnExit } from '../helpers/child-reaper.js';
import type { SharedDatabase } from '../helpers/shared-database.js';
import { eventually } from '../helpers/until.js';
import { sampleBrand } from '../store/sample-brand.js';
import { openBackendDatabaseStores } from '../store/store-peer-backend.js';
import type { Database } from '../helpers/all-tables.js';
import type { Database as KernelDatabase } from '../../src/db/database.js';
import { createOrg, createWebhook } from '../webhooks/delivery/webhook-fixtures.js';
import { startReceiver, type WebhookReceiver } from '../webhooks/delivery/webhook-receiver.js';

const CHILD = fileURLToPath(new URL('./save-then-die.child.ts', import.meta.url));
const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const HOOK_HOST = 'hooks.test';
const SECRET_KEY = 'saved-work-test-installation-key-0123456789';
const CSS: PaletteEvidence = { version: PALETTE_EVIDENCE_VERSION, source: 'css', css: {}, elements: [], tokens: [], gradients: [], pairs: [], themes: {}, signals: [] };

describeEachBackend('saved work survives a killed process', (backend) => {
  let database: SharedDatabase;
  let stores: ProductStores;
  let tables: Kysely<Database>;
  /** The same connection as the kernel's handle, for the webhook rows the test writes (webhook-fixtures.ts). */
  let kernel: KernelDatabase;
  let receiver: WebhookReceiver;
  let server: ServerProcess | null = null;

  beforeAll(async () => {
    database = await openBackendDatabase(backend);
    const opened = await openBackendDatabaseStores(database.peerSpec);
    ({ stores, db: tables, database: kernel } = opened);
    await opened.migrate();
    receiver = await startReceiver('accept');
  });

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await kernel?.close();
    await receiver?.close();
    await database?.cleanup();
  });

  const db = (): Kysely<JobTables> => tables as unknown as Kysely<JobTables>;

  async function jobsOf(name: string, keyPart: string): Promise<{ state: string; key: string }[]> {
    const rows = await db().selectFrom('jobs').select(['state', 'key', 'payload']).where('name', '=', name).execute();
    return rows.filter((r) => r.key.includes(keyPart) || r.payload.includes(keyPart)).map(({ state, key }) => ({ state, key }));
  }

  /** Runs the saving child until it printed `saved ...`, then kills it with SIGKILL; returns the line. */
  async function saveThenKill(domain: string): Promise<string> {
    const child = reapOnExit(spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(database.peerSpec), domain], { stdio: ['ignore', 'pipe', 'inherit'] }));
    const exited = new Promise<string | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (l) => l.startsWith('saved ') && resolve(l));
      child.once('exit', (code) => reject(new Error(`the saving process exited (code ${code}) before it saved`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    return line;
  }

  it('killed after the save committed: a restarted process runs the palette render job, fans out and delivers', async () => {
    const domain = `saved-${randomBytes(4).toString('hex')}.com`;
    const orgId = await createOrg(stores.billing);
    const hook = await createWebhook(kernel, sealedBox(keyFromSecret(SECRET_KEY)), { orgId, url: `https://${HOOK_HOST}/events`, domains: [domain] });
    // A `serve` ran before: the `webhooks` consumer is subscribed, so a save queues the event's delivery to it.
    await stores.events.subscribeBrandEvents(WEBHOOK_CONSUMER, new Date());

    const [, eventId, announced] = (await saveThenKill(domain)).split(' ');
    expect(announced).toBe('brand.rebranded');
    const brand = await stores.brands.findBrandByIdentifier({ kind: 'domain', value: domain });
    if (brand === null) throw new Error('the brand was not saved');
    // The work is queued, and none of it ran: the process died right after the commit.
    expect(await jobsOf(JOB_NAMES.paletteRender, brand.brand.id)).toEqual([{ state: 'queued', key: `${brand.brand.id}@${brand.crawledAt.getTime()}` }]);
    expect((await jobsOf(JOB_NAMES.brandEvent, eventId ?? '')).filter((j) => j.key.startsWith(`${WEBHOOK_CONSUMER}/`))).toEqual([{ state: 'queued', key: `${WEBHOOK_CONSUMER}/${eventId}` }]);
    expect(await stores.webhooks.listWebhookDeliveries(orgId, hook.id, { from: null, to: null, after: null, limit: 10 })).toEqual([]);

    // The restart: a real `brandbase serve` (from source) on the same database.
    const configFile = path.join(database.dataDir, 'brandbase.env');
    await writeFile(configFile, '');
    server = await startServer(
      {
        NODE_OPTIONS: '--import tsx',
        BRANDBASE_CONFIG_FILE: configFile,
        BRANDBASE_DATABASE_URL: '',
        ...database.env,
        BRANDBASE_SECRET_KEY: SECRET_KEY,
        BRANDBASE_CRAWL_HOSTS: JSON.stringify({ [HOOK_HOST]: `127.0.0.1:${receiver.port}` }),
        BRANDBASE_CRAWL_ISOLATION: 'off',
        BRANDBASE_REFRESH: 'off',
        // The render job runs and ends as the setting says (the site does not exist; test/palette renders real pages):
        // what is checked here is that the job the dead process queued is run by the new one.
        BRANDBASE_PALETTE_RENDER: 'off',
        BRANDBASE_LOG_LEVEL: 'warn',
      },
      ['serve'],
      { bin: CLI },
    );
    const [delivered] = await eventually(
      () => stores.webhooks.listWebhookDeliveries(orgId, hook.id, { from: null, to: null, after: null, limit: 10 }),
      (list) => list[0]?.state === 'delivered',
      180_000,
    );
    expect(delivered).toMatchObject({ eventId, kind: 'brand.rebranded', attempts: 1 });
    const request = receiver.requests.find((r) => r.headers['webhook-id'] === delivered?.id);
    expect(new Webhook(hook.secret).verify(request?.body ?? '', request?.headers ?? {})).toMatchObject({ type: 'brand.rebranded', data: { brand: { name: 'Ashbird' }, previous: { name: 'Phoenix Rockets' } } });
    // Every job the save caused ran to its end in the restarted process.
    await eventually(() => jobsOf(JOB_NAMES.paletteRender, brand.brand.id), (jobs) => jobs.length === 1 && jobs[0]?.state === 'done', 180_000);
    await eventually(() => jobsOf(JOB_NAMES.brandEvent, eventId ?? ''), (jobs) => jobs.every((j) => j.state === 'done'), 180_000);
    await eventually(() => jobsOf(JOB_NAMES.webhookDeliver, delivered?.id ?? ''), (jobs) => jobs.length === 1 && jobs[0]?.state === 'done', 180_000);
    server.child.kill('SIGKILL');
    await server.exited;
    server = null;
  }, 400_000);

  it('a save that rolls back leaves no job, event or delivery behind', async () => {
    const domain = `rolled-${randomBytes(4).toString('hex')}.com`;
    const orgId = await createOrg(stores.billing);
    const hook = await createWebhook(kernel, sealedBox(keyFromSecret(SECRET_KEY)), { orgId, url: `https://${HOOK_HOST}/events`, domains: [domain] });
    await stores.events.subscribeBrandEvents(WEBHOOK_CONSUMER, new Date());
    const scheduler = new PaletteRenderScheduler(stores.queue, silentLogger(), { enabled: true, maxDepth: 1000 });
    stores.saveHooks.push(scheduler);
    try {
      const brand = sampleBrand(domain);
      const now = new Date();
      // A NOT NULL violation on the identifier insert: the transaction rolls back after the hooks queued their work.
      const invalid = [{ kind: 'domain', value: domain }, { kind: 'ticker', value: null as unknown as string }] as IdentifierRef[];
      await expect(stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, invalid, { paletteEvidence: CSS })).rejects.toThrow();
      expect(await stores.brands.getBrand(brand.id)).toBeNull();
      expect(await jobsOf(JOB_NAMES.paletteRender, brand.id)).toEqual([]);
      const events = await db().selectFrom('jobs').select('payload').where('name', '=', JOB_NAMES.brandEvent).execute();
      const eventIds = events.map((e) => (JSON.parse(e.payload) as { eventId: string }).eventId);
      for (const id of eventIds) expect(await stores.events.getBrandEvent(id)).not.toMatchObject({ brandId: brand.id });
      expect(await stores.webhooks.listWebhookDeliveries(orgId, hook.id, { from: null, to: null, after: null, limit: 10 })).toEqual([]);
    } finally {
      stores.saveHooks.splice(stores.saveHooks.indexOf(scheduler), 1);
    }
  });
});
