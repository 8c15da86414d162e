/**
 * The job queue port. The embedded default keeps jobs in a table of the same database as the brands
 * (`jobs/sql`), so a job survives a restart of the process and is visible to every worker process.
 */

export const JOB_NAMES = { crawlBrand: 'crawl.brand' } as const;
export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

export interface CrawlBrandPayload {
  /** Registrable domain to index. Never a URL or an email address. */
  domain: string;
  /** True for a refresh of a brand already held. */
  refresh: boolean;
}

export interface JobPayloads {
  'crawl.brand': CrawlBrandPayload;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface Job<N extends JobName = JobName> {
  id: string;
  name: N;
  /** Deduplication key: at most one queued or running job per (name, key). */
  key: string;
  payload: JobPayloads[N];
  state: JobState;
  attempts: number;
  runAt: Date;
  lockedUntil: Date | null;
  lastError: string | null;
}

export interface EnqueueResult {
  id: string;
  /** False when a queued or running job with the same (name, key) already existed; its id is returned. */
  created: boolean;
}

export interface JobQueue {
  /**
   * Adds a job unless one with the same (name, key) is queued or running. Rejects with `QueueFullError` when
   * `maxDepth` queued jobs are already waiting (a real bound: HEAD prefetch answers 503 then).
   */
  enqueue<N extends JobName>(name: N, key: string, payload: JobPayloads[N], opts?: { maxDepth?: number; runAt?: Date }): Promise<EnqueueResult>;
  /** Claims the oldest due job and leases it until `now + leaseMs`; an expired lease makes the job claimable again. */
  claim(names: JobName[], leaseMs: number, now?: Date): Promise<Job | null>;
  complete(id: string): Promise<void>;
  /** Records a failure; the job runs again at `retryAt`, or ends `failed` when `retryAt` is null. */
  fail(id: string, error: string, retryAt: Date | null): Promise<void>;
  /** Puts a claimed job back in the queue untouched (graceful shutdown). */
  release(id: string): Promise<void>;
  /** Number of queued jobs (not running). */
  depth(): Promise<number>;
  get(id: string): Promise<Job | null>;
}

export class QueueFullError extends Error {
  constructor(readonly depth: number) {
    super(`job queue is full (${depth} waiting)`);
    this.name = 'QueueFullError';
  }
}
