import { describe, expect, it } from 'vitest';
import { BudgetExpiredError, createCrawlBudget, raceAbort } from '../../src/crawl/crawl-budget.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('createCrawlBudget', () => {
  it('runs at most `concurrency` tasks at once', async () => {
    const budget = createCrawlBudget(5000, 4);
    let active = 0;
    let peak = 0;
    const task = async (): Promise<void> => {
      active += 1;
      peak = Math.max(peak, active);
      await sleep(10);
      active -= 1;
    };
    await Promise.all(Array.from({ length: 12 }, () => budget.limit(task)));
    budget.dispose();
    expect(peak).toBe(4);
  });

  it('aborts its signal at the deadline and rejects pending work, even work that ignores the signal', async () => {
    const budget = createCrawlBudget(50, 1);
    const never = budget.limit(() => new Promise<never>(() => undefined));
    const queued = budget.limit(async () => 'late');
    await expect(never).rejects.toBeInstanceOf(BudgetExpiredError);
    await expect(queued).rejects.toBeInstanceOf(BudgetExpiredError);
    expect(budget.signal.aborted).toBe(true);
    expect(budget.remaining()).toBe(0);
  });

  it('raceAbort passes results and errors through while the signal is quiet', async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(raceAbort(Promise.reject(new Error('boom')), controller.signal)).rejects.toThrow('boom');
  });

  it('raceAbort rejects every race still pending when the signal fires, and only those', async () => {
    const controller = new AbortController();
    const settled = raceAbort(Promise.resolve('done'), controller.signal);
    const pending = [raceAbort(new Promise(() => undefined), controller.signal), raceAbort(sleep(1_000), controller.signal)];
    await expect(settled).resolves.toBe('done');
    controller.abort();
    for (const race of pending) await expect(race).rejects.toBeInstanceOf(BudgetExpiredError);
    await expect(raceAbort(Promise.resolve(1), controller.signal)).rejects.toBeInstanceOf(BudgetExpiredError);
  });
});
