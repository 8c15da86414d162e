/**
 * Standard Webhooks v1 signing, checked against the official `standardwebhooks` package (what a receiver uses) and
 * the specification's test vector, found in every official library's tests.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newWebhookSecret } from '../../../src/domain/webhooks.js';
import { signWebhook, standardWebhookHeaders, webhookSignatureHeader } from '../../../src/webhooks/delivery/webhook-signature.js';

const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('Standard Webhooks v1 signature', () => {
  afterEach(() => vi.useRealTimers());

  it('reproduces the specification test vector', () => {
    expect(signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
    // The same vector through the official library's own signer.
    expect(new Webhook(VECTOR.secret).sign(VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.body)).toBe(VECTOR.signature);
  });

  it('the official library verifies our headers for the test vector at its own time, and nothing else', () => {
    // verify() checks the timestamp against the clock (±5 min): receive the vector when it was sent.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(VECTOR.timestamp * 1000);
    const headers = standardWebhookHeaders([VECTOR.secret], VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.body);
    expect(headers).toEqual({ 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': VECTOR.signature });
    expect(new Webhook(VECTOR.secret).verify(VECTOR.body, headers)).toEqual({ test: 2432232314 });
    expect(() => new Webhook(VECTOR.secret).verify(VECTOR.body.replace('2432232314', '2432232315'), headers)).toThrow(WebhookVerificationError);
    // Ten minutes later the same message is refused as too old (replays are bounded).
    vi.setSystemTime((VECTOR.timestamp + 600) * 1000);
    expect(() => new Webhook(VECTOR.secret).verify(VECTOR.body, headers)).toThrow(WebhookVerificationError);
  });

  it('produces headers the official library verifies, and a tampered body fails', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'brand.updated', id: 'evt_x', data: { n: 1 } });
    const headers = standardWebhookHeaders([secret], 'msg_abc', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('1', '2'), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('signs with both secrets during a rotation, space-separated; either verifies', () => {
    const [next, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{"a":1}';
    const headers = standardWebhookHeaders([next, previous], 'msg_rot', new Date(), body);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify(body, headers)).toEqual({ a: 1 });
    expect(new Webhook(previous).verify(body, headers)).toEqual({ a: 1 });
    expect(webhookSignatureHeader([next, previous], 'msg_rot', 1, body)).toBe(`${signWebhook(next, 'msg_rot', 1, body)} ${signWebhook(previous, 'msg_rot', 1, body)}`);
  });
});
