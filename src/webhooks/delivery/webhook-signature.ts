/**
 * Standard Webhooks v1 signing (docs/webhooks.md, "Delivery"): `v1,` + base64 of HMAC-SHA256 over
 * `${webhook-id}.${webhook-timestamp}.${body}`, keyed with the bytes the `whsec_` secret encodes. Signed with
 * node:crypto; the tests verify what we send with the official `standardwebhooks` package, as a receiver would.
 */
import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../domain/webhooks.js';

/** The HMAC key of a `whsec_<base64>` secret (the prefix is optional, as in the reference library). */
export function webhookSecretKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new RangeError('a webhook secret must encode at least one byte');
  return key;
}

/** One `v1,<base64>` signature of a message. `timestampSeconds` is the `webhook-timestamp` header's integer. */
export function signWebhook(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', webhookSecretKey(secret)).update(`${msgId}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` value: one signature per secret, space-separated (rotation signs with both). */
export function webhookSignatureHeader(secrets: readonly string[], msgId: string, timestampSeconds: number, body: string): string {
  return secrets.map((secret) => signWebhook(secret, msgId, timestampSeconds, body)).join(' ');
}

/** The three Standard Webhooks headers of one attempt (the timestamp is this attempt's, the id the delivery's). */
export function standardWebhookHeaders(secrets: readonly string[], msgId: string, sentAt: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhookSignatureHeader(secrets, msgId, timestamp, body),
  };
}
