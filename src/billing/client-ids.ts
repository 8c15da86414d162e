/**
 * Operator administration of client IDs (`brandbase client-ids …`, issue 20): create, list, revoke, set the allowed
 * referrer hosts. A client ID is `cid_` + 24 random base32 characters: publishable (kept plain), never a secret.
 */
import { randomBytes } from 'node:crypto';
import { CLIENT_ID_PATTERN, isReferrerPattern, type ClientIdRecord } from '../domain/client-id-record.js';
import type { ClientIdProduct } from '../domain/client-ids.js';
import type { AccountStore, ClientIdStore } from './billing-store.js';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export function newClientId(): string {
  const bytes = randomBytes(24);
  let out = 'cid_';
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}

export class ClientIdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientIdError';
  }
}

/** Lower-cased, checked referrer host patterns; throws ClientIdError naming the first bad one. */
export function parseReferrers(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of values.flatMap((v) => v.split(','))) {
    const value = raw.trim().toLowerCase();
    if (value === '') continue;
    if (!isReferrerPattern(value)) throw new ClientIdError(`not a host or *.host pattern: ${raw.trim()}`);
    if (!out.includes(value)) out.push(value);
  }
  return out;
}

export class ClientIds {
  constructor(private readonly store: ClientIdStore & Pick<AccountStore, 'getOrganization'>) {}

  async create(orgId: string, opts: { name?: string; referrers?: readonly string[]; requireReferrer?: boolean; now?: Date } = {}): Promise<ClientIdRecord> {
    if ((await this.store.getOrganization(orgId)) === null) throw new ClientIdError(`unknown organization: ${orgId}`);
    const record: ClientIdRecord = {
      id: newClientId(),
      orgId,
      name: opts.name ?? 'default',
      allowedReferrers: parseReferrers(opts.referrers ?? []),
      requireReferrer: opts.requireReferrer ?? false,
      createdAt: opts.now ?? new Date(),
      revokedAt: null,
    };
    await this.store.createClientId(record);
    return record;
  }

  list(orgId: string): Promise<ClientIdRecord[]> {
    return this.store.listClientIds(orgId);
  }

  /** Requests the organization's client IDs made for `product` in the billing period `period` (recorded ones). */
  requests(orgId: string, product: ClientIdProduct, period: string): Promise<number> {
    return this.store.clientIdUsage(orgId, product, period);
  }

  async revoke(id: string, now = new Date()): Promise<ClientIdRecord> {
    if (!CLIENT_ID_PATTERN.test(id) || !(await this.store.revokeClientId(id, now))) throw new ClientIdError(`unknown client ID: ${id}`);
    return (await this.store.getClientId(id)) as ClientIdRecord;
  }

  async setReferrers(id: string, referrers: readonly string[], requireReferrer: boolean): Promise<ClientIdRecord> {
    const parsed = parseReferrers(referrers);
    if (!CLIENT_ID_PATTERN.test(id) || !(await this.store.setClientIdReferrers(id, parsed, requireReferrer))) throw new ClientIdError(`unknown client ID: ${id}`);
    return (await this.store.getClientId(id)) as ClientIdRecord;
  }
}

/** The JSON shape of a client ID in CLI output (`clientIds` listings). */
export function clientIdJson(record: ClientIdRecord) {
  return {
    id: record.id,
    orgId: record.orgId,
    name: record.name,
    allowedReferrers: record.allowedReferrers,
    requireReferrer: record.requireReferrer,
    createdAt: record.createdAt.toISOString(),
    revokedAt: record.revokedAt?.toISOString() ?? null,
  };
}
