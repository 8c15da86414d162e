/**
 * A separate OS process that opens the same SQLite file and serves JobQueue calls over IPC, so the SQLite
 * queue is tested against a real second process (two better-sqlite3 handles in one thread would block each
 * other synchronously and prove nothing). Started by queue-peer-process.ts; run with `node --import tsx`.
 */
import { createSqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import type { JobQueue } from '../../src/jobs/queue.js';
import { openSqliteStore } from '../store/open-store.js';
import type { PeerReply, PeerRequest } from './queue-peer-protocol.js';

async function serve(queue: JobQueue, request: PeerRequest): Promise<PeerReply> {
  try {
    const value: unknown = await (queue[request.method] as (...args: unknown[]) => Promise<unknown>).apply(queue, request.args);
    return { seq: request.seq, ok: true, value };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    const depth = 'depth' in e && typeof e.depth === 'number' ? e.depth : undefined;
    return { seq: request.seq, ok: false, error: { name: e.name, message: e.message, depth } };
  }
}

const file = process.argv[2];
if (file === undefined || process.send === undefined) throw new Error('usage: child of queue-peer-process.ts, with the SQLite file as argument');
const { database } = await openSqliteStore({ file });
const queue = createSqlJobQueue(database);
process.on('message', (request: PeerRequest) => {
  void serve(queue, request).then((reply) => process.send?.(reply));
});
process.send({ ready: true });
