/**
 * Child processes that run hostile input under limits (ADR 0014's style, issue 33): forked with Node's IPC channel
 * and V8's structured serialization, a capped V8 heap, below the server's scheduling priority, with none of the
 * service's settings in their environment. TypeScript entries (tests, `npm run dev`) run through tsx's loader.
 * The crawl pool (crawl/isolation/isolated-crawler.ts) has its own copy of these few lines, with a thread mode.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A worker's module: a file URL, and whether it is TypeScript (run through tsx) or built JavaScript (ADR 0018). */
export interface WorkerProcessEntry {
  url: URL;
  typescript: boolean;
}

/** Nice value of worker processes (0 is the server's, 19 the lowest priority). */
const WORKER_NICENESS = 10;

/** A file URL of tsx's `--import` loader. */
function tsxLoader(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const { exports } = require(manifest) as { exports: Record<string, string | { import?: { default?: string } }> };
  const target = exports['.'];
  const relative = typeof target === 'string' ? target : target?.import?.default;
  if (!relative) throw new Error('tsx does not export .');
  return pathToFileURL(path.join(path.dirname(manifest), relative)).href;
}

/** Forks `entry` with its V8 heap capped at `heapMb`; stdin closed, stdout and stderr shared. */
export function forkWorkerProcess(entry: WorkerProcessEntry, heapMb: number): ChildProcess {
  const execArgv = [...(entry.typescript ? ['--import', tsxLoader()] : []), `--max-old-space-size=${heapMb}`];
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(BRANDBASE_|PG)/.test(name)));
  const child = fork(fileURLToPath(entry.url), [], { execArgv, env, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, WORKER_NICENESS);
    } catch {
      // not permitted here: the worker runs at the server's priority
    }
  }
  return child;
}

/** VmRSS of a process from /proc (Linux); null elsewhere or once it is gone. */
export function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
