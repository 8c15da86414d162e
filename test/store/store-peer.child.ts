/**
 * A separate OS process that opens the same database (SQLite file or PostgreSQL schema) and serves product
 * store calls (the brand store, the job queue, ...) over IPC, so cross-process behaviour is tested against a real second process (two better-sqlite3 handles in one
 * thread would block each other synchronously and prove nothing). Started by store-peer-process.ts; run with
 * `node --import tsx`.
 */
import type { ProductStores } from '../../src/main/product-stores.js';
import { openBackendStores } from './store-peer-backend.js';
import type { BackendSpec } from './store-peer-backend.js';

interface PeerRequest {
  seq: number;
  /** `<product>.<method>`: a method of a product's store on the same database (`queue.<method>`: the job queue). */
  method: `${keyof ProductStores}.${string}`;
  args: unknown[];
}

async function serve(stores: ProductStores, request: PeerRequest): Promise<unknown> {
  try {
    // `<product>.<method>` names a method of that product's store (`queue.claim`, `brands.saveBrand`).
    const dot = request.method.indexOf('.');
    const [target, method] = [stores[request.method.slice(0, dot) as keyof ProductStores], request.method.slice(dot + 1)];
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
