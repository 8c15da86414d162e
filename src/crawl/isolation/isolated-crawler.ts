/**
 * Crawls outside the API's event loop (ADR 0014): a pool of crawl workers, each running the worker entry the
 * composition root names (`main/crawl-worker.ts`) and one
 * task at a time (a crawl, or the logo renditions of a record about to be saved). One message per crawl each way:
 * `{domain}` in, the crawl's outcome out; the worker writes the crawl's asset files to the shared folder itself.
 *
 * A worker is a child process by default (`process`): its resident memory is read every `memoryPollMs` while it
 * works and it is killed past `memoryMb` (its V8 heap is capped at `heapMb` as well), so decoded images, which
 * live outside V8's heap, are bounded too, and a native crash (libvips, resvg) ends the worker, not the server.
 * A worker thread (`thread`) is the lighter form: its V8 heap is capped (`resourceLimits`), nothing else is.
 *
 * Every task has a hard time limit: past it the worker is killed, the crawl answers `timeout`, and a fresh
 * worker takes its place when one is needed. A worker that dies (memory, crash) answers `crawl_error`. The
 * server never dies with a worker. Rendering stays in this process's one Chromium: a worker asks for it by message.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Config } from '../../config/config.js';
import type { Logo } from '../../domain/brand.js';
import type { CrawlOutcome } from '../crawl-brand.js';
import type { AnalysisRecord } from '../analysis-memo.js';
import type { PageRenderer } from '../fetch/render/page-renderer.js';
import type { Logger } from '../../platform/logger.js';
import type { CrawlWorkerData, FromWorker, ToWorker } from './crawl-worker-protocol.js';

export type IsolationMode = 'process' | 'thread';

/**
 * The module a worker runs: a file URL, and whether it is TypeScript (run through tsx: tests and `npm run dev`) or
 * the built JavaScript (ADR 0018). The composition root names it; this pool knows no entry of its own.
 */
export interface WorkerEntry {
  url: URL;
  typescript: boolean;
}

export interface IsolatedCrawlerOptions {
  /** The worker's module (`main/crawl-worker`, see main/crawler.ts). */
  entry: WorkerEntry;
  config: Readonly<Config>;
  assetsDir: string;
  logger: Logger;
  /** This process's renderer (one Chromium), or undefined when rendering is off. */
  renderer?: PageRenderer;
  mode: IsolationMode;
  /** Workers at most, i.e. crawls running at once; more wait in line. */
  workers: number;
  /** Resident memory limit of one worker process in MB (the watchdog); not enforced for a thread. */
  memoryMb: number;
  /** V8 heap (old generation) limit of one worker in MB, process or thread. */
  heapMb: number;
  /** Hard time limit of one task, from when the worker receives it. */
  hardLimitMs: number;
  /** How often a busy worker process's resident memory is read. */
  memoryPollMs?: number;
}

/** Young generation of a worker thread (V8's semi-spaces of a heap this size): bounded, not a setting. */
const THREAD_YOUNG_GENERATION_MB = 32;
const DEFAULT_MEMORY_POLL_MS = 50;
/** Nice value of worker processes (0 is the server's, 19 the lowest priority). */
const WORKER_NICENESS = 10;
/**
 * A worker left holding more than this share of the room between its resident memory when it started and its limit
 * is replaced after its task, not reused: a crawl's leftovers (V8 and malloc keep freed memory) are not carried
 * into the next one, and the next crawl starts with the room it is meant to have.
 */
const RECYCLE_SHARE = 0.5;
/** A worker beyond the first that has had nothing to do this long is stopped (its memory given back). */
const IDLE_MS = 60_000;

/** One crawl worker, process or thread, behind the few operations the pool needs. */
interface WorkerHandle {
  send(message: ToWorker): void;
  /** Resident memory in bytes (a process on Linux), or null when it cannot be told apart from the server's. */
  rssBytes(): number | null;
  ref(): void;
  unref(): void;
  /** Ends it at once (SIGKILL; a thread stops at its next JavaScript instruction). Resolves when it is gone. */
  kill(): Promise<void>;
}

type Task =
  | { kind: 'crawl'; domain: string; owner: string | null; known?: readonly AnalysisRecord[]; resolve: (outcome: CrawlOutcome) => void; reject: (error: Error) => void }
  | { kind: 'renditions'; logos: Logo[]; resolve: (logos: Logo[] | null) => void; reject: (error: Error) => void };

