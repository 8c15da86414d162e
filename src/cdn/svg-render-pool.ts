/**
 * The SVG renderer of the API process (issue 33): a few worker processes, each drawing one SVG at a time, so a
 * site's SVG that asks for minutes of filter work costs a worker for at most `timeoutMs`, never the API's event
 * loop or libuv's thread pool (where sharp's work runs, shared with file reads: an in-process render stalled
 * `/assets/`). Limits, as the crawl workers' (ADR 0014, crawl/isolation/isolated-crawler.ts):
 *
 * - hard time limit of one render, from when its worker receives it: past it the worker is killed (SIGKILL) and the
 *   render fails `timeout`; a new worker starts when one is needed;
 * - memory: the V8 heap is capped at `memoryMb` and the resident memory is read every `memoryPollMs` while the
 *   worker draws (pixels live outside V8's heap); past it the worker is killed and the render fails `memory`;
 * - a bounded queue: at most `queue` renders wait for a worker; past it a render fails `busy` at once. Renders of
 *   a document whose render was just killed, waiting in line, fail with it (another size costs the same), and
 *   one document is drawn by one worker at a time.
 *
 * Failures reject with `SvgRenderUnavailable`; callers answer what they answer for a variant they cannot draw.
 */
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { RgbaRaster } from '../media/rgba-raster.js';
import { forkWorkerProcess, residentBytes, type WorkerProcessEntry } from '../platform/worker-process.js';
import type { RasterFormat } from './render-variant.js';
import { SvgRenderUnavailable, type SvgRenderFailure, type SvgRenderer } from './svg-renderer.js';
import type { FromSvgWorker, ToSvgWorker } from './svg-render-protocol.js';
import type { VariantGeometry } from './variant-geometry.js';

export interface SvgRenderPoolOptions {
  /** The worker's module (`main/svg-render-worker`, named by the composition root). */
  entry: WorkerProcessEntry;
  /** Worker processes at most (renders at once). */
  workers: number;
  /** Renders waiting for a worker at most; one more fails `busy`. */
  queue: number;
  /** Hard time limit of one render, from when its worker receives it. */
  timeoutMs: number;
  /** V8 heap and resident memory limit of one worker, in MB. */
  memoryMb: number;
  memoryPollMs?: number;
  /**
   * Starts a render's time limit; returns its cancel. `setTimeout` unless a test hands the limit's moment to
   * itself (to hold a render in flight while it asserts, without timing).
   */
  startLimit?: (ms: number, expire: () => void) => () => void;
}

export interface SvgRenderPoolStats {
  started: number;
  rendered: number;
  failed: number;
  timedOut: number;
  overMemory: number;
  died: number;
  refused: number;
  running: number;
  waiting: number;
}

type Job = { message: DistributiveOmit<ToSvgWorker, 'id'>; resolve: (value: FromSvgWorker) => void; reject: (error: Error) => void };
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

interface Slot {
  child: ChildProcess;
  ready: boolean;
  job: Job | null;
  jobId: number;
  cancelLimit: (() => void) | null;
  watchdog: NodeJS.Timeout | null;
  /** Why the pool killed it, so its exit fails the job with that reason. */
  killedFor: SvgRenderFailure | null;
  exited: Promise<void>;
}

const DEFAULT_MEMORY_POLL_MS = 50;

const defaultLimit = (ms: number, expire: () => void): (() => void) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

export class SvgRenderPool implements SvgRenderer {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 0;
  private closed = false;
  private readonly counts = { started: 0, rendered: 0, failed: 0, timedOut: 0, overMemory: 0, died: 0, refused: 0 };
  /** `start` (a worker received a render) and `end` (it answered or was killed): tests await them. */
  readonly events = new EventEmitter();

  constructor(private readonly options: SvgRenderPoolOptions) {}

