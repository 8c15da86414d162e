/**
 * The delivery engine end to end on a real SQLite store: a brand event fanned out into the outbox, sent by the
 * sender through the real poster (network rules, host map) to a real HTTP receiver on loopback, verified there with
 * the official `standardwebhooks` package as a customer would. Time is the sender's injected clock: a week of
 * retries runs without sleeping, and no assertion depends on how fast the machine is.
 */
import { randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AssetUrls } from '../../../src/assets/asset-urls.js';
import { Billing } from '../../../src/billing/billing.js';
import { createSmtpMailer, noMailer } from '../../../src/billing/mailer.js';
import { UsageMeter } from '../../../src/billing/usage-meter.js';
import { newWebhookSecret } from '../../../src/domain/webhooks.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { sealedBox } from '../../../src/platform/sealed-box.js';
import { DeliveryBilling, type DeliveryPayer } from '../../../src/webhooks/delivery/delivery-billing.js';
import { DeliveryNotices } from '../../../src/webhooks/delivery/delivery-notices.js';
import { MAX_DELIVERY_ATTEMPTS, RETRY_DELAYS_MS } from '../../../src/webhooks/delivery/retry-schedule.js';
import { WebhookFanOut } from '../../../src/webhooks/delivery/webhook-fan-out.js';
import { WebhookPoster } from '../../../src/webhooks/delivery/webhook-poster.js';
import { DISABLE_AFTER_MS, WebhookSender } from '../../../src/webhooks/delivery/webhook-sender.js';
import { startSmtpSink, type SmtpSink } from '../../billing/smtp-sink.js';
import { until } from '../../helpers/until.js';
import { tempSqlite, type TempDatabase } from '../../store/temp-database.js';
import { createOrg, createWebhook, savedRebrand, uniqueDomain } from './webhook-fixtures.js';
import { startReceiver, type ReceivedRequest, type WebhookReceiver } from './webhook-receiver.js';
import { ChargeRule } from '../../../src/usecases/charge-rule.js';

const HOOK_HOST = 'hooks.test';
const OPERATOR_DOMAIN = 'brandbase-operator.com';
/** Configured with its `www.` host, as operators write it: deliveries compare its registrable domain, as lookups do. */
const CONFIGURED_OPERATOR_DOMAIN = `www.${OPERATOR_DOMAIN}`;
const box = sealedBox(randomBytes(32));
const H = 3_600_000;

let db: TempDatabase;
let receiver: WebhookReceiver;
let sink: SmtpSink | null = null;
/** The simulated clock every part reads. */
let now: Date;
const clock = (): Date => now;
const advance = (ms: number): void => void (now = new Date(now.getTime() + ms));

beforeEach(async () => {
  db = await tempSqlite();
  await db.migrate();
  receiver = await startReceiver('accept');
  now = new Date();
});
afterEach(async () => {
  vi.useRealTimers();
  await receiver.close();
  await sink?.close();
  sink = null;
  await db.cleanup();
});

interface Engine {
  fanOut: WebhookFanOut;
  sender: WebhookSender;
  billing: Billing;
}

/** The poster's time cap wherever a test expects an answer: never the thing that fails on a loaded machine. */
const PATIENT_TIMEOUT_MS = 600_000;

function engine(options: { payer?: 'billing' | DeliveryPayer; timeoutMs?: number; mail?: SmtpSink; port?: number } = {}): Engine {
  const meter = new UsageMeter(db.stores.billing, clock);
  const billing = new Billing({ store: db.stores.billing, meter, mailer: noMailer, logger: silentLogger(), now: clock, defaults: { spendingLimitCents: 0, rateLimitPerMinute: 0 } });
  const poster = new WebhookPoster({ hostMap: { [HOOK_HOST]: `127.0.0.1:${options.port ?? receiver.port}` }, timeoutMs: options.timeoutMs ?? PATIENT_TIMEOUT_MS });
  const payer = options.payer === undefined || options.payer === 'billing'
    ? new DeliveryBilling({ accounts: db.stores.billing, reserve: (org, credits) => billing.reserveForOrganization(org, credits), rule: new ChargeRule(CONFIGURED_OPERATOR_DOMAIN) })
    : options.payer;
  const mailer = options.mail ? createSmtpMailer(options.mail.url, 'Brandbase <hooks@brandbase.test>') : noMailer;
  const sender = new WebhookSender(
    { queue: db.stores.queue, store: db.stores.webhooks, box, poster, payer, notices: new DeliveryNotices({ accounts: db.stores.billing, webhooks: db.stores.webhooks }, mailer, silentLogger()), logger: silentLogger() },
    { now: clock, random: () => 0.5, leaseMs: 60_000 },
  );
  const fanOut = new WebhookFanOut(db.stores, new AssetUrls('https://brandbase.example/assets/'), silentLogger(), { now: clock });
  return { fanOut, sender, billing };
}

