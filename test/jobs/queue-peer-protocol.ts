/** IPC messages between a test and a queue peer process (queue-peer.child.ts). */
import type { JobQueue } from '../../src/jobs/queue.js';

export interface PeerRequest {
  seq: number;
  method: keyof JobQueue;
  args: unknown[];
}

export type PeerReply =
  | { seq: number; ok: true; value: unknown }
  | { seq: number; ok: false; error: { name: string; message: string; depth: number | undefined } };
