/**
 * The webhook outbox for KyselyStore (both dialects; migrations 0013 and 0015, ADR 0031): fan-out of a brand event
 * into `webhook_deliveries`, leased claims, attempts and the 14-day disabling rule. Claims work like the brand event
 * log's (brand-event-log.ts): one UPDATE ... WHERE id = (SELECT ... LIMIT 1 [FOR UPDATE SKIP LOCKED]) RETURNING, so
 * two senders never lease the same delivery; an attempt is recorded only against the attempt count it was claimed
 * with, so a sender that outlived its lease cannot record the same attempt twice.
 */
import { sql, type Kysely } from 'kysely';
import { newId } from '../../domain/ids.js';
import { isWebhookEventKind, type WebhookEventKind } from '../../domain/webhooks.js';
import type { ClaimedWebhookDelivery, DisabledWebhook, WebhookAttemptRecord, WebhookFanOut } from '../store.js';
import { fromMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { Database } from './schema.js';
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

export async function fanOutWebhookEvent(db: Kysely<Database>, quirks: DialectQuirks, fanOut: WebhookFanOut): Promise<number> {
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
    let created = 0;
    if (targets.length > 0) {
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
        .returning('id')
        .execute();
      created = inserted.length;
    }
    // The event is handled exactly when its deliveries exist: same transaction. A delivery already done or failed
    // is left as it is (the consumer's own complete() after this is then a no-op).
    await trx
      .updateTable('event_deliveries')
      .set({ state: 'done', locked_until: null, updated_at: at })
      .where('consumer', '=', fanOut.consumer)
      .where('event_id', '=', fanOut.eventId)
      .where('state', 'in', ['pending', 'running'])
      .execute();
    return created;
  });
}

export async function claimWebhookDelivery(db: Kysely<Database>, quirks: DialectQuirks, now: Date, leaseMs: number): Promise<ClaimedWebhookDelivery | null> {
  if (!Number.isSafeInteger(leaseMs) || leaseMs <= 0) throw new RangeError(`leaseMs must be a positive integer, got ${leaseMs}`);
  const nowMs = toMillis(now);
  const next = db
    .selectFrom('webhook_deliveries as d')
    .select('d.id')
    .where('d.state', '=', 'pending')
    .where('d.next_attempt_at', '<=', nowMs)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', nowMs)]))
    // Disabled webhooks and organizations back on the free plan keep their deliveries pending (ADR 0031).
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhooks as w')
          .innerJoin('organizations as o', 'o.id', 'w.org_id')
          .select(sql<number>`1`.as('one'))
          .whereRef('w.id', '=', 'd.webhook_id')
          .where('w.enabled', '=', 1)
          .where('o.plan', '=', 'paid'),
      ),
    )
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(1)
    .$call((qb) => quirks.lockRows(qb, { mode: 'update', skipLocked: true }));
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set({ lease_until: nowMs + leaseMs, updated_at: nowMs })
    .where('id', '=', next)
    .returningAll()
    .executeTakeFirst();
  if (claimed === undefined) return null;
  const webhook = await db
    .selectFrom('webhooks')
    .select(['url', 'secret_sealed', 'previous_secret_sealed', 'previous_secret_expires_at', 'authorization_sealed'])
    .where('id', '=', claimed.webhook_id)
    .executeTakeFirst();
  // Deleted between the claim and this read (the cascade removes the delivery too): nothing to send.
  if (webhook === undefined) return null;
  if (!isWebhookEventKind(claimed.kind)) throw new RangeError(`unknown webhook event kind ${claimed.kind}`);
  return {
    id: claimed.id,
    webhookId: claimed.webhook_id,
    orgId: claimed.org_id,
    eventId: claimed.event_id,
    kind: claimed.kind,
    domain: claimed.domain,
    payload: claimed.payload,
    attempts: toSafeInteger(claimed.attempts),
    url: webhook.url,
    secretSealed: webhook.secret_sealed,
    previousSecretSealed: webhook.previous_secret_sealed,
    previousSecretExpiresAt: webhook.previous_secret_expires_at === null ? null : fromMillis(webhook.previous_secret_expires_at),
    authorizationSealed: webhook.authorization_sealed,
  };
}

export async function recordWebhookAttempt(db: Kysely<Database>, quirks: DialectQuirks, record: WebhookAttemptRecord): Promise<boolean> {
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
    const webhook = trx.updateTable('webhooks').where('id', '=', updated.webhook_id);
    if (delivered) await webhook.set({ last_accepted_at: endedAt, failing_since: null }).execute();
    // The 14-day window starts when the first failing attempt started (the sender's clock, not its latency).
    else await webhook.set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', sql<number>`cast(${toMillis(record.startedAt)} as bigint)`) })).execute();
    return true;
  });
}

export async function postponeWebhookDelivery(db: Kysely<Database>, deliveryId: string, until: Date): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_until: null, next_attempt_at: toMillis(until) })
    .where('id', '=', deliveryId)
    .where('state', '=', 'pending')
    .execute();
}

export async function disableFailingWebhooks(db: Kysely<Database>, failingSince: Date, now: Date): Promise<DisabledWebhook[]> {
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

export async function claimAbandonNotice(db: Kysely<Database>, webhookId: string, now: Date, minIntervalMs: number): Promise<boolean> {
  const nowMs = toMillis(now);
  const result = await db
    .updateTable('webhooks')
    .set({ abandon_notice_at: nowMs })
    .where('id', '=', webhookId)
    .where((eb) => eb.or([eb('abandon_notice_at', 'is', null), eb('abandon_notice_at', '<=', nowMs - minIntervalMs)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