/** A brand saved with its event, announced as change detection would, and fanned out now. */
async function announce(e: Engine, domain: string, kind: 'brand.rebranded' | 'brand.updated' = 'brand.rebranded'): Promise<number> {
  return e.fanOut.handle(await savedRebrand(db.stores.brands, domain, kind));
}

async function deliveriesOf(orgId: string, webhookId: string) {
  return db.stores.webhooks.listWebhookDeliveries(orgId, webhookId, { from: null, to: null, after: null, limit: 100 });
}

async function attemptsOf(deliveryId: string) {
  return (await db.stores.webhooks.listWebhookAttempts([deliveryId])).get(deliveryId) ?? [];
}

/** What a receiver does: verify the raw body against the headers at the time it got them. */
function verifyAt(secret: string, request: ReceivedRequest): unknown {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Number(request.headers['webhook-timestamp']) * 1000);
    return new Webhook(secret).verify(request.body, request.headers);
  } finally {
    vi.useRealTimers();
  }
}

describe('webhook delivery', () => {
  it('delivers a signed event the official library verifies, with the Authorization header and both secrets of a rotation', async () => {
    const e = engine();
    const orgId = await createOrg(db.stores.billing);
    const domain = uniqueDomain();
    const previous = newWebhookSecret();
    const hook = await createWebhook(db.database, box, {
      orgId,
      url: `https://${HOOK_HOST}/brandbase?x=1`,
      domains: [domain],
      authorization: 'Bearer receiver-token-1',
      previousSecret: { secret: previous, expiresAt: new Date(now.getTime() + 24 * H) },
    });
    expect(await announce(e, domain)).toBe(1);
    expect(await e.sender.drain()).toEqual(['delivered']);

    expect(receiver.requests).toHaveLength(1);
    const request = receiver.requests[0] as ReceivedRequest;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe('Bearer receiver-token-1');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.host).toBe(HOOK_HOST);
    expect(request.headers['webhook-id']).toMatch(/^msg_[a-z2-7]{24}$/);
    expect(request.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    // Verified with the new secret and with the one being rotated out, as the receiver holds either.
    const payload = new Webhook(hook.secret).verify(request.body, request.headers) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed JSON
    expect(new Webhook(previous).verify(request.body, request.headers)).toEqual(payload);
    expect(payload).toMatchObject({ type: 'brand.rebranded', id: expect.stringMatching(/^evt_/), data: { changedFields: ['logos', 'name'], previous: { name: 'Old Acme' } } });
    expect(payload.data.brand.domain).toBe(domain);
    expect(new Date(payload.timestamp as string).toISOString()).toBe(payload.timestamp);
    // A tampered body, or a wrong secret, fails.
    expect(() => new Webhook(hook.secret).verify(request.body.replace('Acme', 'Acne'), request.headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(newWebhookSecret()).verify(request.body, request.headers)).toThrow(WebhookVerificationError);

    const [delivery] = await deliveriesOf(orgId, hook.id);
    expect(delivery).toMatchObject({ id: request.headers['webhook-id'], state: 'delivered', attempts: 1, kind: 'brand.rebranded', domain });
    const [attempt] = await attemptsOf(delivery?.id ?? '');
    expect(attempt).toMatchObject({ attempt: 1, statusCode: 204, error: null });
    // One accepted delivery, one credit.
    const org = await db.stores.billing.getOrganization(orgId);
    expect((await e.billing.usage(org!)).used).toBe(1);  
  });

  it('stops signing with the rotated-out secret once it expires', async () => {
    const e = engine();
    const orgId = await createOrg(db.stores.billing);
    const domain = uniqueDomain();
    const previous = newWebhookSecret();
    const hook = await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/h`, domains: [domain], previousSecret: { secret: previous, expiresAt: new Date(now.getTime() - 1000) } });
    await announce(e, domain);
    expect(await e.sender.drain()).toEqual(['delivered']);
    const request = receiver.requests[0] as ReceivedRequest;
    expect(request.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(request.headers.authorization).toBeUndefined();
    expect(() => new Webhook(previous).verify(request.body, request.headers)).toThrow(WebhookVerificationError);
    expect(new Webhook(hook.secret).verify(request.body, request.headers)).toMatchObject({ type: 'brand.rebranded' });
  });

  it('retries on the schedule while the receiver is down, with the same id and body, then delivers', async () => {
    const port = receiver.port;
    await receiver.close();
    const e = engine({ port });
    const orgId = await createOrg(db.stores.billing);
    const domain = uniqueDomain();
    const hook = await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/down`, domains: [domain] });
    await announce(e, domain);
    const t0 = now.getTime();

    // Attempts 1 and 2: nobody listens. Each failure schedules the next attempt at the nominal delay (no jitter here).
    expect(await e.sender.drain()).toEqual(['retry']);
    advance(RETRY_DELAYS_MS[0]! - 1);  
    expect(await e.sender.drain()).toEqual([]);
    advance(1);
    expect(await e.sender.drain()).toEqual(['retry']);
    // Attempt 3: the receiver is back but failing (500).
    receiver = await startReceiver('fail', port);
    advance(RETRY_DELAYS_MS[1]!);  
    expect(await e.sender.drain()).toEqual(['retry']);
    // Attempt 4: accepted.
    receiver.mode = 'accept';
    advance(RETRY_DELAYS_MS[2]!);  
    expect(await e.sender.drain()).toEqual(['delivered']);
    expect(now.getTime() - t0).toBe(RETRY_DELAYS_MS[0]! + RETRY_DELAYS_MS[1]! + RETRY_DELAYS_MS[2]!);  

    const [delivery] = await deliveriesOf(orgId, hook.id);
    expect(delivery).toMatchObject({ state: 'delivered', attempts: 4, nextAttemptAt: null });
    const attempts = await attemptsOf(delivery?.id ?? '');
    expect(attempts.map((a) => a.statusCode)).toEqual([null, null, 500, 204]);
    expect(attempts[0]?.error).toMatch(/^network: ECONNREFUSED/);
    expect(attempts[2]?.responseExcerpt).toMatch(/^boom x+$/);
    expect(attempts[2]?.responseExcerpt?.length).toBe(1024);
    expect(attempts.map((a) => a.startedAt.getTime() - t0)).toEqual([0, 5_000, 65_000, 365_000]);

    // The two requests that arrived: same id and body, each attempt with its own timestamp and signature.
    const [third, fourth] = receiver.requests as [ReceivedRequest, ReceivedRequest];
    expect(receiver.requests).toHaveLength(2);
    expect(third.headers['webhook-id']).toBe(delivery?.id);
    expect(fourth.headers['webhook-id']).toBe(delivery?.id);
    expect(fourth.body).toBe(third.body);
    expect(Number(fourth.headers['webhook-timestamp']) - Number(third.headers['webhook-timestamp'])).toBe(300);
    expect(fourth.headers['webhook-signature']).not.toBe(third.headers['webhook-signature']);
    expect(verifyAt(hook.secret, third)).toEqual(verifyAt(hook.secret, fourth));
    // Failed attempts cost nothing; the accepted one costs one credit.
    const org = await db.stores.billing.getOrganization(orgId);
    expect((await e.billing.usage(org!)).used).toBe(1);  
  });

  it('records a timeout and a redirect (not followed) as failed attempts', async () => {
    // A short time cap only where the test expects it to fire (the receiver hangs); the redirect attempt has the
    // generous default, so a loaded machine cannot turn its answer into a timeout.
    const e = engine({ timeoutMs: 1_000 });
    const orgId = await createOrg(db.stores.billing);
    const domain = uniqueDomain();
    const hook = await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/slow`, domains: [domain] });
    await announce(e, domain);
    receiver.mode = 'hang';
    expect(await e.sender.drain()).toEqual(['retry']);
    receiver.mode = 'redirect';
    advance(RETRY_DELAYS_MS[0]!);  
    expect(await engine().sender.drain()).toEqual(['retry']);
    const [delivery] = await deliveriesOf(orgId, hook.id);
    const attempts = await attemptsOf(delivery?.id ?? '');
    expect(attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/^timeout: /) });
    expect(attempts[1]).toMatchObject({ statusCode: 307, error: null });
    // The redirect target was never asked: the receiver saw the two attempts only.
    expect(receiver.requests).toHaveLength(2);
    expect(delivery).toMatchObject({ state: 'pending', attempts: 2 });
  });

  it('refuses an endpoint at a private address and records the refusal as an attempt', async () => {
    const e = engine();
    const orgId = await createOrg(db.stores.billing);
    const domain = uniqueDomain();
    // The receiver really listens there; only the host map may reach loopback, and this URL is not mapped.
    const loopback = await createWebhook(db.database, box, { orgId, url: `http://127.0.0.1:${receiver.port}/hook`, domains: [domain] });
    const metadata = await createWebhook(db.database, box, { orgId, url: 'http://169.254.169.254/latest/meta-data/', domains: [domain] });
    const privateNet = await createWebhook(db.database, box, { orgId, url: 'https://10.20.30.40/hook', domains: [domain] });
    expect(await announce(e, domain)).toBe(3);
    expect(await e.sender.drain()).toEqual(['retry', 'retry', 'retry']);
    expect(receiver.connections).toBe(0);
    for (const hook of [loopback, metadata, privateNet]) {
      const [delivery] = await deliveriesOf(orgId, hook.id);
      expect(delivery).toMatchObject({ state: 'pending', attempts: 1 });
      const [attempt] = await attemptsOf(delivery?.id ?? '');
      expect(attempt).toMatchObject({ attempt: 1, statusCode: null, error: expect.stringMatching(/^blocked_address: /), sourceAddress: null });
    }
  });

  it('abandons after 15 attempts over about a week, emails the owner, and disables the webhook after 14 days', async () => {
    sink = await startSmtpSink();
    const e = engine({ mail: sink });
    const orgId = await createOrg(db.stores.billing);
    const domain = uniqueDomain();
    const hook = await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/broken`, domains: [domain] });
    receiver.mode = 'fail';
    await announce(e, domain);
    const t0 = now.getTime();
    const outcomes: string[] = [];
    for (;;) {
      outcomes.push(...(await e.sender.drain()));
      const [delivery] = await deliveriesOf(orgId, hook.id);
      if (delivery?.nextAttemptAt === null || delivery?.nextAttemptAt === undefined) break;
      now = delivery.nextAttemptAt;
    }
    expect(outcomes).toEqual([...Array<string>(MAX_DELIVERY_ATTEMPTS - 1).fill('retry'), 'abandoned']);
    expect(MAX_DELIVERY_ATTEMPTS).toBe(15);
    expect(receiver.requests).toHaveLength(15);
    const span = now.getTime() - t0;
    // "About a week": the last attempt 159 h 51 min 5 s (6.66 days) after the first.
    expect(span).toBe(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0));
    expect(span).toBe(159 * H + 51 * 60_000 + 5_000);
    const [delivery] = await deliveriesOf(orgId, hook.id);
    expect(delivery).toMatchObject({ state: 'abandoned', attempts: 15, nextAttemptAt: null });
    await until(() => sink?.messages.length === 1, 'the abandon email');
    expect(sink.messages[0]).toMatchObject({ to: ['ops@hooked.test'], subject: `Brandbase: a webhook delivery was abandoned (${hook.id})` });
    expect(sink.messages[0]?.raw).not.toContain(HOOK_HOST);

    // The 14-day rule counts from the first failed attempt; just before, nothing is disabled.
    now = new Date(t0 + DISABLE_AFTER_MS - 1);
    expect(await e.sender.sweep()).toEqual([]);
    now = new Date(t0 + DISABLE_AFTER_MS);
    expect(await e.sender.sweep()).toEqual([{ id: hook.id, orgId, name: 'test hook' }]);
    const stored = await db.stores.webhooks.getWebhook(orgId, hook.id);
    expect(stored).toMatchObject({ enabled: false, disabledReason: 'failing' });
    await until(() => sink?.messages.length === 2, 'the disabled email');
    expect(mimeWords(sink.messages[1]?.subject ?? '')).toBe('Brandbase: webhook "test hook" was disabled');
    expect(sink.messages[1]?.to).toEqual(['ops@hooked.test']);
    // Disabled: the next change is not delivered; its subscriptions stay.
    expect(await announce(e, domain, 'brand.updated')).toBe(0);
    expect(await db.stores.webhooks.listWebhookSubscriptions(orgId, hook.id, null, 10)).toHaveLength(1);
  });

  it('keeps a disabled webhook\'s pending deliveries and sends them when it is enabled again', async () => {
    const e = engine();
    const orgId = await createOrg(db.stores.billing);
    const domain = uniqueDomain();
    const hook = await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/h`, domains: [domain] });
    await announce(e, domain);
    await db.stores.webhooks.updateWebhook(orgId, hook.id, { enabled: false }, now);
    expect(await e.sender.drain()).toEqual([]);
    await db.stores.webhooks.updateWebhook(orgId, hook.id, { enabled: true }, now);
    expect(await e.sender.drain()).toEqual(['delivered']);
  });

  it('delivers nothing to a free-plan organization', async () => {
    const e = engine();
    const orgId = await createOrg(db.stores.billing, 'free');
    const domain = uniqueDomain();
    const hook = await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/h`, domains: [domain] });
    expect(await announce(e, domain)).toBe(0);
    expect(await e.sender.drain()).toEqual([]);
    expect(await deliveriesOf(orgId, hook.id)).toEqual([]);
    expect(receiver.connections).toBe(0);
  });

  it('charges nothing for the operator\'s own domain, and waits without attempting when the organization has no credit', async () => {
    const e = engine();
    const orgId = await createOrg(db.stores.billing, 'paid', 0);
    const other = uniqueDomain();
    const own = await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/own`, domains: [OPERATOR_DOMAIN, other] });
    await announce(e, OPERATOR_DOMAIN);
    expect(await e.sender.drain()).toEqual(['delivered']);
    const org = await db.stores.billing.getOrganization(orgId);
    expect((await e.billing.usage(org!)).used).toBe(0);  
    // Another domain needs a credit the organization (quota 0, no prepaid credit, no overage) does not have.
    await announce(e, other);
    expect(await e.sender.drain()).toEqual(['postponed']);
    expect(receiver.requests).toHaveLength(1);
    const pending = (await deliveriesOf(orgId, own.id)).find((d) => d.domain === other);
    expect(pending).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: new Date(now.getTime() + H) });
    expect(await attemptsOf(pending?.id ?? '')).toEqual([]);
  });

  it('fans an event out once per subscribed webhook and event kind, and a repeated event adds nothing', async () => {
    const e = engine();
    const orgId = await createOrg(db.stores.billing);
    const domain = uniqueDomain();
    const both = await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/both`, domains: [domain] });
    const rebrandsOnly = await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/rebrands`, domains: [domain], events: ['brand.rebranded'] });
    await createWebhook(db.database, box, { orgId, url: `https://${HOOK_HOST}/elsewhere`, domains: [uniqueDomain()] });
    const event = await savedRebrand(db.stores.brands, domain, 'brand.updated');
    expect(await e.fanOut.handle(event)).toBe(1);
    expect(await e.fanOut.handle(event)).toBe(0);
    expect(await deliveriesOf(orgId, both.id)).toHaveLength(1);
    expect(await deliveriesOf(orgId, rebrandsOnly.id)).toEqual([]);
    // An event that announces nothing (a first save, no visible change) creates no delivery.
    expect(await e.fanOut.handle({ ...event, announce: null })).toBe(0);
  });
});

/** A header as a mail client shows it: RFC 2047 Q-encoded words decoded (nodemailer encodes quotes that way). */
function mimeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, text: string) =>
      Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}
