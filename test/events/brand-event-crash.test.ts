/**
 * A `brand.saved` event is never lost (at-least-once): a consumer process is killed with SIGKILL while it handles
 * the event, or before it ever claims it, and a new consumer process handles it; on SQLite and PostgreSQL.
 * Waits on the children's output and on the database, never on a wall-clock budget; only the per-test timeout
 * bounds a test.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrandSavedEvent } from '../../src/domain/brand-changes.js';
import type { BrandStore } from '../../src/brands/brand-store.js';
import { reapOnExit } from '../helpers/child-reaper.js';
import { sampleBrand } from '../store/sample-brand.js';
import type { BackendSpec } from '../store/store-peer-backend.js';
import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import type { TempDatabase } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';
import type { Kysely } from 'kysely';
import { brandEventDelivery } from './brand-event-jobs.js';

const CHILD = fileURLToPath(new URL('./crash-consumer.child.ts', import.meta.url));
const TIMEOUT = 120_000;
/** Short, so the second consumer need not wait long for the dead one's lease; the hanging handler never ends anyway. */
const LEASE_MS = 1_500;

interface ConsumerProcess {
  lines: string[];
  /** Resolves with the first line (seen so far or later) that `match` accepts. */
  waitFor(match: (line: string) => boolean): Promise<string>;
  kill(): Promise<void>;
}

const running: ConsumerProcess[] = [];

afterEach(async () => {
  for (const child of running.splice(0)) await child.kill();
});

async function startConsumer(spec: BackendSpec, consumer: string, mode: 'hang' | 'handle'): Promise<ConsumerProcess> {
  const child: ChildProcess = reapOnExit(
    spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(spec), consumer, mode, String(LEASE_MS)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const lines: string[] = [];
  const waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (!w.match(line)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(line);
    }
  });
  child.once('exit', (code, signal) => {
    for (const w of waiters.splice(0)) w.reject(new Error(`consumer process exited (code ${code}, signal ${signal}); output: ${lines.join(' | ')}`));
  });
  const proc: ConsumerProcess = {
    lines,
    waitFor(match) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      if (child.exitCode !== null || child.signalCode !== null) return Promise.reject(new Error('consumer process has exited'));
      return new Promise((resolve, reject) => waiters.push({ match, resolve, reject }));
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  running.push(proc);
  await proc.waitFor((line) => line === 'ready');
  return proc;
}

async function saveBrand(store: Pick<BrandStore, 'saveBrand'>): Promise<BrandSavedEvent> {
  const brand = sampleBrand(`crash-${randomBytes(4).toString('hex')}.test`);
  const now = new Date();
  return store.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: brand.domain }]);
}

async function deliveryState(temp: TempDatabase, consumer: string, eventId: string): Promise<{ state: string; attempts: number } | undefined> {
  const row = await brandEventDelivery(temp.db as Kysely<unknown>, consumer, eventId);
  return row === undefined ? undefined : { state: row.state, attempts: row.attempts };
}

async function untilDone(temp: TempDatabase, consumer: string, eventId: string): Promise<{ state: string; attempts: number }> {
  for (;;) {
    const row = await deliveryState(temp, consumer, eventId);
    if (row?.state === 'done') return row;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function crashSuite(name: string, open: () => Promise<{ temp: TempDatabase; spec: BackendSpec }>): void {
  describe(`brand.saved survives a killed consumer: ${name}`, () => {
    it('killed while handling (after commit, before complete): a restarted consumer handles it', { timeout: TIMEOUT }, async () => {
      const { temp, spec } = await open();
      try {
        const consumer = `crash-${randomBytes(4).toString('hex')}`;
        const first = await startConsumer(spec, consumer, 'hang');
        const event = await saveBrand(temp.stores.brands);
        await first.waitFor((line) => line === `handling ${event.id} 1`);
        await first.kill();
        expect(await deliveryState(temp, consumer, event.id)).toMatchObject({ state: 'running', attempts: 1 });

        const second = await startConsumer(spec, consumer, 'handle');
        await second.waitFor((line) => line === `handled ${event.id} 2`);
        expect(await untilDone(temp, consumer, event.id)).toEqual({ state: 'done', attempts: 2 });
        expect(first.lines.filter((line) => line.startsWith('handled'))).toEqual([]);
      } finally {
        for (const child of running.splice(0)) await child.kill();
        await temp.cleanup();
      }
    });

    it('killed before it claimed (the save commits while no consumer runs): a restarted consumer handles it', { timeout: TIMEOUT }, async () => {
      const { temp, spec } = await open();
      try {
        const consumer = `crash-${randomBytes(4).toString('hex')}`;
        const first = await startConsumer(spec, consumer, 'hang');
        await first.kill();
        const event = await saveBrand(temp.stores.brands);
        expect(await deliveryState(temp, consumer, event.id)).toMatchObject({ state: 'pending', attempts: 0 });

        const second = await startConsumer(spec, consumer, 'handle');
        await second.waitFor((line) => line === `handled ${event.id} 1`);
        expect(await untilDone(temp, consumer, event.id)).toEqual({ state: 'done', attempts: 1 });
      } finally {
        for (const child of running.splice(0)) await child.kill();
        await temp.cleanup();
      }
    });
  });
}

crashSuite('SQLite', async () => {
  const temp = await tempSqlite();
  await temp.migrate();
  return { temp, spec: { kind: 'sqlite', file: temp.file } };
});

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
needsPostgres.describe('PostgreSQL', () => {
  crashSuite('PostgreSQL', async () => {
    const url = PG_URL ?? '';
    const temp = await tempPostgres(url);
    await temp.migrate();
    return { temp, spec: { kind: 'postgres', url, schema: temp.schema } };
  });
});
