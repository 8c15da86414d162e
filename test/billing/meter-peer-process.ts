/**
 * Starts meter-peer.child.ts: a usage meter in another OS process on the test database. `kill()` is a SIGKILL, as
 * a crashed API process dies: no flush, no lease given back.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SourceCounts, SourceLimits } from '../../src/billing/usage-meter.js';
import { reapOnExit } from '../helpers/child-reaper.js';
import { useProcessTimeouts } from '../helpers/process-timeouts.js';
import type { BackendSpec } from '../store/store-peer-backend.js';
import type { MeterCommand, MeterPeerSettings, MeterReply } from './meter-peer.child.js';

useProcessTimeouts();

const CHILD = fileURLToPath(new URL('./meter-peer.child.ts', import.meta.url));

type WithoutSeq<T> = T extends unknown ? Omit<T, 'seq'> : never;

export interface MeterPeer {
  hammer(orgId: string, requests: number, limits: SourceLimits): Promise<SourceCounts>;
  hold(orgId: string, credits: number, limits: SourceLimits, settle: boolean): Promise<SourceCounts>;
  /** Flushes, gives the leases back and exits. */
  close(): Promise<void>;
  kill(): Promise<void>;
}

export async function spawnMeterPeer(spec: BackendSpec, settings: MeterPeerSettings = {}): Promise<MeterPeer> {
  const child = reapOnExit(fork(CHILD, [JSON.stringify(spec), JSON.stringify(settings)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`meter peer exited before it was ready (code ${code})`)));
    child.once('error', reject);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, { resolve: (served: SourceCounts) => void; reject: (error: Error) => void }>();
  let seq = 0;
  child.on('message', (reply: MeterReply) => {
    const waiter = pending.get(reply.seq);
    pending.delete(reply.seq);
    if (reply.error === undefined) waiter?.resolve(reply.served);
    else waiter?.reject(new Error(reply.error));
  });
  child.on('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('meter peer exited'));
    pending.clear();
  });
  const call = (command: WithoutSeq<MeterCommand>): Promise<SourceCounts> =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      pending.set(id, { resolve, reject });
      child.send({ ...command, seq: id });
    });
  return {
    hammer: (orgId, requests, limits) => call({ cmd: 'hammer', orgId, requests, limits }),
    hold: (orgId, credits, limits, settle) => call({ cmd: 'hold', orgId, credits, limits, settle }),
    async close() {
      await call({ cmd: 'close' });
      child.disconnect();
      await exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
