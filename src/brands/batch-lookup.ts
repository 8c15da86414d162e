import type { CrawlFailureReason } from '../domain/crawl-failures.js';
import { isBrandId } from '../domain/ids.js';
import { MAX_IDENTIFIER_LENGTH, parseIdentifier, parseTypedIdentifier, type ParseResult, type Readings } from '../domain/identifiers.js';
import type { CachedBrand } from './brand-cache.js';
import { NOT_FOUND_MESSAGE, UNMATCHED_MESSAGE, type BrandLookup } from './brand-lookup.js';
import type { CrawlScheduler } from './crawl-scheduler.js';

export type BatchItemType = 'domain' | 'ticker' | 'isin' | 'crypto' | 'brandId';
export type BatchItem = string | { type: BatchItemType; value: string };

export interface BatchOptions {
  cachedOnly: boolean;
  allowNsfw: boolean | undefined;
  /** Per-item time budget; an item not answered in time is 504 `timeout` (spec 2.10). */
  itemTimeoutMs: number;
  /** The organization misses are queued for (fair turns in the crawl queue); null for the operator's own. */
  owner?: string | null;
  /** The request the batch came in: its queued crawls carry the id to the worker's log lines (ADR 0039). */
  requestId?: string;
}

/** One item's answer before charging and serialization (spec 2.10 statuses). */
export type BatchOutcome =
  | { status: 200; brand: CachedBrand }
  | { status: 202; code: 'crawl_queued' }
  | { status: 204 }
  | { status: 400; message: string }
  /** `reason`: only when the domain's crawl failed within the failure memory (docs/spec-decisions.md). */
  | { status: 404; message: string; reason?: CrawlFailureReason }
  | { status: 500; message: string }
  | { status: 504; code: 'timeout' };

const PARALLEL_ITEMS = 8;

/** The identifier echoed in the result: as sent, surrounding whitespace removed. */
export function echoIdentifier(item: BatchItem): BatchItem {
  return typeof item === 'string' ? item.trim() : { type: item.type, value: item.value.trim() };
}

/**
 * Reads one item. A string is read like the single GET's identifier but by its first reading only: the spec
 * says an exchange-suffixed ticker sent as a plain string is read as a domain (send `{type: "ticker"}` instead).
 */
export function parseBatchItem(item: BatchItem): ParseResult {
  const value = typeof item === 'string' ? item : item.value;
  if (value.trim().length === 0) return { ok: false, message: 'Invalid identifier: it is empty.' };
  if (value.length > MAX_IDENTIFIER_LENGTH) return { ok: false, message: `Invalid identifier: longer than ${MAX_IDENTIFIER_LENGTH} characters.` };
  if (typeof item === 'string') {
    const parsed = parseIdentifier(item);
    return parsed.ok ? { ok: true, readings: { primary: parsed.readings.primary, fallbacks: [] } } : parsed;
  }
  if (item.type === 'brandId') {
    const id = item.value.trim();
    return isBrandId(id) ? { ok: true, readings: { primary: { kind: 'brandId', id }, fallbacks: [] } } : { ok: false, message: 'Invalid brand ID.' };
  }
  return parseTypedIdentifier(item.type, item.value);
}

/** Answers a batch from the store alone: a batch never crawls while waiting, it queues (spec 4.3). */
export class BatchLookup {
  constructor(
    private readonly lookup: BrandLookup,
    private readonly scheduler: CrawlScheduler,
  ) {}

  async resolve(items: BatchItem[], options: BatchOptions): Promise<BatchOutcome[]> {
    const outcomes: BatchOutcome[] = new Array<BatchOutcome>(items.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < items.length) {
        const index = next++;
        outcomes[index] = await this.withBudget(items[index] as BatchItem, options);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_ITEMS, items.length) }, worker));
    return outcomes;
  }

  private async withBudget(item: BatchItem, options: BatchOptions): Promise<BatchOutcome> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<BatchOutcome>((resolve) => {
      timer = setTimeout(() => resolve({ status: 504, code: 'timeout' }), options.itemTimeoutMs);
    });
    try {
      return await Promise.race([this.resolveItem(item, options).catch((): BatchOutcome => ({ status: 500, message: 'The identifier could not be looked up; request again.' })), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async resolveItem(item: BatchItem, options: BatchOptions): Promise<BatchOutcome> {
    const parsed = parseBatchItem(item);
    if (!parsed.ok) return { status: 400, message: parsed.message };
    // cachedOnly: an unindexed ticker, ISIN or crypto symbol is not resolved (spec 4.3).
    const known = await this.lookup.state(parsed.readings, { resolve: !options.cachedOnly });
    if (known.state === 'held') {
      if (!this.lookup.visible(known.brand, options.allowNsfw)) return { status: 404, message: NOT_FOUND_MESSAGE };
      return { status: 200, brand: await this.lookup.attached(known.brand, known.resolution) };
    }
    if (known.state === 'removed') return { status: 404, message: NOT_FOUND_MESSAGE };
    if (options.cachedOnly) return { status: 204 };
    return this.queue(parsed.readings, known.resolution?.domain ?? null, options.owner ?? null, options.requestId);
  }

  /** Queues the crawl of the domain, or of the website a ticker, ISIN or crypto symbol resolved to. */
  private async queue(readings: Readings, resolved: string | null, owner: string | null, requestId: string | undefined): Promise<BatchOutcome> {
    const primary = readings.primary;
    const domain = primary.kind === 'domain' ? primary.domain : resolved;
    if (!domain) return { status: 404, message: primary.kind === 'brandId' ? NOT_FOUND_MESSAGE : UNMATCHED_MESSAGE };
    const failed = await this.lookup.recentFailure(domain);
    if (failed) return { status: 404, message: NOT_FOUND_MESSAGE, reason: failed };
    const scheduled = await this.scheduler.schedule(domain, owner, requestId);
    if (scheduled === 'full') return { status: 500, message: 'The crawl could not be queued right now; request again later.' };
    return { status: 202, code: 'crawl_queued' };
  }
}
