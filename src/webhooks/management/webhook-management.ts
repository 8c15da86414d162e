/**
 * Webhook management (spec 6 rule 5, issue 19): the one set of operations behind `POST /graphql` and
 * `brandbase webhooks`. Every operation is scoped to an organization on a paid plan; another organization's
 * webhook answers `webhook_not_found`, exactly like a missing one. Secrets and Authorization values are sealed
 * before they reach the store, and a secret is returned only by the call that made it (create, rotate).
 */
import type { Organization } from '../../domain/accounts.js';
import type { Brand } from '../../domain/brand.js';
import { ApiError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { parseTypedIdentifier } from '../../domain/identifiers.js';
import {
  DEFAULT_SECRET_OVERLAP_SECONDS,
  DEFAULT_WEBHOOK_EVENTS,
  isWebhookEventKind,
  newWebhookSecret,
  type StoredWebhook,
  type Webhook,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEventKind,
  type WebhookPatch,
  type WebhookSubscription,
} from '../../domain/webhooks.js';
import type { MappedAddress } from '../../platform/fetch-target.js';
import type { SealedBox } from '../../platform/sealed-box.js';
import type { WebhookAdminStore } from '../webhook-store.js';
import { decodeKeyCursor, decodeTimeCursor, encodeKeyCursor, encodeTimeCursor, pageSize, toPage, type Page } from './page-cursor.js';
import { subscriptionDomains, type InvalidDomain } from './subscription-domains.js';
import { NO_CREDIT_SAMPLE, sampleBrand, testEventPayload } from './test-event.js';
import type { WebhookBrands } from './webhook-brands.js';
import { checkWebhookUrl } from './webhook-url.js';

export const MAX_WEBHOOK_NAME_LENGTH = 100;
export const MAX_AUTHORIZATION_LENGTH = 4096;
/** A rotated-out secret signs at most a week longer (the retry window of a delivery). */
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 24 * 60 * 60;
/** Subscriptions looked at for a held brand when sendTestEvent names none. */
const TEST_BRAND_CANDIDATES = 10;

export interface WebhookInput {
  url: string;
  name?: string | null;
  events?: readonly string[] | null;
  /** The `Authorization` header value sent with every delivery. */
  authorization?: string | null;
  enabled?: boolean | null;
}

/** Absent or null fields stay as they are, except `authorization`: null or empty removes the header. */
export interface WebhookUpdate {
  url?: string | null;
  name?: string | null;
  events?: readonly string[] | null;
  authorization?: string | null;
  enabled?: boolean | null;
}

export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

export interface DeliveryArgs extends PageArgs {
  from?: Date | null;
  to?: Date | null;
}

export interface WebhookWithSecret {
  webhook: Webhook;
  /** Shown once: it is stored sealed and never returned again. */
  secret: string;
}

export interface RotatedSecret extends WebhookWithSecret {
  /** Until when the previous secret still signs (null: it stopped at once). */
  previousSecretExpiresAt: Date | null;
}

export interface SubscriptionChange {
  webhookId: string;
  /** Domains newly subscribed (added) or unsubscribed (removed), registrable, sorted. */
  changed: string[];
  /** Valid domains that needed no change (already subscribed, or not subscribed when removing). */
  unchanged: string[];
  invalid: InvalidDomain[];
  /** Added domains whose brand was not held: a crawl was queued. */
  queued: string[];
  /** Added domains not held whose crawl the queue refused (full): indexed on a later lookup or prefetch. */
  notQueued: string[];
}

export interface DeliveryView extends WebhookDelivery {
  attemptList: WebhookAttempt[];
}

export interface WebhookManagementDeps {
  store: WebhookAdminStore;
  box: SealedBox;
  brands: WebhookBrands;
  /** The crawler's host map (BRANDBASE_CRAWL_HOSTS): the only hosts an http (not https) URL may name. */
  hostMap: ReadonlyMap<string, MappedAddress>;
  /**
   * Whether the organization could look a brand up now (a credit is available: Billing.canLookUp). A test event
   * carries a held brand only then; otherwise the sample brand, so a free test never hands out a record the
   * organization could not have paid for. Absent: always (tests of management alone).
   */
  canLookUp?: (org: Organization) => Promise<boolean>;
  /** Bounds per organization (docs/webhooks.md "Limits"); absent: none. */
  limits?: WebhookLimits;
  clock?: () => Date;
}

export interface WebhookLimits {
  /** Webhooks one organization may have: createWebhook past it answers `too_many_webhooks`. */
  webhooksPerOrganization: number;
  /** Test events one organization may queue per minute (all its webhooks): past it `rate_limited`. */
  testEventsPerMinute: number;
}

/** The window of BRANDBASE_WEBHOOK_TESTS_PER_MINUTE. */
const TEST_WINDOW_MS = 60_000;

/** What the API shows of a stored webhook: never a sealed value. */
export function publicWebhook(stored: StoredWebhook): Webhook {
  const { id, orgId, name, url, events, enabled, disabledReason, hasAuthorization, createdAt, updatedAt, lastAcceptedAt } = stored;
  return { id, orgId, name, url, events, enabled, disabledReason, hasAuthorization, createdAt, updatedAt, lastAcceptedAt };
}

function invalid(reason: string): ApiError {
  return new ApiError('invalid_webhook_input', `Invalid webhook input: ${reason}.`);
}

function webhookName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw invalid('name must not be empty');
  if (name.length > MAX_WEBHOOK_NAME_LENGTH) throw invalid(`name is longer than ${MAX_WEBHOOK_NAME_LENGTH} characters`);
  return name;
}