interface Slot {
  handle: WorkerHandle;
  ready: boolean;
  /** Settles once the worker has loaded the crawler, or is gone (whichever comes first). */
  settled: Promise<void>;
  settle: () => void;
  task: Task | null;
  taskId: number;
  startedAt: number;
  timer: NodeJS.Timeout | null;
  /** Renders this worker asked for, by its id: aborted when the worker goes. */
  renders: Map<number, AbortController>;
  idleTimer: NodeJS.Timeout | null;
  /** Resident memory once the worker had loaded the crawler (null: not known, a thread). */
  baselineBytes: number | null;
}

export interface CrawlPoolStats {
  /** Workers started since the pool was made (replacements included). */
  started: number;
  /** Tasks stopped at the hard time limit. */
  timedOut: number;
  /** Tasks stopped at the memory limit (the watchdog). */
  overMemory: number;
  /** Workers that died on their own during a task (V8 heap limit, a crash). */
  died: number;
  /** Tasks waiting for a worker now. */
  waiting: number;
}

/** A file URL of one of tsx's exports (`.` is its `--import` loader, `./esm/api` its `register`), by its `import` condition. */
function tsxModule(subpath: '.' | './esm/api'): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const { exports } = require(manifest) as { exports: Record<string, string | { import?: { default?: string } }> };
  const target = exports[subpath];
  const relative = typeof target === 'string' ? target : target?.import?.default;
  if (!relative) throw new Error(`tsx does not export ${subpath}`);
  return pathToFileURL(path.join(path.dirname(manifest), relative)).href;
}

function startProcess(entry: WorkerEntry, data: CrawlWorkerData, heapMb: number, onMessage: (m: FromWorker) => void, onExit: (failure: Error) => void): WorkerHandle {
  const execArgv = [...(entry.typescript ? ['--import', tsxModule('.')] : []), `--max-old-space-size=${heapMb}`];
  // Own stdin closed; stdout and stderr shared (the worker logs through messages; a fatal error still shows).
  const child: ChildProcess = fork(fileURLToPath(entry.url), [], { execArgv, env: workerEnv(), serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Below the server in the kernel's scheduler: on a busy machine the API gets the CPU first (no privilege needed).
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, WORKER_NICENESS);
    } catch {
      // not permitted here: the worker runs at the server's priority
    }
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (message) => onMessage(message as FromWorker));
  child.on('error', () => undefined); // a failed send to a dying worker; its exit is what counts
  child.once('exit', (code, signal) => onExit(new Error(`crawl worker exited (${signal ?? `code ${code}`})`)));
  child.send({ type: 'init', data } satisfies ToWorker);
  return {
    send: (message) => void (child.connected && child.send(message)),
    rssBytes: () => (child.pid === undefined ? null : residentBytes(child.pid)),
    ref: () => {
      child.ref();
      child.channel?.ref();
    },
    unref: () => {
      child.unref();
      child.channel?.unref();
    },
    kill: () => {
      // Referenced again, so a caller awaiting the exit (shutdown) keeps the event loop alive until it comes.
      child.ref();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return exited;
    },
  };
}

/**
 * TypeScript needs tsx's loader in the thread: hooks registered in the main thread (bin/brandbase.js calls
 * tsx's `register()`) are not inherited by workers on Node 20, and `--import` in a worker's execArgv is not
 * honoured, so a one-line bootstrap registers tsx in the thread, then imports the entry.
 */
function startThread(entry: WorkerEntry, data: CrawlWorkerData, heapMb: number, onMessage: (m: FromWorker) => void, onExit: (failure: Error) => void): WorkerHandle {
  const options = { workerData: data, env: workerEnv(), resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB } };
  const boot = `import(${JSON.stringify(tsxModule('./esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(entry.url.href)}); });`;
  const worker = entry.typescript ? new Worker(boot, { ...options, eval: true }) : new Worker(entry.url, options);
  let failure: Error | null = null;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', onMessage);
  worker.on('error', (error) => void (failure ??= error));
  worker.once('exit', (code) => onExit(failure ?? new Error(`crawl worker thread exited with code ${code}`)));
  return {
    send: (message) => worker.postMessage(message),
    rssBytes: () => null,
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    // A thread inside a native call (sharp) stops when the call returns; the pool does not wait for that.
    kill: () => {
      worker.ref();
      return worker.terminate().then(() => exited);
    },
  };
}

