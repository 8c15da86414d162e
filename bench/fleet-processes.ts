/**
 * What the fleet benchmarks (bench/fleet-throughput.ts, bench/fleet-crawl.ts) share: starting real `brandbase`
 * processes, waiting for them, and reading CPU time from /proc, for a process with its descendants (an API or worker
 * process runs its crawls in crawl-worker child processes, ADR 0014) and for the whole machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** /proc counts CPU time in clock ticks; 100 per second on Linux (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export function round(value: number, digits = 2): number {
  return Number(value.toFixed(digits));
}

/** Progress on stderr (the report is the JSON on stdout). */
export function note(bench: string, message: string): void {
  process.stderr.write(`${bench}: ${message} (load average ${loadAverage()})\n`);
}

export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/**
 * `BENCH_FLEET_OWN_SESSIONS=1`: each brandbase process in a session of its own (setsid), as separate services are.
 * Linux's autogroup scheduler shares a busy machine's CPU between sessions first, so on a shared machine this
 * decides whether a second process gets a share of its own or splits the bench's.
 */
const OWN_SESSIONS = process.env.BENCH_FLEET_OWN_SESSIONS === '1';

/** `node bin/brandbase.js ARGS` (the built program, as `npm start` runs it), stdout piped so a start line can be awaited. */
export function startBrandbase(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, 'bin/brandbase.js'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'], detached: OWN_SESSIONS });
}

export function ownSessions(): boolean {
  return OWN_SESSIONS;
}

/** Resolves when the process prints a line containing `text` (a pino start line), rejects when it exits first. */
export function waitForLine(child: ChildProcess, text: string, timeoutMs = 300_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no "${text}" from pid ${child.pid} after ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      seen = (seen + chunk.toString('utf8')).slice(-4096);
      if (!seen.includes(text)) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      // Keep draining: a full pipe would block the process's log writes.
      child.stdout?.resume();
      resolve();
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pid ${child.pid} exited ${code} before "${text}"`));
    });
  });
}

/**
 * Starts `brandbase ARGS` and resolves once it prints `readyText` (its pino start line). A process that exits before
 * is started again, twice at most: on the shared PostgreSQL server a start's migration check can fail when other
 * schemas' tables are dropped during it (Kysely introspects every schema; src/db/migrations.ts retries
 * that a few times, and under heavy churn from parallel test runs it still fails now and then).
 */
export async function startBrandbaseReady(args: string[], env: Record<string, string>, readyText: string): Promise<ChildProcess> {
  for (let attempt = 1; ; attempt++) {
    const child = startBrandbase(args, env);
    try {
      await waitForLine(child, readyText);
      return child;
    } catch (error) {
      await stopProcess(child);
      if (attempt >= 3) throw error;
      process.stderr.write(`brandbase ${args.join(' ')} did not start (${error instanceof Error ? error.message : String(error)}); starting it again\n`);
    }
  }
}

/** Until `url` answers below 500; generous, as a start on a loaded 2-core machine can take a minute or more. */
export async function waitForHttp(url: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${url}`);
}

/** SIGTERM (graceful stop), then waits for the exit; SIGKILL after 30 s. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** [pid, ppid, utime + stime in ticks] of every process in /proc (one pass; processes may vanish meanwhile). */
function processTable(): Array<[number, number, number]> {
  const rows: Array<[number, number, number]> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces and parentheses): state is field 3, ppid 4, utime 14, stime 15.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      rows.push([Number(entry), Number(rest[1]), Number(rest[11]) + Number(rest[12])]);
    } catch {
      // exited between readdir and read
    }
  }
  return rows;
}

/**
 * CPU seconds used so far by each root process and its living descendants. A descendant that exited in between
 * takes its ticks with it (the kernel adds them to the parent's cutime only once reaped), so read this across
 * windows in which the process tree is stable (after warm-up).
 */
export function treeCpuSeconds(rootPids: number[]): number[] {
  const table = processTable();
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const [pid, ppid, used] of table) {
    ticks.set(pid, used);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  return rootPids.map((root) => {
    let total = 0;
    const stack = [root];
    while (stack.length > 0) {
      const pid = stack.pop() as number;
      total += ticks.get(pid) ?? 0;
      stack.push(...(children.get(pid) ?? []));
    }
    return total / TICKS_PER_SECOND;
  });
}

/** The whole machine's busy and total CPU seconds so far (all cores), from /proc/stat. */
export function machineCpuSeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
  return { busy: busy / TICKS_PER_SECOND, total: (busy + (idle ?? 0) + (iowait ?? 0)) / TICKS_PER_SECOND };
}
