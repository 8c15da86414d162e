/**
 * Starts store-peer.child.ts as another OS process on the same database and returns billing's and the brands' stores
 * and a JobQueue whose every method is forwarded to it. `kill()` is a SIGKILL: the peer dies as a crashed process would.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BillingStore } from '../../src/billing/billing-store.js';
import type { JobQueue } from '../../src/jobs/queue.js';
import type { ProductStores } from '../../src/main/product-stores.js';
import type { BackendSpec } from './store-peer-backend.js';
import { reapOnExit } from '../helpers/child-reaper.js';
import { useProcessTimeouts } from '../helpers/process-timeouts.js';

// The files that start peer processes get timeouts sized for a busy machine (process-timeouts.ts).
useProcessTimeouts();

const CHILD = fileURLToPath(new URL('./store-peer.child.ts', import.meta.url));

type PeerReply = { seq: number; ok: true; value: unknown } | { seq: number; ok: false; error: { name: string; message: string } };

export async function spawnStorePeer(spec: BackendSpec): Promise<{ billing: BillingStore; brands: ProductStores['brands']; queue: JobQueue; kill(): Promise<void> }> {
  // 'advanced' serialization keeps Dates and undefined intact across the IPC channel.
  const child = reapOnExit(fork(CHILD, [JSON.stringify(spec)], { execArgv: ['--import', 'tsx'], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`store peer exited before it was ready (code ${code})`)));
    child.once('error', reject);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let seq = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (reply: PeerReply) => {
    const waiter = pending.get(reply.seq);
    pending.delete(reply.seq);
    if (reply.ok) waiter?.resolve(reply.value);
    else waiter?.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
  });
  child.on('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('store peer exited'));
    pending.clear();
  });
  const call = (method: string, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      pending.set(id, { resolve, reject });
      child.send({ seq: id, method, args });
    });
  // Not a thenable: `then` (and symbols) stay undefined so the proxy can be returned from async functions.
  const brands = new Proxy({} as ProductStores['brands'], {
    get: (_target, method) => (typeof method !== 'string' || method === 'then' ? undefined : (...args: unknown[]) => call(`brands.${method}`, args)),
  });
  const queue = new Proxy({} as JobQueue, {
    get: (_target, method) => (typeof method !== 'string' || method === 'then' ? undefined : (...args: unknown[]) => call(`queue.${method}`, args)),
  });
  // Billing's store (billing/billing-store.ts, issue 30): its methods as `billing.<method>`.
  const billing = new Proxy({} as BillingStore, {
    get: (_target, method) => (typeof method !== 'string' || method === 'then' ? undefined : (...args: unknown[]) => call(`billing.${method}`, args)),
  });
  return {
    billing,
    brands,
    queue,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
