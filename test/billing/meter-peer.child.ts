/**
 * A usage meter in its own OS process over its own store connection, as one API process of a fleet holds one
 * (credit leases, ADR 0040). Driven over IPC by meter-peer-process.ts; run with `node --import tsx`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreditLeaseSettings } from '../../src/billing/credit-leases.js';
import { SOURCES, UsageMeter, type Reservation, type SourceCounts, type SourceLimits } from '../../src/billing/usage-meter.js';
import { openBackendDatabaseStores, type BackendSpec } from '../store/store-peer-backend.js';

export type MeterCommand =
  /** `requests` reservations of one credit at once, each settled after a short pause; counts what was served. */
  | { seq: number; cmd: 'hammer'; orgId: string; requests: number; limits: SourceLimits }
  /** Reserves `credits` and, with `settle`, charges them (left in the write buffer until a flush). */
  | { seq: number; cmd: 'hold'; orgId: string; credits: number; limits: SourceLimits; settle: boolean }
  | { seq: number; cmd: 'close' };

export interface MeterReply {
  seq: number;
  served: SourceCounts;
  error?: string;
}

export interface MeterPeerSettings extends Partial<CreditLeaseSettings> {
  flushMs?: number;
}

const [specText, settingsText] = process.argv.slice(2);
if (specText === undefined || settingsText === undefined || process.send === undefined) throw new Error('usage: child of meter-peer-process.ts');
const { close, stores } = await openBackendDatabaseStores(JSON.parse(specText) as BackendSpec);
const { flushMs, ...leases } = JSON.parse(settingsText) as MeterPeerSettings;
const meter = new UsageMeter(stores.billing, () => new Date(), { flushMs: flushMs ?? 50, leases });
/** Open reservations of `hold` without `settle`: kept until the process ends. */
const held: Reservation[] = [];

function none(): SourceCounts {
  return { quota: 0, prepaid: 0, overage: 0 };
}

async function hammer(orgId: string, requests: number, limits: SourceLimits): Promise<SourceCounts> {
  const served = none();
  await Promise.all(
    Array.from({ length: requests }, async (_, i) => {
      const reservation = await meter.reserveFromSources(orgId, null, 1, limits, false);
      if (!reservation) return;
      await sleep(i % 4);
      meter.commit(reservation, 'brand.lookup');
      for (const source of SOURCES) served[source] += reservation.parts[source];
    }),
  );
  return served;
}

async function run(command: MeterCommand): Promise<SourceCounts> {
  switch (command.cmd) {
    case 'hammer':
      return hammer(command.orgId, command.requests, command.limits);
    case 'hold': {
      const reservation = await meter.reserveFromSources(command.orgId, null, command.credits, command.limits, true);
      if (!reservation) return none();
      if (command.settle) meter.commit(reservation, 'brand.lookup');
      else held.push(reservation);
      return reservation.parts;
    }
    case 'close':
      await meter.close();
      await close();
      return none();
  }
}

process.on('message', (command: MeterCommand) => {
  void run(command).then(
    (served) => process.send?.({ seq: command.seq, served } satisfies MeterReply),
    (error: unknown) => process.send?.({ seq: command.seq, served: none(), error: String(error) } satisfies MeterReply),
  );
});
process.send({ ready: true });
