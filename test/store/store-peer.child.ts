/**
 * A separate OS process that opens the same database (SQLite file or PostgreSQL schema) and serves Store and job
 * queue calls over IPC, so cross-process behaviour is tested against a real second process (two better-sqlite3 handles in one
 * thread would block each other synchronously and prove nothing). Started by store-peer-process.ts; run with
 * `node --import tsx`.
 */
import type { JobQueue } from '../../src/jobs/queue.js';
import type { ProductStores } from '../../src/main/product-stores.js';
import type { Store } from '../../src/store/store.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import { openBackendStores } from './store-peer-backend.js';
import type { BackendSpec } from './store-peer-backend.js';

interface PeerRequest {
  seq: number;
  /** A Store method, or `queue.<method>` for the job queue on the same database. */
  method: keyof Store | `queue.${keyof JobQueue}` | `billing.${keyof BillingStore}`;
  args: unknown[];
}

async function serve(stores: ProductStores, request: PeerRequest): Promise<unknown> {
  try {
    const [target, method] = request.method.startsWith('queue.') ? [stores.queue, request.method.slice('queue.'.length)] : request.method.startsWith('billing.') ? [stores.billing, request.method.slice('billing.'.length)] : [stores.store, request.method];
    const value: unknown = await ((target as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method] as (...args: unknown[]) => Promise<unknown>).apply(target, request.args);
    return { seq: request.seq, ok: true, value };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    return { seq: request.seq, ok: false, error: { name: e.name, message: e.message } };
  }
}

const spec = process.argv[2];
if (spec === undefined || process.send === undefined) throw new Error('usage: child of store-peer-process.ts, with a backend spec (JSON) as argument');
const stores = await openBackendStores(JSON.parse(spec) as BackendSpec);
process.on('message', (request: PeerRequest) => {
  void serve(stores, request).then((reply) => process.send?.(reply));
});
process.send({ ready: true });
