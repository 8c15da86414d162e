/**
 * A consumer process for brand-event-crash.test.ts: opens the parent's database (SQLite file or PostgreSQL
 * schema), runs a BrandEventConsumer and reports on stdout, one line each: `ready` once subscribed,
 * `handling <eventId> <attempts>` when its handler starts, `handled <eventId> <attempts>` when it returns.
 * Mode `hang` never returns from the handler (the parent kills the process there); mode `handle` returns at once.
 * Run with `node --import tsx crash-consumer.child.ts <backend spec JSON> <consumer> <hang|handle> <leaseMs>`.
 */
import { BrandEventConsumer } from '../../src/events/brand-event-consumer.js';
import { silentLogger } from '../../src/platform/logger.js';
import { openBackendStores } from '../store/store-peer-backend.js';
import type { BackendSpec } from '../store/store-peer-backend.js';

const [spec, name, mode, lease] = process.argv.slice(2);
if (spec === undefined || name === undefined || (mode !== 'hang' && mode !== 'handle') || lease === undefined) {
  throw new Error('usage: crash-consumer.child.ts <backend spec JSON> <consumer> <hang|handle> <leaseMs>');
}
const stores = await openBackendStores(JSON.parse(spec) as BackendSpec);
const consumer = new BrandEventConsumer(
  stores.queue,
  stores.events,
  name,
  async (event, { attempts }) => {
    process.stdout.write(`handling ${event.id} ${attempts}\n`);
    if (mode === 'hang') await new Promise<never>(() => undefined);
    process.stdout.write(`handled ${event.id} ${attempts}\n`);
  },
  silentLogger(),
  { leaseMs: Number(lease), idleMs: 50 },
);
// The consumer's timers do not hold the process open; this does, until the parent kills it.
setInterval(() => undefined, 1 << 30);
await consumer.start();
process.stdout.write('ready\n');
