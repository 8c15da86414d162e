/**
 * Issue 33's attacks on a real `brandbase serve` (the built program), on SQLite and PostgreSQL: each attacker gets the
 * documented refusal; the victim organization's `/healthz`, lookup and HEAD are answered while the attack runs, and
 * its webhook delivery arrives while the attacker's deliveries hang; the server's peak resident memory (VmHWM) stays
 * within the bound docs/security.md states for the API process.
 *
 * Times are not asserted (a test holds no wall-clock budget on a busy machine): the file prints the victim's median
 * lookup and HEAD times at rest and during each attack, and `npm run bench -- --attacks` measures /healthz, /assets/
 * and a webhook delivery against a baseline in the same run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { BillingAdmin } from '../../src/billing/billing-admin.js';
import { billingDefaults } from '../../src/billing/billing-defaults.js';
import { loadConfig } from '../../src/config/config.js';
import { createServices } from '../../src/main/services.js';
import { silentLogger } from '../../src/platform/logger.js';
import { describeEachBackend, openBackendDatabase } from '../helpers/backends.js';
import { startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { probeHealth, type ProbeResult } from '../helpers/health-probe.js';
import { filterBombSvg } from '../helpers/hostile-svg.js';
import type { SharedDatabase } from '../helpers/shared-database.js';
import { sampleBrand } from '../store/sample-brand.js';
import { startReceiver, type WebhookReceiver } from '../webhooks/delivery/webhook-receiver.js';

/** The API process's bound under attack (docs/security.md "Memory"): the server alone, not its worker processes. */
const SERVER_BOUND_MB = 400;
const VICTIM_DOMAIN = 'victim-brand.test';
const HOSTILE_DOMAIN = 'hostile-svg.test';
const NEW_ORG_SHARE = 3;

interface Seeded {
  victimKey: string;
  attackerKey: string;
  attackerClientId: string;
  /** A paid organization flooding webhook test events. */
  flooderKey: string;
  newOrgKeys: string[];
}

/** Written before the server starts, through the services on the same database. */
async function seed(env: Record<string, string>): Promise<Seeded> {
  const services = await createServices(loadConfig(env), silentLogger());
  try {
    const now = new Date();
    const svg = await services.assets.put(Buffer.from(filterBombSvg()), 'svg');
    const logo = { theme: null, type: 'logo' as const, tags: [], formats: [{ src: svg.key, format: 'svg' as const, width: 1000, height: 1000, size: svg.size, background: null }] };
    await services.stores.brands.saveBrand({ brand: sampleBrand(HOSTILE_DOMAIN, { logos: [logo] }), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: HOSTILE_DOMAIN }]);
    const png = await services.assets.put(await sharp({ create: { width: 64, height: 64, channels: 4, background: '#1e40af' } }).png().toBuffer(), 'png');
    const victimLogo = { theme: null, type: 'logo' as const, tags: [], formats: [{ src: png.key, format: 'png' as const, width: 64, height: 64, size: png.size, background: null }] };
    await services.stores.brands.saveBrand({ brand: sampleBrand(VICTIM_DOMAIN, { logos: [victimLogo] }), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: VICTIM_DOMAIN }]);
    const keyOf = async (name: string, plan: 'paid' | 'free'): Promise<{ key: string; orgId: string }> => {
      const org = await services.accounts.createOrganization({ name, plan, quota: 100_000 });
      return { key: (await services.accounts.createApiKey({ orgId: org.id })).key, orgId: org.id };
    };
    const victim = await keyOf('Victim', 'paid');
    const attacker = await keyOf('Attacker', 'paid');
    const flooder = await keyOf('Flooder', 'paid');
    const newOrgKeys: string[] = [];
    // New unpaid organizations with a dollar of credits, as standing access makes them: each has the new organization's share.
    const billing = new BillingAdmin(services.stores.billing, billingDefaults(loadConfig(env)));
    for (let i = 0; i < 4; i++) {
      const newcomer = await keyOf(`Newcomer ${i}`, 'free');
      await billing.addCredits(newcomer.orgId, 20, 100, 'purchase');
      newOrgKeys.push(newcomer.key);
    }
    return { victimKey: victim.key, attackerKey: attacker.key, attackerClientId: (await services.clientIds.create(attacker.orgId)).id, flooderKey: flooder.key, newOrgKeys };
  } finally {
    await services.close();
  }
}

interface VictimSeen {
  answered: number;
  refused: string[];
  /** Median answer time of the lookup (GET) and of the HEAD, in ms: reported beside the baseline, never asserted. */
  getMs: number;
  headMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 10) / 10;
}

/**
 * The victim's own requests, one after another until stopped (at least `rounds` rounds): a held brand's lookup and
 * HEAD, each answered 200.
 */
