/**
 * The webhooks product's storage over the database kernel (both dialects; webhook-admin-rows.ts and
 * webhook-delivery-rows.ts hold the SQL): webhooks and their subscriptions, and the delivery outbox. One instance per
 * Database, built by main/product-stores.ts.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { DisabledWebhook, WebhookAttemptRecord, WebhookDeliveryToSend, WebhookFanOut, WebhookStore } from '../webhook-store.js';
import * as webhookAdmin from './webhook-admin-rows.js';
import * as webhookDeliveries from './webhook-delivery-rows.js';
import type { WebhookQueryTables, WebhookTables } from './webhook-tables.js';

/** What the store asks of the one job queue: deliveries are its `webhook.deliver` jobs (ADR 0049). */
export type WebhookJobs = Pick<JobQueue, 'enqueue' | 'makeDue' | 'complete' | 'fail'>;

export class KyselyWebhookStore implements WebhookStore {
  /** The outbox reads organizations' plans beside its own tables; management touches its own tables only. */
  private readonly db: Kysely<WebhookQueryTables>;
  private readonly admin: Kysely<WebhookTables>;
  private readonly quirks: DialectQuirks;

  /**
   * `jobs` is the queue on the same Database: a delivery's job is enqueued in the transaction that inserts the
   * delivery, and settled in the one that records its attempt.
   */
  constructor(
    database: Database,
    private readonly jobs: WebhookJobs,
  ) {
    this.db = database.tables<WebhookQueryTables>();
    this.admin = database.tables<WebhookTables>();
    this.quirks = database.quirks;
  }

  // ---- webhook outbox (webhook-delivery-rows.ts, ADR 0031) ----

  fanOutWebhookEvent(fanOut: WebhookFanOut): Promise<number> {
    return webhookDeliveries.fanOutWebhookEvent(this.db, this.quirks, this.jobs, fanOut);
  }

  webhookDeliveryToSend(deliveryId: string): Promise<WebhookDeliveryToSend | null> {
    return webhookDeliveries.webhookDeliveryToSend(this.db, deliveryId);
  }

  recordWebhookAttempt(record: WebhookAttemptRecord): Promise<boolean> {
    return webhookDeliveries.recordWebhookAttempt(this.db, this.quirks, this.jobs, record);
  }

  takeWebhookProbe(webhookId: string, now: Date, holdUntil: Date): Promise<boolean> {
    return webhookDeliveries.takeWebhookProbe(this.db, webhookId, now, holdUntil);
  }

  postponeWebhookDelivery(deliveryId: string, until: Date): Promise<void> {
    return webhookDeliveries.postponeWebhookDelivery(this.db, deliveryId, until);
  }

  disableFailingWebhooks(failingSince: Date, now: Date): Promise<DisabledWebhook[]> {
    return webhookDeliveries.disableFailingWebhooks(this.db, failingSince, now);
  }

  claimAbandonNotice(webhookId: string, now: Date, minIntervalMs: number): Promise<boolean> {
    return webhookDeliveries.claimAbandonNotice(this.db, webhookId, now, minIntervalMs);
  }

  // ---- webhook management (webhook-admin-rows.ts; GraphQL and `brandbase webhooks`) ----

  insertWebhook: WebhookStore['insertWebhook'] = (webhook, maxPerOrg) => webhookAdmin.insertWebhook(this.admin, this.quirks, webhook, maxPerOrg);
  getWebhook: WebhookStore['getWebhook'] = (orgId, id) => webhookAdmin.getWebhook(this.admin, orgId, id);
  listWebhooks: WebhookStore['listWebhooks'] = (orgId, after, limit) => webhookAdmin.listWebhooks(this.admin, orgId, after, limit);
  updateWebhook: WebhookStore['updateWebhook'] = (orgId, id, patch, at) => webhookAdmin.updateWebhook(this.admin, this.jobs, orgId, id, patch, at);
  rotateWebhookSecret: WebhookStore['rotateWebhookSecret'] = (orgId, id, rotation, at) => webhookAdmin.rotateWebhookSecret(this.admin, orgId, id, rotation, at);
  deleteWebhook: WebhookStore['deleteWebhook'] = (orgId, id) => webhookAdmin.deleteWebhook(this.admin, this.quirks, orgId, id);
  addWebhookSubscriptions: WebhookStore['addWebhookSubscriptions'] = (orgId, webhookId, domains, at) =>
    webhookAdmin.addWebhookSubscriptions(this.admin, this.quirks, orgId, webhookId, domains, at);
  removeWebhookSubscriptions: WebhookStore['removeWebhookSubscriptions'] = (orgId, webhookId, domains) =>
    webhookAdmin.removeWebhookSubscriptions(this.admin, this.quirks, orgId, webhookId, domains);
  listWebhookSubscriptions: WebhookStore['listWebhookSubscriptions'] = (orgId, webhookId, after, limit) =>
    webhookAdmin.listWebhookSubscriptions(this.admin, orgId, webhookId, after, limit);
  insertWebhookDelivery: WebhookStore['insertWebhookDelivery'] = (delivery) => webhookAdmin.insertWebhookDelivery(this.admin, this.quirks, this.jobs, delivery);
  insertTestDelivery: WebhookStore['insertTestDelivery'] = (delivery, window) => webhookAdmin.insertTestDelivery(this.admin, this.quirks, this.jobs, delivery, window);
  listWebhookDeliveries: WebhookStore['listWebhookDeliveries'] = (orgId, webhookId, query) => webhookAdmin.listWebhookDeliveries(this.admin, orgId, webhookId, query);
  listWebhookAttempts: WebhookStore['listWebhookAttempts'] = (deliveryIds) => webhookAdmin.listWebhookAttempts(this.admin, deliveryIds);
}
