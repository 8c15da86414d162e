/**
 * One time budget for a whole crawl: a deadline, an AbortSignal that fires at the deadline, and a limiter that
 * keeps at most `concurrency` sub-requests in flight (politeness, and so a slow site cannot pin many sockets).
 * It also carries the crawl's bounds on parsing and decoding (crawl-limits.ts) to every step that fetches.
 */
import { DEFAULT_CRAWL_LIMITS, type CrawlLimits } from './crawl-limits.js';

export interface CrawlBudget {
  readonly signal: AbortSignal;
  /** What the site may make this crawl parse and decode. */
  readonly limits: Readonly<CrawlLimits>;
  /** Milliseconds left, never negative. */
  remaining(): number;
  /** Runs `task` when a slot is free; rejects at once when the budget is spent. */
  limit<T>(task: () => Promise<T>): Promise<T>;
  /** Stops the timer; call when the crawl ends. */
  dispose(): void;
}

export class BudgetExpiredError extends Error {
  constructor() {
    super('crawl time budget exhausted');
    this.name = 'BudgetExpiredError';
  }
}

export function createCrawlBudget(
  timeoutMs: number,
  concurrency = 4,
  now: () => number = Date.now,
  limits: Readonly<CrawlLimits> = DEFAULT_CRAWL_LIMITS,
): CrawlBudget {
  const deadline = now() + timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new BudgetExpiredError()), timeoutMs);
  timer.unref?.();
  const limit = createLimiter(concurrency, controller.signal);
  return {
    signal: controller.signal,
    limits,
    remaining: () => Math.max(0, deadline - now()),
    limit,
    dispose: () => clearTimeout(timer),
  };
}

type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

function createLimiter(concurrency: number, signal: AbortSignal): Limiter {
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    active -= 1;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      if (signal.aborted) throw new BudgetExpiredError();
      return await raceAbort(task(), signal);
    } finally {
      release();
    }
  };
}

/**
 * Settles with `promise`, or rejects when `signal` fires first. Guarantees the crawl ends on time even if a
 * port implementation ignored the signal it was given.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new BudgetExpiredError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new BudgetExpiredError());
    const waiters = abortWaiters(signal);
    waiters.add(onAbort);
    promise.then(
      (value) => {
        waiters.delete(onAbort);
        resolve(value);
      },
      (error: unknown) => {
        waiters.delete(onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

const waitersOf = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * The races pending on a signal, all woken by one 'abort' listener: adding and removing an EventTarget listener
 * per request was a noticeable part of every sub-fetch. Listeners run synchronously in the abort dispatch
 * either way, before any promise callback, so which of a race's outcomes wins is unchanged.
 */
function abortWaiters(signal: AbortSignal): Set<() => void> {
  let waiters = waitersOf.get(signal);
  if (!waiters) {
    const pending = new Set<() => void>();
    signal.addEventListener('abort', () => pending.forEach((wake) => wake()), { once: true });
    waitersOf.set(signal, pending);
    waiters = pending;
  }
  return waiters;
}
