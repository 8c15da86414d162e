/**
 * Monthly request counts of the client-ID products (search, logo), kept like the usage meter keeps credits: in
 * memory, added to the store in groups (one upsert per client ID, product and period per flush, every `flushMs`),
 * so the request path does no database write. Each organization's total is read from the store on first use and
 * re-read every `reloadMs`, so other processes' counts arrive within that time (the allowance is soft: ADR 0033).
 */
import type { ClientIdUsageEntry } from '../domain/client-id-record.js';
import type { ClientIdProduct } from '../domain/client-ids.js';
import type { ClientIdStore } from './billing-store.js';
import { billingPeriod } from './billing-period.js';

interface Counter {
  period: string;
  /** As read from the store, plus what this process flushed since. */
  persisted: number;
  loadedAt: number;
}

export interface ClientIdUsageOptions {
  flushMs?: number;
  reloadMs?: number;
  onFlushError?: (error: unknown) => void;
}

export class ClientIdUsage {
  readonly #counters = new Map<string, Counter>();
  readonly #loading = new Map<string, Promise<Counter>>();
  #buffer = new Map<string, ClientIdUsageEntry>();
  #timer: NodeJS.Timeout | null = null;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: ClientIdStore,
    private readonly now: () => Date = () => new Date(),
    private readonly options: ClientIdUsageOptions = {},
  ) {}

  /** Requests of the organization's client IDs for the product this period (this process's view). */
  async used(orgId: string, product: ClientIdProduct): Promise<number> {
    const period = billingPeriod(this.now()).key;
    const key = `${orgId}|${product}`;
    let counter = this.#counters.get(key);
    const stale = !counter || counter.period !== period || this.now().getTime() - counter.loadedAt >= (this.options.reloadMs ?? 5000);
    if (stale) counter = await this.#load(key, orgId, product, period);
    return (counter as Counter).persisted + this.#buffered(orgId, product, period);
  }

  /** Adds `delta` requests (−1 gives back a request that was not served). */
  count(clientId: string, orgId: string, product: ClientIdProduct, delta = 1): void {
    const period = billingPeriod(this.now()).key;
    const group = `${clientId}|${product}|${period}`;
    const entry = this.#buffer.get(group);
    if (entry) entry.requests += delta;
    else this.#buffer.set(group, { clientId, orgId, product, period, requests: delta });
    this.#schedule();
  }

  async flush(): Promise<void> {
    const run = this.#chain.then(() => this.#write());
    this.#chain = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.flush();
  }

  #buffered(orgId: string, product: ClientIdProduct, period: string): number {
    let n = 0;
    for (const e of this.#buffer.values()) if (e.orgId === orgId && e.product === product && e.period === period) n += e.requests;
    return n;
  }

  /** Serialized with flushes, so a flush is counted exactly once (before or after the read). */
  #load(key: string, orgId: string, product: ClientIdProduct, period: string): Promise<Counter> {
    let pending = this.#loading.get(key);
    if (pending) return pending;
    pending = this.#chain
      .then(async () => {
        const persisted = await this.store.clientIdUsage(orgId, product, period);
        const counter = { period, persisted, loadedAt: this.now().getTime() };
        this.#counters.set(key, counter);
        return counter;
      })
      .finally(() => this.#loading.delete(key));
    this.#loading.set(key, pending);
    this.#chain = pending.catch(() => undefined);
    return pending;
  }

  async #write(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const entries = [...this.#buffer.values()].filter((e) => e.requests !== 0);
    this.#buffer = new Map();
    if (entries.length === 0) return;
    try {
      await this.store.addClientIdUsage(entries);
    } catch (error) {
      // Kept for the next flush, never lost.
      for (const e of entries) this.#requeue(e);
      this.#schedule();
      throw error;
    }
    for (const e of entries) {
      const counter = this.#counters.get(`${e.orgId}|${e.product}`);
      if (counter && counter.period === e.period) counter.persisted += e.requests;
    }
  }

  #requeue(e: ClientIdUsageEntry): void {
    const group = `${e.clientId}|${e.product}|${e.period}`;
    const entry = this.#buffer.get(group);
    if (entry) entry.requests += e.requests;
    else this.#buffer.set(group, e);
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.flush().catch((error: unknown) => this.options.onFlushError?.(error));
    }, this.options.flushMs ?? 1000);
    this.#timer.unref();
  }
}
