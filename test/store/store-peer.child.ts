/**
 * A separate OS process that opens the same database (SQLite file or PostgreSQL schema) and serves Store calls
 * over IPC, so cross-process behaviour is tested against a real second process (two better-sqlite3 handles in one
 * thread would block each other synchronously and prove nothing). Started by store-peer-process.ts; run with
 * `node --import tsx`.
 */
import type { Store } from '../../src/store/store.js';
import { openBackendStores } from './store-peer-backend.js';
import { joinStores } from '../../src/main/product-stores.js';
import type { BackendSpec } from './store-peer-backend.js';

interface PeerRequest {
  seq: number;
  method: keyof Store;
  args: unknown[];
}

async function serve(store: Store, request: PeerRequest): Promise<unknown> {
  try {
    const value: unknown = await (store[request.method] as (...args: unknown[]) => Promise<unknown>).apply(store, request.args);
    return { seq: request.seq, ok: true, value };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    return { seq: request.seq, ok: false, error: { name: e.name, message: e.message } };
  }
}

const spec = process.argv[2];
if (spec === undefined || process.send === undefined) throw new Error('usage: child of store-peer-process.ts, with a backend spec (JSON) as argument');
const opened = await openBackendStores(JSON.parse(spec) as BackendSpec);
// The facade and the products' stores as one object: a request names a method of either.
const store = joinStores(opened.store, opened.stores.billing);
process.on('message', (request: PeerRequest) => {
  void serve(store, request).then((reply) => process.send?.(reply));
});
process.send({ ready: true });
