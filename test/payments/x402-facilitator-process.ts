/**
 * Starts the remote facilitator process (x402-facilitator.child.ts) against a chain's JSON-RPC URL, and lets a
 * test hold its settlements (carried out on the chain, never answered) to stop the service at that moment.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { reapOnExit } from '../helpers/child-reaper.js';

const CHILD = path.resolve(import.meta.dirname, 'x402-facilitator.child.ts');

export interface FacilitatorProcess {
  url: string;
  /** From now on a successful settlement is not answered; resolves with its transaction once it is on the chain. */
  holdNextSettlement(): Promise<Hex>;
  close(): Promise<void>;
}

export async function startFacilitatorProcess(rpcUrl: string, chainId: number): Promise<FacilitatorProcess> {
  const settings = { rpcUrl, chainId, privateKey: generatePrivateKey() };
  const child = reapOnExit(fork(CHILD, [JSON.stringify(settings)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { listening?: string }) => (message.listening ? resolve(message.listening) : reject(new Error('unexpected first message'))));
    child.once('exit', (code) => reject(new Error(`the facilitator exited before it was ready (code ${code})`)));
  });
  return {
    url,
    holdNextSettlement() {
      const settled = new Promise<Hex>((resolve) => {
        const onMessage = (message: { settled?: Hex }) => {
          if (message.settled === undefined) return;
          child.off('message', onMessage);
          resolve(message.settled);
        };
        child.on('message', onMessage);
      });
      child.send({ hold: true });
      return settled;
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
