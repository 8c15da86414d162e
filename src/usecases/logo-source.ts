import type { Brand } from '../domain/brand.js';
import type { Readings } from '../domain/identifiers.js';
import type { UseCaseDeps } from './use-case-deps.js';

/**
 * What the logo CDN draws from (issue 20 item 3): the held brand's record (asset keys, never URLs), or, for a brand
 * not held, whether a crawl was queued for it. Free, like a HEAD prefetch (spec 4.2): nothing is charged and the
 * answer never waits for a crawl, so an `<img>` gets its fallback at once and the real logo once it is crawled.
 */
export type LogoSource =
  | { kind: 'held'; brand: Brand }
  /** Not held; a crawl of `domain` is queued (now or moments ago). */
  | { kind: 'queued'; domain: string }
  /** Not held and nothing queued: not a domain, removed, recently failed, or the queue is full. */
  | { kind: 'unknown'; domain: string | null };

export interface LogoSourceOptions {
  /**
   * The organization whose client ID asked; a crawl is queued on its client-ID share (`<orgId>:client`, ADR 0050),
   * never its API share; null for the operator's own.
   */
  owner: string | null;
  /** The CDN request that queued a crawl, named in the worker's log lines as `reqId` (ADR 0039). */
  requestId?: string;
  /**
   * The answer given for a domain not held a moment ago: the CDN remembers it briefly, so a page full of `<img>`
   * tags for an uncrawled brand costs one enqueue, not one per request.
   */
  recent: { get(domain: string): LogoSource | undefined; set(domain: string, source: LogoSource): void };
}

export async function logoSource(deps: UseCaseDeps, readings: Readings, options: LogoSourceOptions): Promise<LogoSource> {
  // Tickers, ISINs and crypto symbols resolve through the reference data (reads only), as on HEAD.
  const known = await deps.lookup.state(readings, { resolve: true });
  if (known.state === 'held') return { kind: 'held', brand: known.brand.stored.brand };
  const primary = readings.primary;
  const domain = primary.kind === 'domain' ? primary.domain : (known.resolution?.domain ?? null);
  // Only a domain can have a crawl queued (spec 4.2 and section 3), and a removed brand stays removed.
  if (known.state === 'removed' || primary.kind !== 'domain' || primary.source === 'url' || !domain) return { kind: 'unknown', domain };
  const remembered = options.recent.get(domain);
  if (remembered) return remembered;
  const source = await queued(deps, domain, options.owner, options.requestId);
  options.recent.set(domain, source);
  return source;
}

async function queued(deps: UseCaseDeps, domain: string, owner: string | null, requestId: string | undefined): Promise<LogoSource> {
  // The failure memory is read only here, where the brand is not held (one primary-key read).
  if ((await deps.lookup.recentFailure(domain)) !== null) return { kind: 'unknown', domain };
  // Through a client ID, which anyone who reads a web page can use: its own share, never the API's (ADR 0050).
  return (await deps.scheduler.schedule(domain, owner, requestId, 'client')) === 'queued' ? { kind: 'queued', domain } : { kind: 'unknown', domain };
}