  async variant(svg: string, geometry: VariantGeometry, format: RasterFormat): Promise<Buffer> {
    const answer = await this.run({ type: 'variant', svg, geometry, format });
    if (answer.type !== 'variant-done') throw new Error(`unexpected answer ${answer.type}`);
    return Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength);
  }

  async raster(svg: string): Promise<RgbaRaster> {
    const answer = await this.run({ type: 'raster', svg });
    if (answer.type !== 'raster-done') throw new Error(`unexpected answer ${answer.type}`);
    return { data: answer.data, width: answer.width, height: answer.height };
  }

  stats(): SvgRenderPoolStats {
    return { ...this.counts, running: this.slots.filter((s) => s.job).length, waiting: this.waiting.length };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new SvgRenderUnavailable('closed'));
    await Promise.all([...this.slots].map((slot) => this.kill(slot, 'closed')));
  }

  private run(message: Job['message']): Promise<FromSvgWorker> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new SvgRenderUnavailable('closed'));
      const job: Job = { message, resolve, reject };
      this.waiting.push(job);
      this.dispatch();
      // Still waiting: it fits in line beside the renders that wait for a worker being started, or is refused.
      const starting = this.slots.filter((s) => !s.ready).length;
      if (this.waiting.length > this.options.queue + starting && this.waiting.at(-1) === job) {
        this.waiting.pop();
        this.counts.refused += 1;
        reject(new SvgRenderUnavailable('busy'));
      }
    });
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      const job = slot.ready && !slot.job ? this.nextJob() : undefined;
      if (job) this.assign(slot, job);
    }
    const starting = this.slots.filter((s) => !s.ready).length;
    for (let i = starting; i < this.waiting.length && this.slots.length < this.options.workers; i++) this.spawn();
  }

  /**
   * The oldest waiting render of a document no worker is drawing now: one SVG takes one worker at a time, so a
   * hostile one asked for at many sizes holds one worker until its limit, not all of them.
   */
  private nextJob(): Job | undefined {
    const drawing = this.slots.flatMap((s) => (s.job ? [s.job.message.svg] : []));
    const index = this.waiting.findIndex((job) => !drawing.includes(job.message.svg));
    return index < 0 ? undefined : this.waiting.splice(index, 1)[0];
  }

  private spawn(): void {
    const child = forkWorkerProcess(this.options.entry, this.options.memoryMb);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const slot: Slot = { child, ready: false, job: null, jobId: 0, cancelLimit: null, watchdog: null, killedFor: null, exited };
    child.on('message', (message) => this.onMessage(slot, message as FromSvgWorker));
    child.on('error', () => undefined); // a failed send to a dying worker; its exit is what counts
    child.once('exit', () => this.onExit(slot));
    this.counts.started += 1;
    this.slots.push(slot);
  }

  private assign(slot: Slot, job: Job): void {
    slot.job = job;
    slot.jobId = ++this.nextId;
    slot.child.ref();
    slot.child.channel?.ref();
    slot.child.send({ ...job.message, id: slot.jobId } as ToSvgWorker);
    slot.cancelLimit = (this.options.startLimit ?? defaultLimit)(this.options.timeoutMs, () => {
      if (slot.job !== job) return;
      this.counts.timedOut += 1;
      void this.kill(slot, 'timeout');
    });
    const limit = this.options.memoryMb * 1024 * 1024;
    slot.watchdog = setInterval(() => {
      const rss = slot.child.pid === undefined ? null : residentBytes(slot.child.pid);
      if (rss !== null && rss > limit && slot.job === job) {
        this.counts.overMemory += 1;
        void this.kill(slot, 'memory');
      }
    }, this.options.memoryPollMs ?? DEFAULT_MEMORY_POLL_MS);
    this.events.emit('start', { id: slot.jobId, type: job.message.type });
  }

  private onMessage(slot: Slot, message: FromSvgWorker): void {
    if (message.type === 'ready') {
      slot.ready = true;
      this.idle(slot);
      return this.dispatch();
    }
    const job = slot.job;
    if (!job || message.id !== slot.jobId) return;
    this.release(slot);
    if (message.type === 'failed') {
      this.counts.failed += 1;
      job.reject(new Error(message.message));
    } else {
      this.counts.rendered += 1;
      job.resolve(message);
    }
    this.events.emit('end', { id: message.id, outcome: message.type === 'failed' ? 'failed' : 'rendered' });
    this.dispatch();
  }

  /** Kills the worker (SIGKILL); its exit fails its render with `reason`. Resolves once it is gone. */
  private kill(slot: Slot, reason: SvgRenderFailure): Promise<void> {
    slot.killedFor ??= reason;
    const { child } = slot;
    child.ref();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return slot.exited;
  }

  private onExit(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    const job = slot.job;
    const id = slot.jobId;
    const reason = slot.killedFor ?? 'crashed';
    this.release(slot);
    if (job) {
      if (reason === 'crashed') this.counts.died += 1;
      job.reject(new SvgRenderUnavailable(reason));
      this.events.emit('end', { id, outcome: reason });
      // Renders of the same document waiting in line would cost a worker the same: they fail with it, unsent.
      if (reason === 'timeout' || reason === 'memory') {
        for (const other of this.waiting.filter((w) => w.message.svg === job.message.svg)) {
          this.waiting.splice(this.waiting.indexOf(other), 1);
          other.reject(new SvgRenderUnavailable(reason));
        }
      }
    } else if (!slot.ready && !this.closed) {
      // A worker that failed to start fails one waiting render, not all of them for ever.
      this.waiting.shift()?.reject(new SvgRenderUnavailable('crashed'));
    }
    this.dispatch();
  }

  private release(slot: Slot): void {
    slot.cancelLimit?.();
    slot.cancelLimit = null;
    if (slot.watchdog) clearInterval(slot.watchdog);
    slot.watchdog = null;
    slot.job = null;
    this.idle(slot);
  }

  /** An idle worker does not keep the process alive. */
  private idle(slot: Slot): void {
    slot.child.unref();
    slot.child.channel?.unref();
  }
}
