/**
 * The webhook outbox over the database kernel (both dialects; migrations 0013 and 0015, ADR 0031): fan-out of a brand event
 * into `webhook_deliveries` with one `webhook.deliver` job each (leased, retried and purged by the one job queue,
 * ADR 0049), attempts and the 14-day disabling rule. An attempt is recorded only against the attempt count the
 * delivery had when its job was claimed, so a sender that outlived its lease cannot record the same attempt twice.
 */
import { sql, type Kysely } from 'kysely';
import { newId } from '../../domain/ids.js';
import { isWebhookEventKind, type WebhookEventKind } from '../../domain/webhooks.js';
import type { DisabledWebhook, WebhookAttemptRecord, WebhookDeliveryToSend, WebhookFanOut } from '../webhook-store.js';
import { JOB_NAMES, type JobQueue } from '../../jobs/queue.js';
import { fromMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { WebhookQueryTables } from './webhook-tables.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

/** Error texts and response excerpts are kept for the owner's debugging, bounded. */
const MAX_TEXT = 1024;

function subscribesTo(events: string, kind: WebhookEventKind): boolean {
  try {
    const parsed: unknown = JSON.parse(events);
    return Array.isArray(parsed) && parsed.includes(kind);
  } catch {
    return false;
  }
}

/**
 * Inserts one pending delivery per target and its `webhook.deliver` job, in one transaction: a delivery exists
 * exactly when its job does. A repeated fan-out of one event inserts nothing (unique per webhook and event).
 */
export async function fanOutWebhookEvent(db: Kysely<WebhookQueryTables>, quirks: DialectQuirks, jobs: Pick<JobQueue, 'enqueue'>, fanOut: WebhookFanOut): Promise<number> {
  const at = toMillis(fanOut.createdAt);
  return quirks.writeTransaction(db, async (trx) => {
    const candidates = await trx
      .selectFrom('webhooks as w')
      .innerJoin('webhook_subscriptions as s', 's.webhook_id', 'w.id')
      .innerJoin('organizations as o', 'o.id', 'w.org_id')
      .select(['w.id', 'w.org_id', 'w.events'])
      .where('s.domain', '=', fanOut.domain)
      .where('w.enabled', '=', 1)
      .where('o.plan', '=', 'paid')
      .orderBy('w.id')
      .execute();
    const targets = candidates.filter((w) => subscribesTo(w.events, fanOut.kind));
    if (targets.length === 0) return 0;
    const inserted = await trx
      .insertInto('webhook_deliveries')
      .values(
        targets.map((w) => ({
          id: newId('msg'),
          webhook_id: w.id,
          org_id: w.org_id,
          event_id: fanOut.eventId,
          kind: fanOut.kind,
          domain: fanOut.domain,
          payload: fanOut.payload,
          state: 'pending' as const,
          attempts: 0,
          next_attempt_at: at,
          lease_until: null,
          created_at: at,
          updated_at: at,
          delivered_at: null,
        })),
      )
      .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
      .returning(['id', 'org_id'])
      .execute();
    for (const { id, org_id } of inserted) await enqueueWebhookDelivery(jobs, trx, id, fanOut.createdAt, org_id);
    return inserted.length;
  });
}

/**
 * The delivery's `webhook.deliver` job, in the transaction that inserts the delivery. Owned by the delivery's
 * organization, so senders claim deliveries in turns between organizations (each organization's oldest first) and
 * one organization's backlog or stalled endpoint never delays another's (docs/webhooks.md, "Fairness"). No bound: a
 * delivery is never refused for a full queue.
 */
export async function enqueueWebhookDelivery<Tables>(jobs: Pick<JobQueue, 'enqueue'>, trx: Kysely<Tables>, deliveryId: string, runAt: Date, orgId: string): Promise<void> {
  await jobs.enqueue(JOB_NAMES.webhookDeliver, deliveryId, { deliveryId }, { tx: trx as Kysely<unknown>, runAt, owner: orgId });
}

/** A delivery as its `webhook.deliver` job finds it, with its webhook's sending details; null when it is gone. */
export async function webhookDeliveryToSend(db: Kysely<WebhookQueryTables>, deliveryId: string): Promise<WebhookDeliveryToSend | null> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('organizations as o', 'o.id', 'w.org_id')
    .select(['d.id', 'd.webhook_id', 'd.org_id', 'd.event_id', 'd.kind', 'd.domain', 'd.payload', 'd.attempts', 'd.state'])
    .select(['w.url', 'w.secret_sealed', 'w.previous_secret_sealed', 'w.previous_secret_expires_at', 'w.authorization_sealed', 'w.enabled', 'w.failing_since', 'w.paused_until', 'o.plan'])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
  // Deleted with its webhook (the cascade removes the delivery): nothing to send.
  if (row === undefined) return null;
  if (!isWebhookEventKind(row.kind)) throw new RangeError(`unknown webhook event kind ${row.kind}`);
  return {
    delivery: {
      id: row.id,
      webhookId: row.webhook_id,
      orgId: row.org_id,
      eventId: row.event_id,
      kind: row.kind,
      domain: row.domain,
      payload: row.payload,
      attempts: toSafeInteger(row.attempts),
      url: row.url,
      secretSealed: row.secret_sealed,
      previousSecretSealed: row.previous_secret_sealed,
      previousSecretExpiresAt: row.previous_secret_expires_at === null ? null : fromMillis(row.previous_secret_expires_at),
      authorizationSealed: row.authorization_sealed,
    },
    pending: row.state === 'pending',
    // Disabled webhooks and organizations back on the free plan keep their deliveries pending (ADR 0031).
    sendable: toSafeInteger(row.enabled) === 1 && row.plan === 'paid',
    failing: row.failing_since !== null,
    pausedUntil: row.paused_until === null ? null : fromMillis(row.paused_until),
  };
}

