/**
 * Webhook management rows over the database kernel (both dialects; tables of migration 0013): webhooks, subscriptions, and
 * the read side of deliveries and attempts for the GraphQL API. Every statement is scoped by `org_id`, so a
 * webhook of another organization reads as missing and is never written.
 */
import type { Kysely, Selectable } from 'kysely';
import type { TestDeliveryWindow } from '../webhook-store.js';
import type {
  DeliveryPageQuery,
  NewWebhookDelivery,
  StoredWebhook,
  TimeCursor,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEventKind,
  WebhookPatch,
  WebhookSecretRotation,
  WebhookSubscription,
} from '../../domain/webhooks.js';
import { fromMillis, fromNullableMillis, toMillis } from '../../db/column-codec.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable, WebhookTables } from './webhook-tables.js';
import { JOB_NAMES, type JobQueue } from '../../jobs/queue.js';
import { enqueueWebhookDelivery } from './webhook-delivery-rows.js';
import { CURRENT_SCHEMA, type DialectQuirks } from '../../db/dialect-quirks.js';

type WebhookRow = Selectable<WebhooksTable>;

function webhookFromRow(row: WebhookRow): StoredWebhook {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventKind[],
    enabled: Number(row.enabled) === 1,
    disabledReason: row.disabled_reason,
    hasAuthorization: row.authorization_sealed !== null,
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
    lastAcceptedAt: fromNullableMillis(row.last_accepted_at),
    secretSealed: row.secret_sealed,
    authorizationSealed: row.authorization_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    previousSecretExpiresAt: fromNullableMillis(row.previous_secret_expires_at),
  };
}

function deliveryFromRow(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    orgId: row.org_id,
    eventId: row.event_id,
    kind: row.kind as WebhookEventKind,
    domain: row.domain,
    state: row.state,
    attempts: Number(row.attempts),
    createdAt: fromMillis(row.created_at),
    deliveredAt: fromNullableMillis(row.delivered_at),
    nextAttemptAt: fromNullableMillis(row.next_attempt_at),
  };
}

function attemptFromRow(row: Selectable<WebhookAttemptsTable>): WebhookAttempt {
  return {
    attempt: Number(row.attempt),
    startedAt: fromMillis(row.started_at),
    statusCode: row.status_code === null ? null : Number(row.status_code),
    latencyMs: Number(row.latency_ms),
    responseExcerpt: row.response_excerpt,
    error: row.error,
    sourceAddress: row.source_address,
  };
}

/**
 * The organization's webhook writes that check a count against a bound (webhooks per organization, test events per
 * minute) take turns, so two concurrent calls never both pass the last place: PostgreSQL takes this transaction lock,
 * SQLite's write transaction already excludes every other writer.
 */
async function lockOrganizationWebhooks(trx: Kysely<WebhookTables>, quirks: DialectQuirks, orgId: string): Promise<void> {
  await quirks.transactionLock(trx as Kysely<unknown>, { name: ['brandbase.webhooks.org'], subname: [CURRENT_SCHEMA, ':', orgId] });
}

/** Inserts the webhook; with `maxPerOrg`, only while its organization has fewer webhooks (false: nothing written). */
export async function insertWebhook(db: Kysely<WebhookTables>, quirks: DialectQuirks, webhook: StoredWebhook, maxPerOrg?: number): Promise<boolean> {
  if (maxPerOrg === undefined) {
    await insertWebhookRow(db, webhook);
    return true;
  }
  return quirks.writeTransaction(db, async (trx) => {
    await lockOrganizationWebhooks(trx, quirks, webhook.orgId);
    const row = await trx
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('org_id', '=', webhook.orgId)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= maxPerOrg) return false;
    await insertWebhookRow(trx, webhook);
    return true;
  });
}

async function insertWebhookRow(db: Kysely<WebhookTables>, webhook: StoredWebhook): Promise<void> {
  await db
    .insertInto('webhooks')
    .values({
      id: webhook.id,
      org_id: webhook.orgId,
      name: webhook.name,
      url: webhook.url,
      events: JSON.stringify(webhook.events),
      authorization_sealed: webhook.authorizationSealed,
      secret_sealed: webhook.secretSealed,
      previous_secret_sealed: webhook.previousSecretSealed,
      previous_secret_expires_at: webhook.previousSecretExpiresAt === null ? null : toMillis(webhook.previousSecretExpiresAt),
      enabled: webhook.enabled ? 1 : 0,
      disabled_reason: webhook.disabledReason,
      last_accepted_at: webhook.lastAcceptedAt === null ? null : toMillis(webhook.lastAcceptedAt),
      created_at: toMillis(webhook.createdAt),
      updated_at: toMillis(webhook.updatedAt),
      failing_since: null,
      abandon_notice_at: null,
      paused_until: null,
    })
    .execute();
}

export async function getWebhook(db: Kysely<WebhookTables>, orgId: string, id: string): Promise<StoredWebhook | null> {
  const row = await db.selectFrom('webhooks').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return row ? webhookFromRow(row) : null;
}

