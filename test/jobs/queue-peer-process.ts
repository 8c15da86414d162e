/**
 * Starts queue-peer.child.ts as another OS process on the same SQLite file and returns a JobQueue that
 * forwards every call to it. `kill()` is a SIGKILL: the peer dies as a crashed worker would.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { QueueFullError } from '../../src/jobs/queue.js';
import type { ClaimOptions, EnqueueResult, Job, JobName, JobPayloads, JobQueue } from '../../src/jobs/queue.js';
import type { PeerReply, PeerRequest } from './queue-peer-protocol.js';
import { reapOnExit } from '../helpers/child-reaper.js';
import { useProcessTimeouts } from '../helpers/process-timeouts.js';

// The files that start peer processes get timeouts sized for a busy machine (process-timeouts.ts).
useProcessTimeouts();

const CHILD = fileURLToPath(new URL('./queue-peer.child.ts', import.meta.url));

function toError(error: Extract<PeerReply, { ok: false }>['error']): Error {
  if (error.name === 'QueueFullError' && error.depth !== undefined) return new QueueFullError(error.depth);
  return Object.assign(new Error(error.message), { name: error.name });
}

class PeerQueue implements JobQueue {
  #seq = 0;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: PeerReply) => {
      const waiter = this.#pending.get(reply.seq);
      this.#pending.delete(reply.seq);
      if (reply.ok) waiter?.resolve(reply.value);
      else waiter?.reject(toError(reply.error));
    });
    child.on('exit', () => {
      for (const waiter of this.#pending.values()) waiter.reject(new Error('queue peer exited'));
      this.#pending.clear();
    });
  }

  #call<T>(method: keyof JobQueue, args: unknown[]): Promise<T> {
    const seq = ++this.#seq;
    const request: PeerRequest = { seq, method, args };
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(seq, { resolve: (value) => resolve(value as T), reject });
      this.child.send(request);
    });
  }

  enqueue<N extends JobName>(name: N, key: string, payload: JobPayloads[N], opts?: { maxDepth?: number; runAt?: Date }): Promise<EnqueueResult> {
    return this.#call('enqueue', [name, key, payload, opts]);
  }
  claim(names: JobName[], leaseMs: number, now?: Date, opts?: ClaimOptions): Promise<Job | null> {
    return this.#call('claim', [names, leaseMs, now, opts]);
  }
  makeDue(name: JobName, keys: readonly string[], at: Date): Promise<number> {
    return this.#call('makeDue', [name, keys, at]);
  }
  complete(id: string): Promise<void> {
    return this.#call('complete', [id]);
  }
  fail(id: string, error: string, retryAt: Date | null): Promise<void> {
    return this.#call('fail', [id, error, retryAt]);
  }
  release(id: string): Promise<void> {
    return this.#call('release', [id]);
  }
  depth(): Promise<number> {
    return this.#call('depth', []);
  }
  oldestQueuedAt(): Promise<Date | null> {
    return this.#call('oldestQueuedAt', []);
  }
  get(id: string): Promise<Job | null> {
    return this.#call('get', [id]);
  }
  purgeFinished(before: Date, limit: number): Promise<number> {
    return this.#call('purgeFinished', [before, limit]);
  }
}

export async function spawnQueuePeer(file: string): Promise<{ queue: JobQueue; kill(): Promise<void> }> {
  // 'advanced' serialization keeps Dates and undefined intact across the IPC channel.
  const child = reapOnExit(fork(CHILD, [file], { execArgv: ['--import', 'tsx'], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`queue peer exited before it was ready (code ${code})`)));
    child.once('error', reject);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    queue: new PeerQueue(child),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
