/**
 * Change detection end to end (spec section 6, ADR 0030/0031): websites served on loopback change between two
 * crawls by the real crawler (safe fetcher through the host map, real image analysis, real asset store); the brand
 * indexer keeps the files' perceptual signatures and saves the record, the save's transaction decides what the
 * refresh announces, the `webhooks` consumer fans it out, and the sender delivers it, signed, to a receiver on
 * loopback that verifies it with the official `standardwebhooks` package. What the receiver got is what is checked.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import * as icons from 'simple-icons';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/assets/asset-urls.js';
import { LocalAssetStore } from '../../src/assets/local/local-asset-store.js';
import { BrandIndexer } from '../../src/brands/brand-indexer.js';
import { crawlBrand } from '../../src/crawl/crawl-brand.js';
import { silentLogger } from '../../src/platform/logger.js';
import { SafeFetcher } from '../../src/platform/safe-fetcher.js';
import { sealedBox } from '../../src/platform/sealed-box.js';
import { FREE_DELIVERIES } from '../../src/webhooks/delivery/delivery-billing.js';
import { WEBHOOK_CONSUMER, WebhookFanOut } from '../../src/webhooks/delivery/webhook-fan-out.js';
import { BrandEventConsumer } from '../../src/events/brand-event-consumer.js';
import { WebhookPoster } from '../../src/webhooks/delivery/webhook-poster.js';
import { WebhookSender } from '../../src/webhooks/delivery/webhook-sender.js';
import type { TempDatabase } from '../store/temp-database.js';
import { startChangingSites, type ChangingSites, type SiteVersion } from './changing-sites.js';
import { createOrg, createWebhook, type TestWebhook } from './delivery/webhook-fixtures.js';
import { startReceiver, type WebhookReceiver } from './delivery/webhook-receiver.js';
import { describeEachBackend, tempDatabase } from '../helpers/backends.js';

describeEachBackend('change detection', (backend) => {
  const HOSTS = {
    rebrand: 'shapeshift.test',
    rebrandWide: 'phoenix.test',
    logoOnly: 'logoswap.test',
    reexport: 'reexport.test',
    unchanged: 'steady.test',
    nameOnly: 'renamer.test',
  } as const;
  const HOOK_HOST = 'hooks.test';
  const DAY = 86_400_000;

  const V1: Omit<SiteVersion, 'name'> = { logoMark: icons.siStripe, iconMark: icons.siStripe };

  let sites: ChangingSites;
  let receiver: WebhookReceiver;
  let db: TempDatabase;
  let assetsDir: string;
  let indexer: BrandIndexer;
  let consumer: BrandEventConsumer;
  let sender: WebhookSender;
  let hook: TestWebhook;
  /** The indexer's clock: every crawl happens a day after the previous one (a refresh is a later crawl). */
  let crawlClock = Date.now();

  interface Received {
    type: string;
    id: string;
    data: { brand: { domain: string; name: string | null; logos: { type: string; formats: { src: string }[] }[] }; changedFields: string[]; previous?: { name: string | null; logo: { formats: { src: string }[] } | null } };
  }

  beforeAll(async () => {
    sites = await startChangingSites(Object.values(HOSTS));
    receiver = await startReceiver('accept');
    db = await tempDatabase(backend);
    await db.migrate();
    assetsDir = await mkdtemp(path.join(tmpdir(), 'brandbase-change-'));
    const assets = new LocalAssetStore({ dir: assetsDir });
    const fetcher = new SafeFetcher({ hostMap: sites.hostMap });
    indexer = new BrandIndexer(
      db.stores.brands,
      (domain, _owner, known) => crawlBrand(domain, { fetcher, assets, knownAnalyses: known ?? [] }, { timeoutMs: 60_000 }),
      silentLogger(),
      { now: () => new Date(crawlClock) },
    );
    const box = sealedBox(randomBytes(32));
    const orgId = await createOrg(db.stores.billing);
    hook = await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/events`, domains: Object.values(HOSTS) });
    const fanOut = new WebhookFanOut(db.stores, new AssetUrls('https://brandbase.example/assets/'), silentLogger());
    // Claims a second ahead: the save writes its event with the saving process's clock.
    consumer = new BrandEventConsumer(db.stores.queue, db.stores.events, WEBHOOK_CONSUMER, async (event) => void (await fanOut.handle(event)), silentLogger(), { now: () => new Date(Date.now() + 1000) });
    await consumer.subscribe();
    const poster = new WebhookPoster({ hostMap: { [HOOK_HOST]: `127.0.0.1:${receiver.port}` } });
    sender = new WebhookSender({ queue: db.stores.queue, store: db.stores.webhooks, box, poster, payer: FREE_DELIVERIES, notices: null, logger: silentLogger() });
  }, 120_000);

  afterAll(async () => {
    await sites?.close();
    await receiver?.close();
    await db?.cleanup();
    if (assetsDir) await rm(assetsDir, { recursive: true, force: true });
  });

  /** Crawls `host` as it is now, then runs the `webhooks` consumer and the sender until nothing is left to do. */
  async function crawlAndDeliver(host: string): Promise<Received[]> {
    crawlClock += DAY;
    const outcome = await indexer.index(host, { retry: true });
    if (!outcome.ok) throw new Error(`crawl of ${host} failed: ${outcome.reason} ${outcome.message}`);
    const before = receiver.requests.length;
    while ((await consumer.runNext()) !== null);
    await sender.drain();
    return receiver.requests.slice(before).map((r) => new Webhook(hook.secret).verify(r.body, r.headers) as Received);
  }

  /** The files of the held brand's current logo and icon (old files the re-crawl keeps as `other` left out). */
  async function currentMarkFiles(host: string): Promise<string[]> {
    const stored = await db.stores.brands.findBrandByIdentifier({ kind: 'domain', value: host });
    return (stored?.brand.logos ?? []).filter((l) => l.type === 'logo' || l.type === 'icon').flatMap((l) => l.formats.map((f) => f.src)).sort();
  }

  describe('change detection through the real crawler', () => {
    it('a new logo together with a new icon and name fires exactly one brand.rebranded', async () => {
      sites.set(HOSTS.rebrand, { ...V1, name: 'Shapeshift' });
      // A first crawl announces nothing: nobody can have seen an earlier version.
      expect(await crawlAndDeliver(HOSTS.rebrand)).toEqual([]);
      const stored = await db.stores.brands.findBrandByIdentifier({ kind: 'domain', value: HOSTS.rebrand });
      expect(stored?.brand.name).toBe('Shapeshift');
      expect(stored?.brand.logos.map((l) => l.type).sort()).toEqual(['icon', 'logo']);
      const oldLogo = stored?.brand.logos.find((l) => l.type === 'logo');

      sites.set(HOSTS.rebrand, { name: 'Novaform', logoMark: icons.siNotion, iconMark: icons.siNotion });
      const events = await crawlAndDeliver(HOSTS.rebrand);
      expect(events.map((e) => e.type)).toEqual(['brand.rebranded']);
      const [event] = events as [Received];
      expect(event.id).toMatch(/^evt_/);
      expect(event.data.brand).toMatchObject({ domain: HOSTS.rebrand, name: 'Novaform' });
      expect(event.data.changedFields).toEqual(expect.arrayContaining(['logos', 'icon', 'name']));
      expect(event.data.previous?.name).toBe('Shapeshift');
      // The previous logo, with its files' URLs rendered like the brand's.
      expect(event.data.previous?.logo?.formats.map((f) => f.src)).toEqual(oldLogo?.formats.map((f) => `https://brandbase.example/assets/${f.src}`));

      // Crawled again unchanged: nothing more.
      expect(await crawlAndDeliver(HOSTS.rebrand)).toEqual([]);
    });

    it('tells two wide wordmarks apart (their signatures are close: the 9×8 grid squeezes them)', async () => {
      sites.set(HOSTS.rebrandWide, { ...V1, name: 'Phoenix' });
      expect(await crawlAndDeliver(HOSTS.rebrandWide)).toEqual([]);
      sites.set(HOSTS.rebrandWide, { name: 'Ashbird', logoMark: icons.siNotion, iconMark: icons.siNotion });
      const events = await crawlAndDeliver(HOSTS.rebrandWide);
      expect(events.map((e) => [e.type, e.data.previous?.name, e.data.brand.name])).toEqual([['brand.rebranded', 'Phoenix', 'Ashbird']]);
    });

    it('a new logo alone is an update of the logos, not a rebrand', async () => {
      sites.set(HOSTS.logoOnly, { ...V1, name: 'Logoswap' });
      expect(await crawlAndDeliver(HOSTS.logoOnly)).toEqual([]);
      sites.set(HOSTS.logoOnly, { ...V1, name: 'Logoswap', logoMark: icons.siShopify });
      const events = await crawlAndDeliver(HOSTS.logoOnly);
      // The brand colours come from the logo, so they changed with it; the icon and the name did not.
      expect(events.map((e) => [e.type, e.data.changedFields])).toEqual([['brand.updated', ['logos', 'colors']]]);
      expect(events[0]?.data.previous).toBeUndefined();
    });

    it('a re-exported, re-encoded and resized logo and icon announce nothing', async () => {
      sites.set(HOSTS.reexport, { ...V1, name: 'Reexport' });
      expect(await crawlAndDeliver(HOSTS.reexport)).toEqual([]);
      const before = await currentMarkFiles(HOSTS.reexport);
      sites.set(HOSTS.reexport, { ...V1, name: 'Reexport', encoding: 'reexported' });
      expect(await crawlAndDeliver(HOSTS.reexport)).toEqual([]);
      // The files did change (other bytes, other content keys, other sizes): only their marks stayed the same.
      const after = await currentMarkFiles(HOSTS.reexport);
      expect(after).toHaveLength(before.length);
      expect(after.filter((key) => before.includes(key))).toEqual([]);
    });

    it('an unchanged site announces nothing, however often it is refreshed', async () => {
      sites.set(HOSTS.unchanged, { ...V1, name: 'Steady' });
      for (let i = 0; i < 3; i++) expect(await crawlAndDeliver(HOSTS.unchanged)).toEqual([]);
    });

    it('a new name alone is an update of the name', async () => {
      sites.set(HOSTS.nameOnly, { ...V1, name: 'Renamer' });
      expect(await crawlAndDeliver(HOSTS.nameOnly)).toEqual([]);
      // The wordmark shows the name, so the logo file changes too; its mark (the drawing) barely does.
      sites.set(HOSTS.nameOnly, { ...V1, name: 'Renamed' });
      const events = await crawlAndDeliver(HOSTS.nameOnly);
      expect(events.map((e) => e.type)).toEqual(['brand.updated']);
      expect(events[0]?.data.changedFields).toContain('name');
    });
  });
});