function watchVictim(baseUrl: string, key: string, rounds = 1): { stop(): Promise<VictimSeen> } {
  let running = true;
  let answered = 0;
  const refused: string[] = [];
  const times: Record<string, number[]> = { GET: [], HEAD: [] };
  const headers = { authorization: `Bearer ${key}` };
  const loop = (async () => {
    for (let round = 0; running || round < rounds; round++) {
      for (const method of ['GET', 'HEAD']) {
        const started = performance.now();
        const res = await fetch(`${baseUrl}/v2/brands/${VICTIM_DOMAIN}`, { method, headers, signal: AbortSignal.timeout(60_000) }).catch((error: unknown) => ({ status: String(error), arrayBuffer: async () => undefined }));
        await res.arrayBuffer();
        times[method]?.push(performance.now() - started);
        if (res.status === 200) answered++;
        else refused.push(`${method} ${res.status}`);
      }
      // A client's pace, not a load test: the attack is what should weigh on the server.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { answered, refused, getMs: median(times.GET ?? []), headMs: median(times.HEAD ?? []) };
    },
  };
}

describeEachBackend('issue 33 attacks on a real server', (backend) => {
  let db: SharedDatabase;
  let server: ServerProcess;
  let seeded: Seeded;
  let hanging: WebhookReceiver;
  let answering: WebhookReceiver;
  const figures: Record<string, { serverPeakMb: number; healthzAnswers: number; victimAnswers: number; victimGetMs: number; victimHeadMs: number }> = {};

  beforeAll(async () => {
    db = await openBackendDatabase(backend);
    hanging = await startReceiver('hang');
    answering = await startReceiver('accept');
    const env = {
      ...db.env,
      BRANDBASE_CRAWL_HOSTS: JSON.stringify({ 'hang.test': `127.0.0.1:${hanging.port}`, 'answer.test': `127.0.0.1:${answering.port}` }),
      BRANDBASE_KEY_CACHE_MS: '0',
      // Nothing is crawled: queued crawls stay queued, so admission alone is observed.
      BRANDBASE_WORKER_CONCURRENCY: '0',
      BRANDBASE_QUEUE_MAX_PER_NEW_ORG: String(NEW_ORG_SHARE),
      BRANDBASE_WEBHOOK_TIMEOUT_MS: '60000',
      BRANDBASE_LOG_LEVEL: 'warn',
      // The victim asks as fast as it is answered: its own throughput limits would refuse it, not the attacks.
      BRANDBASE_PREFETCH_PER_MINUTE: '0',
      BRANDBASE_RATE_LIMIT_PER_MINUTE: '0',
    };
    seeded = await seed(env);
    server = await startServer(env);
    // The victim's answer times with no attack, for the figures printed after the file (not asserted).
    const baseline = await watchVictim(server.baseUrl, seeded.victimKey, 40).stop();
    figures['(baseline, no attack)'] = { serverPeakMb: 0, healthzAnswers: 0, victimAnswers: baseline.answered, victimGetMs: baseline.getMs, victimHeadMs: baseline.headMs };
  });

  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await hanging?.close();
    await answering?.close();
    await db?.cleanup();
    if (Object.keys(figures).length > 0) {
      console.log(`issue 33 attacks [${backend}] (server bound ${SERVER_BOUND_MB} MB):`);
      console.table(figures);
    }
  });

  async function gql(key: string, query: string, variables: Record<string, unknown> = {}): Promise<{ status: number; body: { data?: Record<string, any>; errors?: { message: string; extensions?: Record<string, unknown> }[] } }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- GraphQL answers
    const res = await fetch(`${server.baseUrl}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    return { status: res.status, body: (await res.json()) as never };
  }

  /** Runs `attack` while /healthz and the victim's lookups are watched; both must have been answered throughout. */
  async function underAttack<T>(name: string, attack: () => Promise<T>): Promise<T> {
    const health = probeHealth(server.baseUrl, server.child.pid as number);
    const victim = watchVictim(server.baseUrl, seeded.victimKey);
    const result = await attack();
    const [probe, seen] = [await health.stop(), await victim.stop()];
    figures[name] = { serverPeakMb: probe.serverPeakMb, healthzAnswers: probe.answers, victimAnswers: seen.answered, victimGetMs: seen.getMs, victimHeadMs: seen.headMs };
    expectVictimServed(probe, seen);
    return result;
  }

  function expectVictimServed(probe: ProbeResult, seen: VictimSeen): void {
    expect(server.child.exitCode, server.output().slice(-4000)).toBeNull();
    expect(probe.failures).toBe(0);
    expect(probe.answers).toBeGreaterThan(0);
    expect(seen.refused).toEqual([]);
    expect(seen.answered).toBeGreaterThan(0);
    expect(probe.serverPeakMb).toBeLessThan(SERVER_BOUND_MB);
  }

  it('GraphQL: 50 aliases of webhooks → deliveries answer 400 query_too_expensive before anything runs', async () => {
    const create = 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }';
    for (let i = 0; i < 5; i++) expect((await gql(seeded.attackerKey, create, { input: { url: `https://hooks${i}.example.com/in` } })).status).toBe(200);
    const aliased = `{ ${Array.from({ length: 50 }, (_, i) => `a${i}: webhooks { edges { node { id deliveries { edges { node { id } } } } } }`).join(' ')} }`;
    const refused = await underAttack('graphql', () => gql(seeded.attackerKey, aliased));
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'query_too_expensive', status: 400 });
    expect(refused.body.data).toBeUndefined();
  });

  it('logo CDN: new sizes of a filter-bomb SVG logo are rendered out of the API process and answered the fallback when killed', async () => {
    const answers = await underAttack('svg', () =>
      Promise.all(
        [1000, 1001, 1002, 1003].map(async (w) => {
          const res = await fetch(`${server.baseUrl}/logo/${HOSTILE_DOMAIN}/type/logo/w/${w}.png?c=${seeded.attackerClientId}`);
          await res.arrayBuffer();
          return { status: res.status, fallback: res.headers.get('x-bf-fallback') };
        }),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 4 }, () => ({ status: 200, fallback: 'default' })));
  });

  it('webhooks: test events past the per-minute limit answer 429, the 21st webhook 409; the victim\'s delivery arrives while the flood hangs', async () => {
    const create = 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }';
    const send = 'mutation($id: ID!) { sendTestEvent(webhookId: $id) { delivery { id } } }';
    const attackers = await gqlKeyWithWebhooks(seeded.flooderKey, create, 'http://hang.test/flood', 20);
    const refusedHook = await gql(seeded.flooderKey, create, { input: { url: 'http://hang.test/21' } });
    expect(refusedHook.body.errors?.[0]?.extensions).toMatchObject({ code: 'too_many_webhooks', status: 409 });
    const flood = await underAttack('webhook flood', async () => {
      const answers = [];
      for (let i = 0; i < 11; i++) answers.push(await gql(seeded.flooderKey, send, { id: attackers[i % attackers.length] }));
      return answers;
    });
    expect(flood.slice(0, 10).every((a) => a.status === 200 && a.body.errors === undefined)).toBe(true);
    expect(flood[10]?.body.errors?.[0]?.extensions).toMatchObject({ code: 'rate_limited', status: 429 });
    if (hanging.requests.length === 0) await hanging.next();
    // The victim's own test event: delivered while the attacker's deliveries wait on an endpoint that never answers.
    const victimHook = (await gql(seeded.victimKey, create, { input: { url: 'http://answer.test/victim' } })).body.data?.createWebhook.webhook.id as string;
    const arrived = answering.next();
    expect((await gql(seeded.victimKey, send, { id: victimHook })).body.errors).toBeUndefined();
    await arrived;
    expect(answering.requests.some((r) => r.headers['webhook-id'] !== undefined)).toBe(true);
    expect(hanging.requests.length).toBeLessThan(11);
  });

  async function gqlKeyWithWebhooks(key: string, create: string, url: string, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const answer = await gql(key, create, { input: { url: `${url}/${i}` } });
      expect(answer.body.errors, JSON.stringify(answer.body)).toBeUndefined();
      ids.push(answer.body.data?.createWebhook.webhook.id as string);
    }
    return ids;
  }

  describe('the crawl queue', () => {
    it('new unpaid organizations and a client ID each fill their own share only: the paid victim\'s HEAD still queues', async () => {
      const head = (key: string, domain: string) => fetch(`${server.baseUrl}/v2/brands/${domain}`, { method: 'HEAD', headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
      const statuses = await underAttack('crawl queue', async () => {
        const byOrg: number[][] = [];
        for (const [o, key] of seeded.newOrgKeys.entries()) {
          const mine: number[] = [];
          for (let i = 0; i < NEW_ORG_SHARE + 2; i++) mine.push(await head(key, `flood-${o}-${i}.test`));
          byOrg.push(mine);
        }
        // Logo CDN fallbacks of brands not held queue crawls through the client ID, with a Referer anyone can send.
        const cdn: number[] = [];
        for (let i = 0; i < 30; i++) {
          const res = await fetch(`${server.baseUrl}/logo/client-flood-${i}.test?c=${seeded.attackerClientId}`, { headers: { referer: 'https://victim.example/' } });
          await res.arrayBuffer();
          cdn.push(res.status);
        }
        return { byOrg, cdn };
      });
      for (const mine of statuses.byOrg) {
        expect(mine.slice(0, NEW_ORG_SHARE)).toEqual(Array.from({ length: NEW_ORG_SHARE }, () => 202));
        expect(mine.slice(NEW_ORG_SHARE)).toEqual([503, 503]);
      }
      expect(statuses.cdn.every((s) => s === 200)).toBe(true);
      // The client ID's owner and the victim still queue crawls of their own.
      expect(await head(seeded.attackerKey, 'owner-still-queues.test')).toBe(202);
      expect(await head(seeded.victimKey, 'victim-still-queues.test')).toBe(202);
    });
  });
});
