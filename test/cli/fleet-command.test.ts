/**
 * `brandbase fleet` (the local fleet recipe, docs/deployment.md): it starts API processes on consecutive ports and
 * worker processes, each a separate OS process with its output prefixed; the proxy spreads requests over the API
 * processes; a member that dies is reported and not restarted while the others keep serving; SIGTERM stops every
 * member, and the exit code says whether all stopped cleanly. On a SQLite store (a fleet on one machine).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/brandbase-process.js';
import { reapOnExit } from '../helpers/child-reaper.js';
import { until } from '../helpers/until.js';
import { SERVER_START_DEADLINE_MS } from '../helpers/process-timeouts.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/brandbase.js');

interface Fleet {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

let dataDir: string;
let fleet: Fleet | null = null;

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** `n` consecutive free ports (free when probed: another process can still take one before the fleet binds it). */
async function consecutivePorts(n: number): Promise<number> {
  for (;;) {
    const first = await freePort();
    if (first + n > 65_535) continue;
    const free = await Promise.all(Array.from({ length: n }, (_, i) => portIsFree(first + i)));
    if (free.every(Boolean)) return first;
  }
}

function startFleet(args: string[]): Fleet {
  // No Chromium on purpose (whether the machine has one or not): a worker with no browser and no refresh has no
  // handle of its own to keep it running, which once made it exit at start.
  const env = { ...process.env, BRANDBASE_CHROMIUM_PATH: '/nonexistent/chromium', HOST: '127.0.0.1', BRANDBASE_DATA_DIR: dataDir, BRANDBASE_WORKER_CONCURRENCY: '1', BRANDBASE_CRAWL_WORKERS: '1', BRANDBASE_REFRESH: 'off' };
  // Its own process group, so a failed test can end the fleet and every member it started at once (killGroup).
  const child = reapOnExit(spawn(process.execPath, [BIN, 'fleet', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

const answers = async (url: string): Promise<boolean> => fetch(url).then((r) => r.ok, () => false);

function pidOf(output: string, member: string): number {
  const match = new RegExp(`fleet: started ${member} \\(pid (\\d+)\\)`).exec(output);
  if (!match?.[1]) throw new Error(`no pid for ${member} in:\n${output}`);
  return Number(match[1]);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-fleet-'));
});

/** SIGKILL to the fleet's whole process group: the members too, which a SIGKILL of the fleet alone would orphan. */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

afterEach(() => {
  if (fleet) killGroup(fleet.child);
  fleet = null;
});

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('brandbase fleet', () => {
  it('starts API processes on consecutive ports and workers, proxies in turn, and stops every member on SIGTERM', async () => {
    const first = await consecutivePorts(3);
    const proxy = first + 2;
    fleet = startFleet(['--api', '2', '--workers', '1', '--port', String(first), '--proxy-port', String(proxy)]);
    const running = fleet;
    await until(() => running.output().includes('fleet: ready'), 'the fleet ready', SERVER_START_DEADLINE_MS);
    expect(running.output()).toContain(`fleet: ready: http://127.0.0.1:${first}, http://127.0.0.1:${first + 1}; proxy http://127.0.0.1:${proxy}`);
    expect(running.output()).toContain('fleet: the store is SQLite');
    for (const port of [first, first + 1, proxy]) expect(await answers(`http://127.0.0.1:${port}/healthz`)).toBe(true);
    const pids = ['api-1', 'api-2', 'worker-1'].map((m) => pidOf(running.output(), m));
    expect(new Set([...pids, running.child.pid]).size).toBe(4);
    // Each member's lines reach the fleet through its own pipe (and pino writes asynchronously): a member's start
    // line can arrive after the fleet's own "ready", so they are awaited, not expected at once.
    await until(() => /^worker-1 \| .*brandbase worker running/m.test(running.output()), 'the worker start line relayed');
    await until(() => /^api-2 +\| .*brandbase is serving/m.test(running.output()), 'the second API start line relayed');

    // Through the proxy, requests take turns: each API process answers (and logs) some of them.
    const viewer = await Promise.all(Array.from({ length: 6 }, () => fetch(`http://127.0.0.1:${proxy}/v2/viewer`)));
    expect(viewer.map((r) => r.status)).toEqual(viewer.map(() => 401));
    await until(() => ['api-1', 'api-2'].every((m) => new RegExp(`^${m} +\\| .*/v2/viewer`, 'm').test(running.output())), 'both API processes answering through the proxy');

    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    for (const pid of pids) expect(processAlive(pid)).toBe(false);
    for (const port of [first, first + 1, proxy]) expect(await answers(`http://127.0.0.1:${port}/healthz`)).toBe(false);
  });

  it('reports a member that dies, restarts nothing, keeps the others serving, and exits non-zero', async () => {
    const first = await consecutivePorts(1);
    fleet = startFleet(['--api', '1', '--workers', '1', '--port', String(first)]);
    const running = fleet;
    await until(() => running.output().includes('fleet: ready'), 'the fleet ready', SERVER_START_DEADLINE_MS);
    process.kill(pidOf(running.output(), 'worker-1'), 'SIGKILL');
    await until(() => running.output().includes('fleet: worker-1 exited on its own (SIGKILL)'), 'the dead worker reported');
    expect(running.output().match(/fleet: started worker-1/g)).toHaveLength(1);
    expect(await answers(`http://127.0.0.1:${first}/healthz`)).toBe(true);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(1);
  });

  it('stops its members and exits non-zero when the proxy cannot listen', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const busy = (taken.address() as { port: number }).port;
    try {
      const first = await consecutivePorts(1);
      fleet = startFleet(['--api', '1', '--workers', '0', '--port', String(first), '--proxy-port', String(busy)]);
      expect(await fleet.exited).toBe(1);
      expect(fleet.output()).toContain(`fleet: the proxy cannot listen on port ${busy}`);
      expect(processAlive(pidOf(fleet.output(), 'api-1'))).toBe(false);
      expect(fleet.output()).not.toContain('fleet: ready');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('refuses a fleet of no process and a proxy without API processes', async () => {
    for (const args of [['--api', '0', '--workers', '0'], ['--api', '0', '--workers', '1', '--proxy-port', '9']]) {
      const refused = startFleet(args);
      expect(await refused.exited).not.toBe(0);
      expect(refused.output()).toMatch(/a fleet needs at least one process|--proxy-port needs at least one API process/);
    }
  });
});
