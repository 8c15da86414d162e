/**
 * BrandEventConsumer on a real SQLite file (no mocks). No wall-clock budgets: each test waits for the state it
 * expects and relies on the per-test timeout; retries are driven by an injected clock.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrandSavedEvent } from '../../src/domain/brand-changes.js';
import { ApiError } from '../../src/domain/errors.js';
import { BrandEventConsumer } from '../../src/events/brand-event-consumer.js';
import type { BrandEventConsumerOptions, BrandEventHandler } from '../../src/events/brand-event-consumer.js';
import { silentLogger } from '../../src/platform/logger.js';
import { sampleBrand } from '../store/sample-brand.js';
import { tempSqlite } from '../store/temp-database.js';
import type { Kysely } from 'kysely';
import { brandEventDelivery } from './brand-event-jobs.js';
import type { TempDatabase } from '../store/temp-database.js';

const TIMEOUT = 60_000;

let db: TempDatabase;
const consumers: BrandEventConsumer[] = [];

beforeEach(async () => {
  db = await tempSqlite();
  await db.migrate();
});
afterEach(async () => {
  for (const consumer of consumers.splice(0)) await consumer.stop(1000);
  await db.cleanup();
});

function consumer(handler: BrandEventHandler, options: BrandEventConsumerOptions = {}): BrandEventConsumer {
  const c = new BrandEventConsumer(db.stores.queue, db.stores.events, 'test-consumer', handler, silentLogger(), { idleMs: 5, ...options });
  consumers.push(c);
  return c;
}

async function save(): Promise<BrandSavedEvent> {
  const brand = sampleBrand(`c-${randomBytes(4).toString('hex')}.test`);
  const now = new Date();
  return db.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: brand.domain }]);
}

async function delivery(eventId: string) {
  return brandEventDelivery(db.db as Kysely<unknown>, 'test-consumer', eventId);
}

/** Polls until `check` holds; the test's own timeout is the only limit. */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('BrandEventConsumer', () => {
  it('subscribes on start, handles each event saved afterwards once, and completes it', { timeout: TIMEOUT }, async () => {
    const before = await save();
    const seen: string[] = [];
    const c = consumer(async (event, { attempts }) => {
      expect(attempts).toBe(1);
      seen.push(event.id);
    });
    await c.start();
    const events = [await save(), await save(), await save()];
    c.notify();
    await until(async () => (await Promise.all(events.map((e) => delivery(e.id)))).every((d) => d?.state === 'done'));
    expect(seen.sort()).toEqual(events.map((e) => e.id).sort());
    expect(seen).not.toContain(before.id);
  });

  it('is woken by notify() instead of waiting for the next poll', { timeout: TIMEOUT }, async () => {
    const seen: string[] = [];
    // An hour between polls: only notify() can make this test finish.
    const c = consumer(async (event) => void seen.push(event.id), { idleMs: 3_600_000 });
    await c.start();
    const event = await save();
    c.notify();
    await until(() => seen.includes(event.id));
  });

  it('retries a failing handler with exponential backoff, then gives up after maxAttempts', { timeout: TIMEOUT }, async () => {
    await db.stores.events.subscribeBrandEvents('test-consumer', new Date());
    const event = await save();
    // A frozen clock just after the save: retries become due only when the test moves it.
    const base = Date.now() + 1;
    let offset = 0;
    let calls = 0;
    const c = consumer(
      async () => {
        calls++;
        throw new Error(`index down ${calls}`);
      },
      { retryBaseMs: 1_000, maxAttempts: 3, now: () => new Date(base + offset) },
    );
    await c.start();
    await until(async () => (await delivery(event.id))?.state === 'pending' && calls === 1);
    expect(await delivery(event.id)).toMatchObject({ attempts: 1, run_at: base + 1_000, last_error: 'index down 1' });
    offset = 1_000;
    await until(async () => (await delivery(event.id))?.attempts === 2 && (await delivery(event.id))?.state === 'pending');
    expect(await delivery(event.id)).toMatchObject({ run_at: base + 1_000 + 2_000, last_error: 'index down 2' });
    offset = 3_000;
    await until(async () => (await delivery(event.id))?.state === 'failed');
    expect(await delivery(event.id)).toMatchObject({ attempts: 3, last_error: 'index down 3' });
    expect(calls).toBe(3);
  });

  it('fails at once on an error that is not retryable', { timeout: TIMEOUT }, async () => {
    let calls = 0;
    const c = consumer(async () => {
      calls++;
      throw new ApiError('not_found');
    });
    await c.start();
    const event = await save();
    await until(async () => (await delivery(event.id))?.state === 'failed');
    expect(await delivery(event.id)).toMatchObject({ attempts: 1, last_error: 'No brand found for this identifier.' });
    expect(calls).toBe(1);
  });

  it('retries an error that says it is retryable', { timeout: TIMEOUT }, async () => {
    let calls = 0;
    const c = consumer(
      async () => {
        calls++;
        if (calls === 1) throw new ApiError('temporarily_unavailable');
      },
      { retryBaseMs: 1 },
    );
    await c.start();
    const event = await save();
    await until(async () => (await delivery(event.id))?.state === 'done');
    expect(await delivery(event.id)).toMatchObject({ attempts: 2 });
  });

  /** A consumer whose handler signals `running` and then waits until `release()`. */
  function blockingConsumer() {
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const c = consumer(() => {
      started();
      return new Promise<void>((r) => (release = r));
    });
    return { c, running, release: () => release() };
  }

  it('stop() waits for a handler that finishes within the grace period', { timeout: TIMEOUT }, async () => {
    const { c, running, release } = blockingConsumer();
    await c.start();
    const event = await save();
    await running;
    const stopped = c.stop(3_600_000);
    release();
    await stopped;
    expect((await delivery(event.id))?.state).toBe('done');
  });

  it('stop() hands back an event whose handler outlasts the grace period; the next consumer gets it', { timeout: TIMEOUT }, async () => {
    const { c, running, release } = blockingConsumer();
    await c.start();
    const event = await save();
    await running;
    await c.stop(10);
    // Handed back as the worker pool hands back any job on shutdown: due at once, the interrupted try not counted.
    expect(await delivery(event.id)).toMatchObject({ state: 'pending', locked_until: null, attempts: 0 });
    // The late outcome of the abandoned handler is not recorded. A second stop() returns once that handler's run
    // is over (outcome recorded or not), so the check comes causally after it rather than after a guessed pause.
    release();
    await c.stop(3_600_000);
    expect((await delivery(event.id))?.state).toBe('pending');

    const seen: Array<{ id: string; attempts: number }> = [];
    const next = consumer(async (e, { attempts }) => void seen.push({ id: e.id, attempts }));
    await next.start();
    await until(async () => (await delivery(event.id))?.state === 'done');
    expect(seen).toEqual([{ id: event.id, attempts: 1 }]);
  });
});