export async function listWebhooks(db: Kysely<WebhookTables>, orgId: string, after: TimeCursor | null, limit: number): Promise<StoredWebhook[]> {
  let query = db.selectFrom('webhooks').selectAll().where('org_id', '=', orgId);
  if (after) {
    // Strictly after the cursor in (created_at desc, id desc) order.
    const at = toMillis(after.createdAt);
    query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', after.id)])]));
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(webhookFromRow);
}

export async function updateWebhook(db: Kysely<WebhookTables>, jobs: Pick<JobQueue, 'makeDue'>, orgId: string, id: string, patch: WebhookPatch, at: Date): Promise<StoredWebhook | null> {
  const set: Partial<WebhookRow> = { updated_at: toMillis(at) };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.url !== undefined) set.url = patch.url;
  if (patch.events !== undefined) set.events = JSON.stringify(patch.events);
  if (patch.authorizationSealed !== undefined) set.authorization_sealed = patch.authorizationSealed;
  if (patch.enabled !== undefined) {
    set.enabled = patch.enabled ? 1 : 0;
    set.disabled_reason = patch.enabled ? null : 'manual';
    // Enabling starts a new 14-day window (the delivery engine's rule, migration 0015).
    if (patch.enabled) {
      set.failing_since = null;
      set.paused_until = null;
    }
  }
  const result = await db.updateTable('webhooks').set(set).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  if (patch.enabled === true) await resumeDeliveries(db, jobs, id, at);
  return getWebhook(db, orgId, id);
}

/**
 * A webhook enabled again sends its pending deliveries now: their jobs, which wait while it is disabled
 * (webhook-sender.ts), are made due at `at` instead of at their next look.
 */
async function resumeDeliveries(db: Kysely<WebhookTables>, jobs: Pick<JobQueue, 'makeDue'>, webhookId: string, at: Date): Promise<void> {
  const pending = await db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhookId).where('state', '=', 'pending').execute();
  if (pending.length > 0) await jobs.makeDue(JOB_NAMES.webhookDeliver, pending.map((d) => d.id), at);
}

export async function rotateWebhookSecret(db: Kysely<WebhookTables>, orgId: string, id: string, rotation: WebhookSecretRotation, at: Date): Promise<StoredWebhook | null> {
  const keep = rotation.previousExpiresAt !== null;
  const result = await db
    .updateTable('webhooks')
    // SET reads the row as it was: the current secret becomes the previous one in the same statement.
    .set((eb) => ({
      previous_secret_sealed: keep ? eb.ref('secret_sealed') : null,
      previous_secret_expires_at: keep && rotation.previousExpiresAt ? toMillis(rotation.previousExpiresAt) : null,
      secret_sealed: rotation.secretSealed,
      updated_at: toMillis(at),
    }))
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  return getWebhook(db, orgId, id);
}

export async function deleteWebhook(db: Kysely<WebhookTables>, quirks: DialectQuirks, orgId: string, id: string): Promise<boolean> {
  // Children are deleted explicitly: SQLite enforces ON DELETE CASCADE only with foreign_keys on.
  return quirks.writeTransaction(db, async (trx) => {
    const owned = await trx.selectFrom('webhooks').select('id').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    if (!owned) return false;
    const deliveries = trx.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id);
    await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
    await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
    await trx.deleteFrom('webhook_subscriptions').where('webhook_id', '=', id).execute();
    await trx.deleteFrom('webhooks').where('id', '=', id).execute();
    return true;
  });
}

/** Inserts in chunks well under both dialects' bound-parameter limits. */
const CHUNK = 250;

export async function addWebhookSubscriptions(db: Kysely<WebhookTables>, quirks: DialectQuirks, orgId: string, webhookId: string, domains: readonly string[], at: Date): Promise<string[] | null> {
  return quirks.writeTransaction(db, async (trx) => {
    const owned = await trx.selectFrom('webhooks').select('id').where('org_id', '=', orgId).where('id', '=', webhookId).executeTakeFirst();
    if (!owned) return null;
    const added: string[] = [];
    const unique = [...new Set(domains)];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = unique.slice(i, i + CHUNK).map((domain) => ({ webhook_id: webhookId, org_id: orgId, domain, created_at: toMillis(at) }));
      const inserted = await trx
        .insertInto('webhook_subscriptions')
        .values(rows)
        .onConflict((oc) => oc.columns(['webhook_id', 'domain']).doNothing())
        .returning('domain')
        .execute();
      added.push(...inserted.map((r) => r.domain));
    }
    return added.sort();
  });
}

export async function removeWebhookSubscriptions(db: Kysely<WebhookTables>, quirks: DialectQuirks, orgId: string, webhookId: string, domains: readonly string[]): Promise<string[] | null> {
  return quirks.writeTransaction(db, async (trx) => {
    const owned = await trx.selectFrom('webhooks').select('id').where('org_id', '=', orgId).where('id', '=', webhookId).executeTakeFirst();
    if (!owned) return null;
    const removed: string[] = [];
    const unique = [...new Set(domains)];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const deleted = await trx
        .deleteFrom('webhook_subscriptions')
        .where('webhook_id', '=', webhookId)
        .where('org_id', '=', orgId)
        .where('domain', 'in', unique.slice(i, i + CHUNK))
        .returning('domain')
        .execute();
      removed.push(...deleted.map((r) => r.domain));
    }
    return removed.sort();
  });
}

