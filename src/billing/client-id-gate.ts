/**
 * ClientIdGate (domain/client-ids.ts) for search and the logo CDN (issue 20, docs/search.md, ADR 0033). In order:
 * an API key sent (header, or as `c`) → 403 `api_key_not_client_id`; no `c` → 401 `client_id_missing`; unknown →
 * 401 `invalid_client_id`; revoked → 403 `client_id_revoked`; referrer host not allowed → 403 `referrer_not_allowed`
 * (no Referer/Origin passes unless the ID requires one: 403 `referrer_required`); throughput per client ID and per
 * (client ID, address) → 429 `rate_limited` with Retry-After; past allowance × hard factor → 429 `quota_exceeded`.
 * Within that ceiling the request passes and is counted; past the allowance it is marked `overAllowance`.
 * Client IDs are cached `cacheMs` (revocation takes effect within it); nothing here writes to the store per request.
 */
import { looksLikeApiKey } from './api-key-secret.js';
import { CLIENT_ID_PATTERN, referrerAllowed, type ClientIdRecord } from '../domain/client-id-record.js';
import type { ClientIdGate, ClientIdGrant, ClientIdProduct, ClientIdRefusal, ClientIdRequest } from '../domain/client-ids.js';
import { ERROR_CODES, type ErrorCode } from '../domain/errors.js';
import type { Plan } from '../domain/accounts.js';
import type { AccountStore, ClientIdStore } from './billing-store.js';
import { billingPeriod } from './billing-period.js';
import type { ClientIdUsage } from './client-id-usage.js';
import { WindowLimiter } from './window-limiter.js';

export interface ProductPolicy {
  perClientId: number;
  perIp: number;
  allowance: Readonly<Record<Plan, number>>;
}

export interface ClientIdGateOptions {
  products: Readonly<Record<ClientIdProduct, ProductPolicy>>;
  windowMs: number;
  hardLimitFactor: number;
  /** Each process enforces ceil(limit / apiProcesses) of the throughput limits. */
  apiProcesses: number;
  cacheMs: number;
  /** Epoch milliseconds; injected by tests. */
  clock?: () => number;
}

interface Known {
  record: ClientIdRecord | null;
  plan: Plan;
  at: number;
}

const RATE_MESSAGE: Record<ClientIdProduct, string> = {
  search: 'Too many search requests for this client ID or address; retry after the number of seconds in Retry-After.',
  logo: 'Too many logo requests for this client ID or address; retry after the number of seconds in Retry-After.',
};

function refuse(code: ErrorCode, message?: string, retryAfterSeconds?: number): ClientIdRefusal {
  const def = ERROR_CODES[code];
  return { ok: false, status: def.status as ClientIdRefusal['status'], code, message: message ?? def.message, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}

export class ClientIdGateService implements ClientIdGate {
  readonly #known = new Map<string, Known>();
  readonly #limiter: WindowLimiter;
  readonly #clock: () => number;

  constructor(
    private readonly store: ClientIdStore & Pick<AccountStore, 'getOrganization'>,
    private readonly usage: ClientIdUsage,
    private readonly options: ClientIdGateOptions,
  ) {
    this.#clock = options.clock ?? Date.now;
    this.#limiter = new WindowLimiter(options.windowMs, this.#clock);
  }

  async admit(request: ClientIdRequest): Promise<ClientIdGrant | ClientIdRefusal> {
    const id = request.clientId?.trim() ?? '';
    if (request.apiKeySent || looksLikeApiKey(id) || id.startsWith('bb_')) return refuse('api_key_not_client_id');
    if (id === '') return refuse('client_id_missing');
    if (!CLIENT_ID_PATTERN.test(id)) return refuse('invalid_client_id');
    const known = await this.#lookup(id);
    if (known.record === null) return refuse('invalid_client_id');
    const record = known.record;
    if (record.revokedAt !== null) return refuse('client_id_revoked');
    if (request.referrerHost === undefined ? record.requireReferrer : !referrerAllowed(record.allowedReferrers, request.referrerHost)) {
      return refuse(request.referrerHost === undefined ? 'referrer_required' : 'referrer_not_allowed');
    }
    const policy = this.options.products[request.product];
    const limited = this.#limiter.take(this.#buckets(id, request.ip, request.product, policy));
    if (!limited.ok) return refuse('rate_limited', RATE_MESSAGE[request.product], limited.retryAfterSeconds);
    const allowance = policy.allowance[known.plan];
    const used = await this.usage.used(record.orgId, request.product);
    if (used + 1 > allowance * this.options.hardLimitFactor) {
      return refuse('quota_exceeded', `The organization's monthly ${request.product} volume is far past its plan's allowance (${allowance}); it resets at the start of next month.`, this.#secondsToNextPeriod());
    }
    this.usage.count(id, record.orgId, request.product);
    return { ok: true, clientId: id, orgId: record.orgId, overAllowance: used + 1 > allowance };
  }

  release(grant: ClientIdGrant, product: ClientIdProduct): void {
    this.usage.count(grant.clientId, grant.orgId, product, -1);
  }

  /** Forgets cached client IDs (after the CLI changed one in this process, and in tests). */
  forget(id?: string): void {
    if (id === undefined) this.#known.clear();
    else this.#known.delete(id);
  }

  #buckets(id: string, ip: string, product: ClientIdProduct, policy: ProductPolicy) {
    const share = (limit: number) => Math.max(1, Math.ceil(limit / this.options.apiProcesses));
    return [
      { key: `${product}|${id}`, limit: share(policy.perClientId) },
      { key: `${product}|${id}|${ip}`, limit: share(policy.perIp) },
    ];
  }

  async #lookup(id: string): Promise<Known> {
    const now = this.#clock();
    const cached = this.#known.get(id);
    if (cached && now - cached.at < this.options.cacheMs) return cached;
    const record = await this.store.getClientId(id);
    const org = record ? await this.store.getOrganization(record.orgId) : null;
    const known: Known = { record: org ? record : null, plan: org?.plan ?? 'free', at: now };
    // Unknown IDs are cached too (bounded), so a flood of made-up IDs costs one read each per cacheMs at most.
    if (this.#known.size >= 100_000) this.#known.clear();
    this.#known.set(id, known);
    return known;
  }

  #secondsToNextPeriod(): number {
    const now = this.#clock();
    return Math.max(1, Math.ceil((billingPeriod(new Date(now)).end.getTime() - now) / 1000));
  }
}