/** Subscribable kinds, deduplicated in a stable order; `webhook.test` is sent on request only. */
function eventKinds(raw: readonly string[]): WebhookEventKind[] {
  if (raw.length === 0) throw invalid('events must not be empty');
  const kinds = new Set<WebhookEventKind>();
  for (const kind of raw) {
    if (!isWebhookEventKind(kind)) throw invalid(`unknown event kind ${JSON.stringify(kind.slice(0, 40))}`);
    if (kind === 'webhook.test') throw invalid('webhook.test is not subscribed to: sendTestEvent sends it on request');
    kinds.add(kind);
  }
  return DEFAULT_WEBHOOK_EVENTS.filter((k) => kinds.has(k));
}

/** A header value as HTTP allows it: visible ASCII and spaces (no CR/LF that could inject headers). */
function authorizationValue(raw: string): string {
  const value = raw.trim();
  if (value.length > MAX_AUTHORIZATION_LENGTH) throw invalid(`authorization is longer than ${MAX_AUTHORIZATION_LENGTH} characters`);
  if (!/^[\x20-\x7e]*$/.test(value)) throw invalid('authorization may hold visible ASCII characters and spaces only');
  return value;
}

export class WebhookManagement {
  private readonly clock: () => Date;

  constructor(private readonly deps: WebhookManagementDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** Webhooks are available on paid plans only (spec 6); the same answer for every operation. */
  assertAllowed(org: Organization): void {
    if (org.plan !== 'paid') throw new ApiError('paid_plan_required', 'Webhooks are available on paid plans only.');
  }

  async list(org: Organization, args: PageArgs): Promise<Page<Webhook>> {
    this.assertAllowed(org);
    const size = pageSize(args.first);
    const rows = await this.deps.store.listWebhooks(org.id, decodeTimeCursor('w', args.after), size + 1);
    return toPage(rows.map(publicWebhook), size, (w) => encodeTimeCursor('w', w));
  }

  async get(org: Organization, id: string): Promise<Webhook> {
    return publicWebhook(await this.stored(org, id));
  }

  async create(org: Organization, input: WebhookInput): Promise<WebhookWithSecret> {
    this.assertAllowed(org);
    const url = checkWebhookUrl(input.url, this.deps.hostMap);
    const secret = newWebhookSecret();
    const authorization = input.authorization ? authorizationValue(input.authorization) : '';
    const now = this.clock();
    const enabled = input.enabled ?? true;
    const stored: StoredWebhook = {
      id: newId('whk'),
      orgId: org.id,
      name: webhookName(input.name ?? new URL(url).hostname),
      url,
      events: input.events ? eventKinds(input.events) : [...DEFAULT_WEBHOOK_EVENTS],
      enabled,
      disabledReason: enabled ? null : 'manual',
      hasAuthorization: authorization !== '',
      createdAt: now,
      updatedAt: now,
      lastAcceptedAt: null,
      secretSealed: this.deps.box.seal(secret),
      authorizationSealed: authorization === '' ? null : this.deps.box.seal(authorization),
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
    };
    const max = this.deps.limits?.webhooksPerOrganization;
    if (!(await this.deps.store.insertWebhook(stored, max))) {
      throw new ApiError('too_many_webhooks', `Too many webhooks: an organization may have at most ${max ?? 0}. Delete one to create another. Nothing was changed.`);
    }
    return { webhook: publicWebhook(stored), secret };
  }

  async update(org: Organization, id: string, input: WebhookUpdate): Promise<Webhook> {
    this.assertAllowed(org);
    const patch: WebhookPatch = {};
    if (input.url !== undefined && input.url !== null) patch.url = checkWebhookUrl(input.url, this.deps.hostMap);
    if (input.name !== undefined && input.name !== null) patch.name = webhookName(input.name);
    if (input.events !== undefined && input.events !== null) patch.events = eventKinds(input.events);
    if (input.enabled !== undefined && input.enabled !== null) patch.enabled = input.enabled;
    if (input.authorization !== undefined) {
      const value = input.authorization === null ? '' : authorizationValue(input.authorization);
      patch.authorizationSealed = value === '' ? null : this.deps.box.seal(value);
    }
    const updated = await this.deps.store.updateWebhook(org.id, id, patch, this.clock());
    if (!updated) throw new ApiError('webhook_not_found');
    return publicWebhook(updated);
  }

  /** Deletes the webhook, its subscriptions and its delivery history. */
  async delete(org: Organization, id: string): Promise<void> {
    this.assertAllowed(org);
    if (!(await this.deps.store.deleteWebhook(org.id, id))) throw new ApiError('webhook_not_found');
  }

  /** A new secret; the current one keeps signing for `expireCurrentInSeconds` (default 24 h, 0: stops at once). */
  async rotateSecret(org: Organization, id: string, expireCurrentInSeconds?: number | null): Promise<RotatedSecret> {
    this.assertAllowed(org);
    const overlap = expireCurrentInSeconds ?? DEFAULT_SECRET_OVERLAP_SECONDS;
    if (!Number.isInteger(overlap) || overlap < 0 || overlap > MAX_SECRET_OVERLAP_SECONDS) {
      throw invalid(`expireCurrentInSeconds must be a whole number from 0 to ${MAX_SECRET_OVERLAP_SECONDS}`);
    }
    const now = this.clock();
    const secret = newWebhookSecret();
    const previousExpiresAt = overlap === 0 ? null : new Date(now.getTime() + overlap * 1000);
    const rotated = await this.deps.store.rotateWebhookSecret(org.id, id, { secretSealed: this.deps.box.seal(secret), previousExpiresAt }, now);
    if (!rotated) throw new ApiError('webhook_not_found');
    return { webhook: publicWebhook(rotated), secret, previousSecretExpiresAt: rotated.previousSecretExpiresAt };
  }

  /** `requestId`: the API request, carried by the crawls queued for brands not held (`reqId`, ADR 0039). */
  async addSubscriptions(org: Organization, webhookId: string, inputs: readonly string[], requestId?: string): Promise<SubscriptionChange> {
    this.assertAllowed(org);
    const { domains, invalid: rejected } = subscriptionDomains(inputs);
    const added = await this.deps.store.addWebhookSubscriptions(org.id, webhookId, domains, this.clock());
    if (added === null) throw new ApiError('webhook_not_found');
    const change: SubscriptionChange = { webhookId, changed: added, unchanged: without(domains, added), invalid: rejected, queued: [], notQueued: [] };
    // Only newly subscribed domains are looked at: the others were when they were added.
    for (const domain of added) {
      if (await this.deps.brands.heldBrand(domain)) continue;
      const queued = await this.deps.brands.queueIndexing(domain, org.id, requestId);
      (queued === 'queued' ? change.queued : change.notQueued).push(domain);
    }
    return change;
  }

  async removeSubscriptions(org: Organization, webhookId: string, inputs: readonly string[]): Promise<SubscriptionChange> {
    this.assertAllowed(org);
    const { domains, invalid: rejected } = subscriptionDomains(inputs);
    const removed = await this.deps.store.removeWebhookSubscriptions(org.id, webhookId, domains);
    if (removed === null) throw new ApiError('webhook_not_found');
    return { webhookId, changed: removed, unchanged: without(domains, removed), invalid: rejected, queued: [], notQueued: [] };
  }

  /** A webhook's subscriptions by domain. The webhook must be this organization's (`webhook` from `get`). */
  async subscriptions(org: Organization, webhook: Webhook | string, args: PageArgs): Promise<Page<WebhookSubscription>> {
    const id = await this.ownedId(org, webhook);
    const size = pageSize(args.first);
    const rows = await this.deps.store.listWebhookSubscriptions(org.id, id, decodeKeyCursor('s', args.after), size + 1);
    return toPage(rows, size, (s) => encodeKeyCursor('s', s.domain));
  }

  /** A webhook's deliveries, newest first, `from` inclusive and `to` exclusive, each with its attempts. */
  async deliveries(org: Organization, webhook: Webhook | string, args: DeliveryArgs): Promise<Page<DeliveryView>> {
    const id = await this.ownedId(org, webhook);
    const size = pageSize(args.first);
    const query = { from: args.from ?? null, to: args.to ?? null, after: decodeTimeCursor('d', args.after), limit: size + 1 };
    const rows = await this.deps.store.listWebhookDeliveries(org.id, id, query);
    const page = toPage(rows, size, (d) => encodeTimeCursor('d', d));
    const attempts = await this.deps.store.listWebhookAttempts(page.edges.map((e) => e.node.id));
    return { ...page, edges: page.edges.map((e) => ({ cursor: e.cursor, node: { ...e.node, attemptList: attempts.get(e.node.id) ?? [] } })) };
  }

  /**
   * Inserts a `webhook.test` delivery, due now; the delivery engine sends it like any other (signed, retried). Its
   * brand is the held brand of `domain`, or of one of the webhook's first subscriptions, or a sample brand; always
   * the sample when the organization could not look a brand up now (no credit: a test event is free). At most
   * `limits.testEventsPerMinute` per organization: past it `rate_limited`, nothing queued.
   */
  async sendTestEvent(org: Organization, webhookId: string, domain?: string | null): Promise<DeliveryView> {
    const webhook = await this.stored(org, webhookId);
    const brand = await this.testBrand(org, webhook.id, domain ?? null);
    const now = this.clock();
    const eventId = newId('evt');
    const delivery = { id: newId('msg'), webhookId: webhook.id, orgId: org.id, eventId, kind: 'webhook.test' as const, domain: brand.domain, payload: testEventPayload(eventId, now, brand), createdAt: now, nextAttemptAt: now };
    const max = this.deps.limits?.testEventsPerMinute;
    if (max === undefined) {
      await this.deps.store.insertWebhookDelivery(delivery);
    } else {
      const result = await this.deps.store.insertTestDelivery(delivery, { since: new Date(now.getTime() - TEST_WINDOW_MS + 1), max });
      if (!result.inserted) {
        const seconds = Math.max(1, Math.ceil((result.oldestAt.getTime() + TEST_WINDOW_MS - now.getTime()) / 1000));
        throw new ApiError('rate_limited', `Too many test events: an organization may send at most ${max} per minute. Retry in ${seconds} seconds. Nothing was queued.`);
      }
    }
    return { ...delivery, state: 'pending', attempts: 0, deliveredAt: null, attemptList: [] };
  }

  private async testBrand(org: Organization, webhookId: string, domain: string | null): Promise<Brand> {
    const parsed = domain === null ? null : parseTypedIdentifier('domain', domain);
    if (parsed !== null && (!parsed.ok || parsed.readings.primary.kind !== 'domain')) throw invalid(`domain ${JSON.stringify((domain ?? '').slice(0, 80))} is not a domain`);
    // Without a credit the organization could not look any brand up: it gets the sample, and no answer says whether
    // a brand is held (that too is what a lookup sells).
    if (this.deps.canLookUp !== undefined && !(await this.deps.canLookUp(org))) return sampleBrand(NO_CREDIT_SAMPLE);
    if (parsed?.ok && parsed.readings.primary.kind === 'domain') {
      const brand = await this.deps.brands.heldBrand(parsed.readings.primary.domain);
      if (!brand) throw invalid(`no brand is held for ${parsed.readings.primary.domain}; omit domain to send a sample brand`);
      return brand;
    }
    for (const subscription of await this.deps.store.listWebhookSubscriptions(org.id, webhookId, null, TEST_BRAND_CANDIDATES)) {
      const brand = await this.deps.brands.heldBrand(subscription.domain);
      if (brand) return brand;
    }
    return sampleBrand();
  }

  private async stored(org: Organization, id: string): Promise<StoredWebhook> {
    this.assertAllowed(org);
    const stored = await this.deps.store.getWebhook(org.id, id);
    if (!stored) throw new ApiError('webhook_not_found');
    return stored;
  }

  /** A webhook object was read for this organization already; an id is checked. */
  private async ownedId(org: Organization, webhook: Webhook | string): Promise<string> {
    this.assertAllowed(org);
    if (typeof webhook !== 'string') {
      if (webhook.orgId !== org.id) throw new ApiError('webhook_not_found');
      return webhook.id;
    }
    return (await this.stored(org, webhook)).id;
  }
}

function without(all: readonly string[], some: readonly string[]): string[] {
  const set = new Set(some);
  return all.filter((d) => !set.has(d)).sort();
}