export async function listWebhookSubscriptions(db: Kysely<WebhookTables>, orgId: string, webhookId: string, after: string | null, limit: number): Promise<WebhookSubscription[]> {
  let query = db.selectFrom('webhook_subscriptions').select(['domain', 'created_at']).where('org_id', '=', orgId).where('webhook_id', '=', webhookId);
  if (after !== null) query = query.where('domain', '>', after);
  const rows = await query.orderBy('domain').limit(limit).execute();
  return rows.map((r) => ({ domain: r.domain, createdAt: fromMillis(r.created_at) }));
}

/** The delivery and its `webhook.deliver` job, in one transaction (ADR 0049). */
export async function insertWebhookDelivery(db: Kysely<WebhookTables>, quirks: DialectQuirks, jobs: Pick<JobQueue, 'enqueue'>, delivery: NewWebhookDelivery): Promise<boolean> {
  return quirks.writeTransaction(db, async (trx) => {
    const created = await insertDeliveryRow(trx, delivery);
    if (created) await enqueueWebhookDelivery(jobs, trx, delivery.id, delivery.nextAttemptAt, delivery.orgId);
    return created;
  });
}

/**
 * A `webhook.test` delivery and its job, unless the organization already queued `window.max` test deliveries since
 * `window.since` (over all its webhooks): then nothing is written and the answer is when the oldest of those was
 * queued (the window frees a place a minute after it).
 */
export async function insertTestDelivery(
  db: Kysely<WebhookTables>,
  quirks: DialectQuirks,
  jobs: Pick<JobQueue, 'enqueue'>,
  delivery: NewWebhookDelivery,
  window: TestDeliveryWindow,
): Promise<{ inserted: true } | { inserted: false; oldestAt: Date }> {
  return quirks.writeTransaction(db, async (trx) => {
    await lockOrganizationWebhooks(trx, quirks, delivery.orgId);
    // Through the organization's webhooks (a handful), so each is read on its (webhook_id, created_at) index.
    const recent = await trx
      .selectFrom('webhook_deliveries')
      .select((eb) => [eb.fn.countAll<number | string | bigint>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('webhook_id', 'in', trx.selectFrom('webhooks').select('id').where('org_id', '=', delivery.orgId))
      .where('kind', '=', 'webhook.test')
      .where('created_at', '>=', toMillis(window.since))
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= window.max && recent.oldest !== null) return { inserted: false, oldestAt: fromMillis(Number(recent.oldest)) };
    const created = await insertDeliveryRow(trx, delivery);
    if (created) await enqueueWebhookDelivery(jobs, trx, delivery.id, delivery.nextAttemptAt, delivery.orgId);
    return { inserted: true };
  });
}

async function insertDeliveryRow(db: Kysely<WebhookTables>, delivery: NewWebhookDelivery): Promise<boolean> {
  const at = toMillis(delivery.createdAt);
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values({
      id: delivery.id,
      webhook_id: delivery.webhookId,
      org_id: delivery.orgId,
      event_id: delivery.eventId,
      kind: delivery.kind,
      domain: delivery.domain,
      payload: delivery.payload,
      state: 'pending',
      attempts: 0,
      next_attempt_at: toMillis(delivery.nextAttemptAt),
      lease_until: null,
      created_at: at,
      updated_at: at,
      delivered_at: null,
    })
    .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
    .returning('id')
    .execute();
  return inserted.length > 0;
}

export async function listWebhookDeliveries(db: Kysely<WebhookTables>, orgId: string, webhookId: string, q: DeliveryPageQuery): Promise<WebhookDelivery[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('org_id', '=', orgId).where('webhook_id', '=', webhookId);
  if (q.from) query = query.where('created_at', '>=', toMillis(q.from));
  if (q.to) query = query.where('created_at', '<', toMillis(q.to));
  const after = q.after;
  if (after) {
    const at = toMillis(after.createdAt);
    query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', after.id)])]));
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
  return rows.map(deliveryFromRow);
}

export async function listWebhookAttempts(db: Kysely<WebhookTables>, deliveryIds: readonly string[]): Promise<Map<string, WebhookAttempt[]>> {
  const byDelivery = new Map<string, WebhookAttempt[]>();
  for (let i = 0; i < deliveryIds.length; i += CHUNK) {
    const rows = await db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', 'in', deliveryIds.slice(i, i + CHUNK))
      .orderBy('delivery_id')
      .orderBy('attempt')
      .execute();
    for (const row of rows) {
      const list = byDelivery.get(row.delivery_id) ?? [];
      list.push(attemptFromRow(row));
      byDelivery.set(row.delivery_id, list);
    }
  }
  return byDelivery;
}