/**
 * A worker parses hostile input, so it holds no credential it does not need: the service's settings reach it by
 * message (without the store's and the mailer's URLs), not through the environment.
 */
function workerEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(BRANDBASE_|PG)/.test(name)));
}

function workerData(config: Readonly<Config>, assetsDir: string, rendering: boolean): CrawlWorkerData {
  return { config: { ...config, databaseUrl: null, smtpUrl: null }, assetsDir, rendering };
}

/** VmRSS of a process from /proc (Linux); null elsewhere or once it is gone. */
function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export class IsolatedCrawler {
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  /** When each owner was last given a worker (a counter), for round-robin turns between owners. */
  private readonly servedAt = new Map<string | null, number>();
  private served = 0;
  /** Workers being killed: awaited (briefly) on close. */
  private readonly dying = new Set<Promise<void>>();
  private nextTaskId = 0;
  private closed = false;
  private watchdog: NodeJS.Timeout | null = null;
  private readonly counts = { started: 0, timedOut: 0, overMemory: 0, died: 0 };

  constructor(private readonly options: IsolatedCrawlerOptions) {}

  /**
   * Crawls `domain` in a worker. Rejects only when the crawl itself threw (a bug), as an in-process crawl would.
   * Crawls waiting for a worker take turns between owners (organizations): see `nextTask`.
   */
  crawl(domain: string, owner: string | null = null, known?: readonly AnalysisRecord[]): Promise<CrawlOutcome> {
    return new Promise((resolve, reject) => this.enqueue({ kind: 'crawl', domain, owner, ...(known ? { known } : {}), resolve, reject }));
  }

  /** `withLogoRenditions` in a worker (sharp never runs on the API's thread); rejects when it cannot finish. */
  renditions(logos: readonly Logo[]): Promise<Logo[] | null> {
    // The tail of an index that already holds its crawl's result: ahead of crawls waiting for a worker.
    return new Promise((resolve, reject) => this.enqueue({ kind: 'renditions', logos: [...logos], resolve, reject }, true));
  }

  /** Starts up to `count` workers and waits until they have loaded the crawler. */
  async warm(count = 1): Promise<void> {
    while (this.slots.length < Math.min(count, this.options.workers)) this.spawn();
    await Promise.all(this.slots.map((slot) => slot.settled));
  }

  stats(): CrawlPoolStats {
    return { ...this.counts, waiting: this.waiting.length };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    for (const task of this.waiting.splice(0)) task.reject(new Error('the crawler is shutting down'));
    for (const slot of [...this.slots]) this.retire(slot, new Error('the crawler is shutting down'));
    await Promise.race([Promise.all(this.dying), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  }

  private enqueue(task: Task, first = false): void {
    if (this.closed) return task.reject(new Error('the crawler is shut down'));
    if (first) this.waiting.unshift(task);
    else this.waiting.push(task);
    this.dispatch();
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.waiting.length === 0) break;
      if (slot.ready && !slot.task) this.assign(slot, this.nextTask());
    }
    const starting = this.slots.filter((s) => !s.ready).length;
    for (let i = starting; i < this.waiting.length && this.slots.length < this.options.workers; i++) this.spawn();
  }

  /**
   * The next waiting task: renditions first (they finish an index that already holds its crawl), then a crawl of
   * the owner with the fewest crawls running, among those the owner served longest ago, then the oldest: one
   * organization's flood of live lookups (free when nothing is found) never makes another organization's crawl
   * wait behind it (ADR 0015).
   */
  private nextTask(): Task {
    const running = new Map<string | null, number>();
    for (const slot of this.slots) if (slot.task?.kind === 'crawl') running.set(slot.task.owner, (running.get(slot.task.owner) ?? 0) + 1);
    const rank = (task: Task): [number, number] => (task.kind === 'crawl' ? [running.get(task.owner) ?? 0, this.servedAt.get(task.owner) ?? -1] : [-1, -1]);
    let best = 0;
    for (let i = 1; i < this.waiting.length; i++) {
      const [r, s] = rank(this.waiting[i] as Task);
      const [br, bs] = rank(this.waiting[best] as Task);
      if (r < br || (r === br && s < bs)) best = i;
    }
    const task = this.waiting.splice(best, 1)[0] as Task;
    if (task.kind === 'crawl') {
      if (this.servedAt.size > 10_000) this.servedAt.clear();
      this.servedAt.set(task.owner, ++this.served);
    }
    return task;
  }

  private assign(slot: Slot, task: Task): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.task = task;
    slot.taskId = ++this.nextTaskId;
    slot.startedAt = Date.now();
    slot.handle.ref();
    slot.timer = setTimeout(() => this.expire(slot), this.options.hardLimitMs);
    slot.handle.send(
      task.kind === 'crawl'
        ? { type: 'crawl', id: slot.taskId, domain: task.domain, ...(task.known ? { known: [...task.known] } : {}) }
        : { type: 'renditions', id: slot.taskId, logos: task.logos },
    );
    this.watch();
  }

  private spawn(): void {
    const { entry, config, assetsDir, renderer, heapMb, mode } = this.options;
    const data = workerData(config, assetsDir, renderer !== undefined);
    const start = mode === 'thread' ? startThread : startProcess;
    let settle = (): void => undefined;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const slot = { ready: false, settled, settle, task: null, taskId: 0, startedAt: 0, timer: null, renders: new Map(), idleTimer: null, baselineBytes: null } as Omit<Slot, 'handle'> as Slot;
    slot.handle = start(entry, data, heapMb, (message) => this.onMessage(slot, message), (failure) => this.onExit(slot, failure));
    this.counts.started += 1;
    this.slots.push(slot);
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    switch (message.type) {
      case 'ready':
        slot.ready = true;
        slot.settle();
        slot.baselineBytes = slot.handle.rssBytes();
        slot.handle.unref();
        return this.dispatch();
      case 'log':
        return this.relayLog(message.line);
      case 'render':
        return this.render(slot, message.id, message.url, message.timeoutMs, message.awaitMark ?? false);
      case 'render-abort':
        return slot.renders.get(message.id)?.abort();
      default:
        if (message.id !== slot.taskId || !slot.task) return;
        return this.finish(slot, message);
    }
  }

  private finish(slot: Slot, message: Extract<FromWorker, { id: number }>): void {
    const task = slot.task as Task;
    this.release(slot);
    this.idleAfterTask(slot);
    if (message.type === 'task-error') {
      const error = new Error(message.message);
      if (message.stack) error.stack = message.stack;
      task.reject(error);
    } else if (task.kind === 'crawl' && message.type === 'crawled') task.resolve(message.outcome);
    else if (task.kind === 'renditions' && message.type === 'rendition-done') task.resolve(message.logos);
    else task.reject(new Error(`unexpected answer ${message.type} to a ${task.kind} task`));
    // A worker that kept much of a big crawl's memory is replaced rather than carried into the next crawl.
    const rss = slot.handle.rssBytes();
    const base = slot.baselineBytes;
    if (rss !== null && base !== null && rss > base + (this.options.memoryMb * 1024 * 1024 - base) * RECYCLE_SHARE) this.retire(slot, new Error('recycled'));
    this.dispatch();
  }

  /** Ends the slot's task (its time limit with it). */
  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
    slot.handle.unref();
  }

  /** A worker beyond the first that stays idle for IDLE_MS is stopped. */
  private idleAfterTask(slot: Slot): void {
    slot.idleTimer = setTimeout(() => {
      if (!slot.task && this.slots.length > 1) this.retire(slot, new Error('idle'));
    }, IDLE_MS);
    slot.idleTimer.unref();
  }

  /** Ends the running task with `outcome` (a crawl) or `error` (renditions), and the worker with it. */
  private abandon(slot: Slot, outcome: CrawlOutcome & { ok: false }, error: Error): void {
    const task = slot.task;
    if (!task) return;
    this.release(slot);
    this.retire(slot, error);
    if (task.kind === 'crawl') task.resolve(outcome);
    else task.reject(error);
    this.dispatch();
  }

  /** The hard time limit: the task fails now, the worker is killed, a new one starts when needed. */
  private expire(slot: Slot): void {
    if (!slot.task) return;
    const ms = Date.now() - slot.startedAt;
    this.counts.timedOut += 1;
    this.options.logger.warn({ ...describe(slot.task), ms }, 'crawl worker stopped at the hard time limit');
    this.abandon(slot, { ok: false, reason: 'timeout', message: `the crawl did not finish within ${ms} ms and was stopped` }, new Error(`stopped at the hard time limit (${ms} ms)`));
  }

  /** Reads the resident memory of busy worker processes while any works; kills one past its limit. */
  private watch(): void {
    if (this.watchdog || this.options.mode !== 'process') return;
    this.watchdog = setInterval(() => {
      const busy = this.slots.filter((s) => s.task);
      if (busy.length === 0) {
        clearInterval(this.watchdog as NodeJS.Timeout);
        this.watchdog = null;
        return;
      }
      for (const slot of busy) {
        const rss = slot.handle.rssBytes();
        if (rss === null || rss <= this.options.memoryMb * 1024 * 1024) continue;
        this.counts.overMemory += 1;
        const mb = Math.round(rss / (1024 * 1024));
        this.options.logger.warn({ ...describe(slot.task as Task), mb, limitMb: this.options.memoryMb }, 'crawl worker stopped at the memory limit');
        this.abandon(slot, { ok: false, reason: 'crawl_error', message: `the crawl used more than ${this.options.memoryMb} MB and was stopped` }, new Error(`stopped at the memory limit (${mb} MB)`));
      }
    }, this.options.memoryPollMs ?? DEFAULT_MEMORY_POLL_MS);
    this.watchdog.unref();
  }

  /** A worker that exited without being retired: V8's heap limit, a crash, or a failed start. */
  private onExit(slot: Slot, failure: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    slot.settle();
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    for (const render of slot.renders.values()) render.abort();
    const task = slot.task;
    if (task) {
      this.counts.died += 1;
      this.release(slot);
      this.options.logger.warn({ ...describe(task), ms: Date.now() - slot.startedAt, err: failure }, 'crawl worker died');
      const outOfMemory = (failure as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' || /SIGABRT|code 134/.test(failure.message);
      const message = outOfMemory ? 'the crawl ran out of memory and was stopped' : 'the crawl stopped unexpectedly';
      if (task.kind === 'crawl') task.resolve({ ok: false, reason: 'crawl_error', message });
      else task.reject(failure);
    } else if (!slot.ready && !this.closed) {
      // It died loading the crawler: fail the oldest waiting task instead of starting workers for ever.
      this.options.logger.error({ err: failure }, 'crawl worker failed to start');
      this.waiting.shift()?.reject(failure);
    }
    this.dispatch();
  }

  private retire(slot: Slot, reason: Error): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    slot.settle();
    for (const render of slot.renders.values()) render.abort();
    if (slot.task) {
      const task = slot.task;
      this.release(slot);
      task.reject(reason);
    }
    const gone = slot.handle.kill().catch(() => undefined);
    this.dying.add(gone);
    void gone.finally(() => this.dying.delete(gone));
  }

  private render(slot: Slot, id: number, url: string, timeoutMs: number, awaitMark: boolean): void {
    const renderer = this.options.renderer;
    const controller = new AbortController();
    slot.renders.set(id, controller);
    const rendered = renderer ? renderer.render(url, { timeoutMs, signal: controller.signal, awaitMark }).catch(() => null) : Promise.resolve(null);
    void rendered.then((page) => {
      slot.renders.delete(id);
      if (this.slots.includes(slot)) slot.handle.send({ type: 'rendered', id, page: controller.signal.aborted ? null : page });
    });
  }

  private relayLog(line: string): void {
    try {
      const { level, msg, time: _time, ...fields } = JSON.parse(line) as { level: number; msg?: string; time?: number } & Record<string, unknown>;
      const label = (this.options.logger.levels.labels[level] ?? 'info') as 'info';
      this.options.logger[label](fields, msg);
    } catch {
      this.options.logger.info({ line: line.slice(0, 1000) }, 'crawl worker output');
    }
  }
}

function describe(task: Task): Record<string, unknown> {
  return task.kind === 'crawl' ? { task: 'crawl', domain: task.domain } : { task: 'renditions', logos: task.logos.length };
}