/**
 * Makes this delivery the probe of its failing webhook: true when the webhook is failing and not paused at `now`
 * (its pause ended, or none was set), and then pauses it until `holdUntil` so no other delivery is attempted
 * meanwhile; false when another delivery holds the probe or the pause still runs. One conditional UPDATE: two
 * senders never both take it.
 */
export async function takeWebhookProbe(db: Kysely<WebhookQueryTables>, webhookId: string, now: Date, holdUntil: Date): Promise<boolean> {
  const nowMs = toMillis(now);
  const result = await db
    .updateTable('webhooks')
    .set({ paused_until: toMillis(holdUntil) })
    .where('id', '=', webhookId)
    .where('failing_since', 'is not', null)
    .where((eb) => eb.or([eb('paused_until', 'is', null), eb('paused_until', '<=', nowMs)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The longest a failing endpoint is paused after a failed attempt (its breaker's longest wait). */
export const MAX_PAUSE_MS = 60 * 60 * 1000;

/**
 * Until when a webhook whose attempt just failed is paused: the failed delivery's own retry, or longer the longer the
 * endpoint has been failing (as long again as it has failed so far, at most MAX_PAUSE_MS), so a dead endpoint is
 * tried less and less often, whatever number of deliveries wait for it.
 */
export function pauseAfterFailure(startedAtMs: number, failingSinceMs: number | null, nextAttemptAtMs: number | null): number {
  const failingFor = failingSinceMs === null ? 0 : Math.max(0, startedAtMs - failingSinceMs);
  const backoff = startedAtMs + Math.min(failingFor, MAX_PAUSE_MS);
  return nextAttemptAtMs === null ? backoff : Math.max(nextAttemptAtMs, backoff);
}

export async function recordWebhookAttempt(db: Kysely<WebhookQueryTables>, quirks: DialectQuirks, jobs: Pick<JobQueue, 'complete' | 'fail' | 'makeDue'>, record: WebhookAttemptRecord): Promise<boolean> {
  if (!Number.isSafeInteger(record.attempt) || record.attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${record.attempt}`);
  if (record.outcome === 'retry' && record.nextAttemptAt === null) throw new RangeError('a retry needs nextAttemptAt');
  const endedAt = toMillis(record.startedAt) + Math.max(0, Math.round(record.latencyMs));
  const delivered = record.outcome === 'delivered';
  return quirks.writeTransaction(db, async (trx) => {
    // Compare-and-set on the attempt count: only the sender that claimed attempt n - 1 records attempt n.
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({
        attempts: record.attempt,
        state: record.outcome === 'retry' ? 'pending' : record.outcome,
        next_attempt_at: record.outcome === 'retry' && record.nextAttemptAt !== null ? toMillis(record.nextAttemptAt) : null,
        lease_until: null,
        updated_at: endedAt,
        delivered_at: delivered ? endedAt : null,
      })
      .where('id', '=', record.deliveryId)
      .where('state', '=', 'pending')
      .where('attempts', '=', record.attempt - 1)
      .returning('webhook_id')
      .executeTakeFirst();
    if (updated === undefined) return false;
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: record.deliveryId,
        attempt: record.attempt,
        started_at: toMillis(record.startedAt),
        status_code: record.statusCode,
        latency_ms: Math.max(0, Math.round(record.latencyMs)),
        response_excerpt: record.responseExcerpt === null ? null : record.responseExcerpt.slice(0, MAX_TEXT),
        error: record.error === null ? null : record.error.slice(0, MAX_TEXT),
        source_address: record.sourceAddress,
      })
      .execute();
    if (record.jobId !== undefined) await settleDeliveryJob(jobs, trx, record.jobId, record);
    const before = await trx.selectFrom('webhooks').select(['failing_since']).where('id', '=', updated.webhook_id).executeTakeFirst();
    const webhook = trx.updateTable('webhooks').where('id', '=', updated.webhook_id);
    if (delivered) {
      await webhook.set({ last_accepted_at: endedAt, failing_since: null, paused_until: null }).execute();
      // The endpoint is back: the deliveries that waited behind its breaker are due now, not at their next look.
      if (before !== undefined && before.failing_since !== null) await resumeWaitingDeliveries(trx, jobs, updated.webhook_id, record.deliveryId, record.startedAt);
    } else {
      // The 14-day window starts when the first failing attempt started (the sender's clock, not its latency).
      const startedAt = toMillis(record.startedAt);
      const pausedUntil = pauseAfterFailure(startedAt, before?.failing_since ?? null, record.nextAttemptAt === null ? null : toMillis(record.nextAttemptAt));
      await webhook.set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', sql<number>`cast(${startedAt} as bigint)`), paused_until: pausedUntil })).execute();
    }
    return true;
  });
}

/** The webhook's other pending deliveries' jobs, due at `at` (their webhook accepted a delivery again; `at` is the accepted attempt's start on the sender's clock, so they are due at once). */
async function resumeWaitingDeliveries(trx: Kysely<WebhookQueryTables>, jobs: Pick<JobQueue, 'makeDue'>, webhookId: string, deliveredId: string, at: Date): Promise<void> {
  const pending = await trx.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhookId).where('state', '=', 'pending').where('id', '!=', deliveredId).execute();
  if (pending.length > 0) await jobs.makeDue(JOB_NAMES.webhookDeliver, pending.map((d) => d.id), at, { tx: trx as Kysely<unknown> });
}

/** The job of an attempt just recorded: done when delivered, due again at the retry, failed when abandoned. */
async function settleDeliveryJob(jobs: Pick<JobQueue, 'complete' | 'fail'>, trx: Kysely<WebhookQueryTables>, jobId: string, record: WebhookAttemptRecord): Promise<void> {
  const tx = trx as Kysely<unknown>;
  if (record.outcome === 'delivered') await jobs.complete(jobId, { tx });
  else await jobs.fail(jobId, record.error ?? `HTTP ${record.statusCode ?? 'no response'}`, record.outcome === 'retry' ? record.nextAttemptAt : null, { tx });
}

export async function postponeWebhookDelivery(db: Kysely<WebhookQueryTables>, deliveryId: string, until: Date): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: toMillis(until) })
    .where('id', '=', deliveryId)
    .where('state', '=', 'pending')
    .execute();
}

export async function disableFailingWebhooks(db: Kysely<WebhookQueryTables>, failingSince: Date, now: Date): Promise<DisabledWebhook[]> {
  const rows = await db
    .updateTable('webhooks')
    // failing_since is cleared so that re-enabling starts a new 14-day window.
    .set({ enabled: 0, disabled_reason: 'failing', failing_since: null, updated_at: toMillis(now) })
    .where('enabled', '=', 1)
    .where('failing_since', 'is not', null)
    .where('failing_since', '<=', toMillis(failingSince))
    .returning(['id', 'org_id', 'name'])
    .execute();
  return rows.map((r) => ({ id: r.id, orgId: r.org_id, name: r.name }));
}

export async function claimAbandonNotice(db: Kysely<WebhookQueryTables>, webhookId: string, now: Date, minIntervalMs: number): Promise<boolean> {
  const nowMs = toMillis(now);
  const result = await db
    .updateTable('webhooks')
    .set({ abandon_notice_at: nowMs })
    .where('id', '=', webhookId)
    .where((eb) => eb.or([eb('abandon_notice_at', 'is', null), eb('abandon_notice_at', '<=', nowMs - minIntervalMs)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
