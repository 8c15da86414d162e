/**
 * The Store contract: every backend runs this same suite against a real database (no mocks).
 * One database per suite run; each test uses its own random IDs so tests never see each other's rows.
 */
import type { BillingStore } from '../../src/billing/billing-store.js';
import { joinStores, type ProductStores } from '../../src/main/product-stores.js';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { ApiKeyRecord, CreditGrant, Organization, UsageSource } from '../../src/domain/accounts.js';
import type { IdentifierRef, Store, StoredBrand } from '../../src/store/store.js';
import { sampleBrand } from './sample-brand.js';

const T0 = new Date('2024-05-06T07:08:09.123Z');

function at(offsetMs: number): Date {
  return new Date(T0.getTime() + offsetMs);
}

function uniqueDomain(): string {
  return `acme-${randomBytes(5).toString('hex')}.test`;
}

function stored(domain: string, overrides: Partial<StoredBrand> = {}): StoredBrand {
  return { brand: sampleBrand(domain), status: 'indexed', crawledAt: at(1), createdAt: at(2), updatedAt: at(3), ...overrides };
}

function newOrg(overrides: Partial<Organization> = {}): Organization {
  return {
    id: newId('org'),
    name: 'Acme Inc',
    plan: 'free',
    quota: 500,
    prepaidCredits: 0,
    spendingLimitCents: null,
    billingContacts: [],
    rateLimitPerMinute: null,
    createdAt: at(7),
    ...overrides,
  };
}

function newKey(orgId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const secretHash = randomBytes(32).toString('hex');
  return { id: newId('key'), orgId, name: 'ci', secretHash, prefix: 'bb_live_ab12', createdAt: at(11), revokedAt: null, ...overrides };
}

export function storeContract(name: string, open: () => Promise<{ store: Store; stores: ProductStores; cleanup: () => Promise<void> }>): void {
  describe(`Store contract: ${name}`, () => {
    // The facade with billing's store (src/billing/store/), as one object: the account, usage and credit cases read both.
    let store: Store & BillingStore;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      const opened = await open();
      ({ cleanup } = opened);
      store = joinStores(opened.store, opened.stores.billing);
      await store.migrate();
    });
    afterAll(async () => {
      await cleanup();
    });

    describe('lifecycle', () => {
      it('migrate is idempotent and keeps data', async () => {
        const org = await store.createOrganization(newOrg());
        await store.migrate();
        await store.migrate();
        expect(await store.getOrganization(org.id)).toEqual(org);
      });

      it('answers ping', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });

    describe('brands', () => {
      it('round-trips a realistic record and its dates to the millisecond', async () => {
        const record = stored(uniqueDomain());
        await store.saveBrand(record, []);
        const got = await store.getBrand(record.brand.id);
        expect(got).toEqual(record);
        expect(got?.crawledAt).toBeInstanceOf(Date);
        expect(got?.crawledAt.getTime()).toBe(at(1).getTime());
        expect(got?.brand.images[0]?.pictureMetadata?.score).toBe(0.87);
      });

      it('does not store the per-request palette', async () => {
        const record = stored(uniqueDomain());
        await store.saveBrand({ ...record, brand: { ...record.brand, palette: { colors: ['#fff'] } } }, []);
        const got = await store.getBrand(record.brand.id);
        expect(got?.brand).not.toHaveProperty('palette');
        expect(got).toEqual(record);
      });

      it('returns null for an unknown brand or identifier', async () => {
        expect(await store.getBrand('brd_aaaaaaaaaaaaaaaaaaaa')).toBeNull();
        expect(await store.findBrandByIdentifier({ kind: 'domain', value: uniqueDomain() })).toBeNull();
      });

      it('finds a brand by each identifier kind', async () => {
        const domain = uniqueDomain();
        const tag = randomBytes(3).toString('hex').toUpperCase();
        const refs: IdentifierRef[] = [
          { kind: 'domain', value: domain },
          { kind: 'ticker', value: `T${tag}` },
          { kind: 'isin', value: `US${tag}000001` },
          { kind: 'crypto', value: `C${tag}` },
        ];
        const record = stored(domain);
        await store.saveBrand(record, refs);
        for (const ref of refs) {
          expect((await store.findBrandByIdentifier(ref))?.brand.id, ref.kind).toBe(record.brand.id);
        }
        expect(await store.findBrandByIdentifier({ kind: 'crypto', value: `T${tag}` })).toBeNull();
        expect(await store.listIdentifiers(record.brand.id)).toEqual([...refs].sort((a, b) => a.kind.localeCompare(b.kind)));
      });

      it('moves an identifier to the brand saved last', async () => {
        const a = stored(uniqueDomain());
        const b = stored(uniqueDomain());
        const ticker: IdentifierRef = { kind: 'ticker', value: `M${randomBytes(3).toString('hex').toUpperCase()}` };
        await store.saveBrand(a, [{ kind: 'domain', value: a.brand.domain }, ticker]);
        await store.saveBrand(b, [{ kind: 'domain', value: b.brand.domain }, ticker, ticker]);
        expect((await store.findBrandByIdentifier(ticker))?.brand.id).toBe(b.brand.id);
        expect(await store.listIdentifiers(a.brand.id)).toEqual([{ kind: 'domain', value: a.brand.domain }]);
        expect(await store.listIdentifiers(b.brand.id)).toEqual([{ kind: 'domain', value: b.brand.domain }, ticker]);
      });

      it('replaces the record on save but keeps the first createdAt', async () => {
        const domain = uniqueDomain();
        const first = stored(domain);
        await store.saveBrand(first, [{ kind: 'domain', value: domain }]);
        const second = stored(domain, { brand: sampleBrand(domain, { name: 'Acme 2', colors: [] }), crawledAt: at(100), createdAt: at(100), updatedAt: at(101) });
        await store.saveBrand(second, [{ kind: 'domain', value: domain }]);
        expect(await store.getBrand(first.brand.id)).toEqual({ ...second, createdAt: first.createdAt });
      });

      it('saves all or nothing', async () => {
        const record = stored(uniqueDomain());
        const broken = { kind: 'ticker', value: null } as unknown as IdentifierRef;
        await expect(store.saveBrand(record, [{ kind: 'domain', value: record.brand.domain }, broken])).rejects.toThrow();
        expect(await store.getBrand(record.brand.id)).toBeNull();
        expect(await store.findBrandByIdentifier({ kind: 'domain', value: record.brand.domain })).toBeNull();
      });

      it('changes the status and updatedAt', async () => {
        const record = stored(uniqueDomain());
        await store.saveBrand(record, [{ kind: 'domain', value: record.brand.domain }]);
        expect(await store.setBrandStatus(record.brand.id, 'removed', at(500))).toBe(true);
        const got = await store.findBrandByIdentifier({ kind: 'domain', value: record.brand.domain });
        expect(got).toEqual({ ...record, status: 'removed', updatedAt: at(500) });
        expect(await store.setBrandStatus('brd_aaaaaaaaaaaaaaaaaaab', 'removed', at(500))).toBe(false);
      });
    });

    describe('brand write log', () => {
      it('numbers saves and status changes 1, 2, 3, ... with the brand and the domains each save attached', async () => {
        const before = await store.latestBrandWrite();
        const a = stored(uniqueDomain());
        const b = stored(uniqueDomain());
        const alias = uniqueDomain();
        const startedAt = Date.now();
        await store.saveBrand(a, [
          { kind: 'domain', value: a.brand.domain },
          { kind: 'domain', value: alias },
          { kind: 'ticker', value: 'ACME' },
        ]);
        await store.setBrandStatus(a.brand.id, 'removed', at(500));
        await store.saveBrand(b, []);
        expect(await store.latestBrandWrite()).toBe(before + 3);
        const writes = await store.brandWritesAfter(before, 10);
        expect(writes.map((w) => ({ seq: w.seq, brandId: w.brandId, domains: w.domains }))).toEqual([
          { seq: before + 1, brandId: a.brand.id, domains: [a.brand.domain, alias] },
          { seq: before + 2, brandId: a.brand.id, domains: [] },
          { seq: before + 3, brandId: b.brand.id, domains: [b.brand.domain] },
        ]);
        for (const write of writes) {
          expect(write.at).toBeInstanceOf(Date);
          expect(write.at.getTime()).toBeGreaterThanOrEqual(startedAt);
        }
      });

      it('pages with after and limit, oldest first', async () => {
        const before = await store.latestBrandWrite();
        for (let i = 0; i < 5; i++) await store.saveBrand(stored(uniqueDomain()), []);
        expect((await store.brandWritesAfter(before, 2)).map((w) => w.seq)).toEqual([before + 1, before + 2]);
        expect((await store.brandWritesAfter(before + 2, 10)).map((w) => w.seq)).toEqual([before + 3, before + 4, before + 5]);
        expect(await store.brandWritesAfter(before + 5, 10)).toEqual([]);
        await expect(store.brandWritesAfter(before, 0)).rejects.toThrow(RangeError);
      });

      it('writes nothing for a failed save or a status change of an unknown brand', async () => {
        const before = await store.latestBrandWrite();
        const record = stored(uniqueDomain());
        const broken = { kind: 'ticker', value: null } as unknown as IdentifierRef;
        await expect(store.saveBrand(record, [broken])).rejects.toThrow();
        expect(await store.setBrandStatus('brd_aaaaaaaaaaaaaaaaaaac', 'removed', at(1))).toBe(false);
        expect(await store.latestBrandWrite()).toBe(before);
        expect(await store.brandWritesAfter(before, 10)).toEqual([]);
      });

      it('numbers concurrent saves without gaps or repeats', async () => {
        const before = await store.latestBrandWrite();
        await Promise.all(Array.from({ length: 20 }, () => store.saveBrand(stored(uniqueDomain()), [])));
        const seqs = (await store.brandWritesAfter(before, 100)).map((w) => w.seq);
        expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => before + 1 + i));
      });
    });

    describe('crawl failure memory', () => {
      it('reads nothing for a domain that never failed', async () => {
        expect(await store.getCrawlFailure(uniqueDomain())).toBeNull();
      });

      it('records a failure with one strike and reads it back by domain, to the millisecond', async () => {
        const domain = uniqueDomain();
        const written = await store.recordCrawlFailure({ domain, reason: 'unreachable', message: 'connection refused', failedAt: at(10) });
        const expected = { domain, reason: 'unreachable', message: 'connection refused', strikes: 1, failedAt: at(10) };
        expect(written).toEqual(expected);
        expect(await store.getCrawlFailure(domain)).toEqual(expected);
        expect((await store.getCrawlFailure(domain))?.failedAt).toBeInstanceOf(Date);
      });

      it('a failure in a row adds a strike and replaces reason, message and time', async () => {
        const domain = uniqueDomain();
        await store.recordCrawlFailure({ domain, reason: 'timeout', message: 'slow', failedAt: at(10) });
        const second = await store.recordCrawlFailure({ domain, reason: 'dns_failure', message: 'ENOTFOUND', failedAt: at(20) });
        expect(second).toEqual({ domain, reason: 'dns_failure', message: 'ENOTFOUND', strikes: 2, failedAt: at(20) });
        expect(await store.getCrawlFailure(domain)).toEqual(second);
      });

      it('failures recorded at once all count (one upsert each, no lost strike)', async () => {
        const domain = uniqueDomain();
        await Promise.all(Array.from({ length: 8 }, (_, i) => store.recordCrawlFailure({ domain, reason: 'timeout', message: `try ${i}`, failedAt: at(i) })));
        expect((await store.getCrawlFailure(domain))?.strikes).toBe(8);
      });

      it('clears the failures of the given domains only, and a cleared domain starts again at one strike', async () => {
        const [a, b, c] = [uniqueDomain(), uniqueDomain(), uniqueDomain()];
        for (const domain of [a, b, c]) await store.recordCrawlFailure({ domain, reason: 'not_html', message: 'json', failedAt: at(10) });
        await store.clearCrawlFailures([a, b]);
        await store.clearCrawlFailures([]);
        expect(await store.getCrawlFailure(a)).toBeNull();
        expect(await store.getCrawlFailure(b)).toBeNull();
        expect((await store.getCrawlFailure(c))?.reason).toBe('not_html');
        expect((await store.recordCrawlFailure({ domain: a, reason: 'timeout', message: 'again', failedAt: at(30) })).strikes).toBe(1);
      });

      it('prunes failures older than a time and keeps the newer ones', async () => {
        const [old, fresh] = [uniqueDomain(), uniqueDomain()];
        await store.recordCrawlFailure({ domain: old, reason: 'timeout', message: 'old', failedAt: at(-3_600_000) });
        await store.recordCrawlFailure({ domain: fresh, reason: 'timeout', message: 'fresh', failedAt: at(0) });
        expect(await store.pruneCrawlFailures(at(-1))).toBeGreaterThanOrEqual(1);
        expect(await store.getCrawlFailure(old)).toBeNull();
        expect(await store.getCrawlFailure(fresh)).not.toBeNull();
      });

      it('keeps a long message to a bounded length', async () => {
        const domain = uniqueDomain();
        await store.recordCrawlFailure({ domain, reason: 'http_error', message: 'x'.repeat(10_000), failedAt: at(0) });
        expect((await store.getCrawlFailure(domain))?.message.length).toBeLessThanOrEqual(1000);
      });
    });

    describe('organizations', () => {
      it('creates, gets, lists and updates', async () => {
        const org = newOrg();
        expect(await store.createOrganization(org)).toEqual(org);
        expect(await store.getOrganization(org.id)).toEqual(org);
        expect(await store.listOrganizations()).toContainEqual(org);
        expect(await store.updateOrganization(org.id, { name: 'Acme Corp' })).toEqual({ ...org, name: 'Acme Corp' });
        const updated = await store.updateOrganization(org.id, { plan: 'paid', quota: 9_000_000_000 });
        expect(updated).toEqual({ ...org, name: 'Acme Corp', plan: 'paid', quota: 9_000_000_000 });
        expect(await store.updateOrganization(org.id, {})).toEqual(updated);
        expect(await store.getOrganization(org.id)).toEqual(updated);
      });

      it('answers null for an unknown organization', async () => {
        expect(await store.getOrganization('org_missing')).toBeNull();
        expect(await store.updateOrganization('org_missing', { name: 'x' })).toBeNull();
      });

      it('lists organizations oldest first', async () => {
        const late = await store.createOrganization(newOrg({ createdAt: at(60_000) }));
        const early = await store.createOrganization(newOrg({ createdAt: at(-60_000) }));
        const ids = (await store.listOrganizations()).map((o) => o.id);
        expect(ids.indexOf(early.id)).toBeLessThan(ids.indexOf(late.id));
      });

      it('round-trips and updates the billing settings', async () => {
        const org = newOrg({ plan: 'paid', spendingLimitCents: 2_500, billingContacts: ['billing@acme.test', 'cfo@acme.test'], rateLimitPerMinute: 120 });
        expect(await store.createOrganization(org)).toEqual(org);
        expect(await store.getOrganization(org.id)).toEqual(org);
        const updated = await store.updateOrganization(org.id, { spendingLimitCents: 0, billingContacts: ['ops@acme.test'], rateLimitPerMinute: null });
        expect(updated).toEqual({ ...org, spendingLimitCents: 0, billingContacts: ['ops@acme.test'], rateLimitPerMinute: null });
        expect(await store.updateOrganization(org.id, { spendingLimitCents: null, billingContacts: [] })).toEqual({
          ...org,
          spendingLimitCents: null,
          billingContacts: [],
          rateLimitPerMinute: null,
        });
        await expect(store.updateOrganization(org.id, { spendingLimitCents: 12.5 })).rejects.toThrow(RangeError);
      });

      it('rejects a fractional quota', async () => {
        await expect(store.createOrganization(newOrg({ quota: 1.5 }))).rejects.toThrow(RangeError);
        const org = await store.createOrganization(newOrg());
        await expect(store.updateOrganization(org.id, { quota: 0.1 })).rejects.toThrow(RangeError);
      });
    });

    describe('API keys', () => {
      it('creates, gets and finds by secret hash', async () => {
        const org = await store.createOrganization(newOrg());
        const key = newKey(org.id);
        await store.createApiKey(key);
        expect(await store.getApiKey(key.id)).toEqual(key);
        expect(await store.findApiKeyBySecretHash(key.secretHash)).toEqual(key);
        expect(await store.findApiKeyBySecretHash('0'.repeat(64))).toBeNull();
        expect(await store.getApiKey('key_missing')).toBeNull();
      });

      it('refuses a second key with the same secret hash', async () => {
        const org = await store.createOrganization(newOrg());
        const key = newKey(org.id);
        await store.createApiKey(key);
        await expect(store.createApiKey(newKey(org.id, { secretHash: key.secretHash }))).rejects.toThrow();
      });

      it('revokes once: a second revocation keeps the first time', async () => {
        const org = await store.createOrganization(newOrg());
        const key = newKey(org.id);
        await store.createApiKey(key);
        expect(await store.revokeApiKey(key.id, at(1_000))).toBe(true);
        expect(await store.revokeApiKey(key.id, at(2_000))).toBe(true);
        expect((await store.getApiKey(key.id))?.revokedAt).toEqual(at(1_000));
        expect((await store.findApiKeyBySecretHash(key.secretHash))?.revokedAt).toEqual(at(1_000));
        expect(await store.revokeApiKey('key_missing', at(1_000))).toBe(false);
      });

      it("lists one organization's keys, oldest first", async () => {
        const org = await store.createOrganization(newOrg());
        const other = await store.createOrganization(newOrg());
        const second = newKey(org.id, { createdAt: at(20) });
        const first = newKey(org.id, { createdAt: at(10), revokedAt: at(15) });
        await store.createApiKey(second);
        await store.createApiKey(first);
        await store.createApiKey(newKey(other.id));
        expect(await store.listApiKeys(org.id)).toEqual([first, second]);
        expect(await store.listApiKeys('org_missing')).toEqual([]);
      });
    });

    describe('usage ledger', () => {
      it('sums credits over [from, to) exactly', async () => {
        const org = await store.createOrganization(newOrg());
        const other = await store.createOrganization(newOrg());
        const key = newKey(org.id);
        await store.createApiKey(key);
        const from = at(10_000);
        const to = at(20_000);
        const entries = [
          { credits: 1, createdAt: at(9_999) },
          { credits: 10, createdAt: from },
          { credits: 100, createdAt: at(15_000) },
          { credits: 1_000, createdAt: at(19_999) },
          { credits: 10_000, createdAt: to },
        ];
        for (const e of entries) {
          await store.appendUsage([{ id: newId('use'), orgId: org.id, keyId: key.id, reason: 'brand.lookup', ...e }]);
        }
        await store.appendUsage([{ id: newId('use'), orgId: other.id, keyId: null, credits: 7, reason: 'brand.lookup', createdAt: at(15_000) }]);
        expect(await store.sumUsage(org.id, from, to)).toBe(1_110);
        expect(await store.sumUsage(org.id, at(0), at(30_000))).toBe(11_111);
        expect(await store.sumUsage(other.id, from, to)).toBe(7);
        expect(await store.sumUsage(org.id, to, at(20_001))).toBe(10_000);
        expect(await store.sumUsage(org.id, at(20_001), at(40_000))).toBe(0);
        expect(await store.sumUsage('org_missing', from, to)).toBe(0);
      });

      it('keeps every one of 200 concurrent appends', async () => {
        const org = await store.createOrganization(newOrg());
        await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            store.appendUsage([{ id: newId('use'), orgId: org.id, keyId: null, credits: i + 1, reason: 'brand.lookup', createdAt: at(i) }]),
          ),
        );
        expect(await store.sumUsage(org.id, at(0), at(200))).toBe((200 * 201) / 2);
      });

      it('rejects fractional credits', async () => {
        const org = await store.createOrganization(newOrg());
        const entry = { id: newId('use'), orgId: org.id, keyId: null, credits: 0.5, reason: 'brand.lookup', createdAt: at(0) };
        await expect(store.appendUsage([entry])).rejects.toThrow(RangeError);
        expect(await store.sumUsage(org.id, at(-1), at(1))).toBe(0);
      });

      it('writes a batch of 1200 entries in one call, and nothing of a batch that fails', async () => {
        const org = await store.createOrganization(newOrg());
        const good = Array.from({ length: 1200 }, (_, i) => ({ id: newId('use'), orgId: org.id, keyId: null, credits: 1, reason: 'brand.lookup', createdAt: at(i) }));
        await store.appendUsage(good);
        expect(await store.sumUsage(org.id, at(0), at(1200))).toBe(1200);
        const bad = [
          ...Array.from({ length: 600 }, (_, i) => ({ id: newId('use'), orgId: org.id, keyId: null, credits: 1, reason: 'brand.lookup', createdAt: at(5000 + i) })),
          { id: newId('use'), orgId: 'org_does_not_exist', keyId: null, credits: 1, reason: 'brand.lookup', createdAt: at(5000) },
        ];
        await expect(store.appendUsage(bad)).rejects.toThrow();
        expect(await store.sumUsage(org.id, at(5000), at(6000))).toBe(0);
      });
    });

    describe('usage sources, prepaid credits and usage notices', () => {
      const use = (orgId: string, credits: number, createdAt: Date, source?: UsageSource) => ({
        id: newId('use'),
        orgId,
        keyId: null,
        credits,
        reason: 'brand.lookup',
        createdAt,
        ...(source ? { source } : {}),
      });
      const grant = (orgId: string, credits: number, createdAt: Date, amountCents: number | null = null): CreditGrant => ({
        id: newId('use').replace('use_', 'crg_'),
        orgId,
        credits,
        amountCents,
        reason: 'purchase',
        createdAt,
      });

      it('sums each source over [from, to) and the prepaid balance over all time', async () => {
        const org = await store.createOrganization(newOrg());
        const other = await store.createOrganization(newOrg());
        const from = at(10_000);
        const to = at(20_000);
        await store.addCreditGrant(grant(org.id, 1_000, at(0), 5_000));
        await store.addCreditGrant(grant(org.id, 40, at(30_000)));
        await store.addCreditGrant(grant(other.id, 7, at(0)));
        await store.appendUsage([
          use(org.id, 3, at(9_999), 'prepaid'),
          use(org.id, 5, from),
          use(org.id, 11, at(15_000), 'quota'),
          use(org.id, 17, at(15_000), 'prepaid'),
          use(org.id, 23, at(19_999), 'overage'),
          use(org.id, 29, to, 'prepaid'),
          use(other.id, 2, at(15_000), 'prepaid'),
        ]);
        expect(await store.summarizeUsage(org.id, from, to)).toEqual({ quota: 16, prepaid: 17, overage: 23, prepaidBalance: 1_040 - 3 - 17 - 29 });
        expect(await store.sumUsage(org.id, from, to)).toBe(16 + 17 + 23);
        expect(await store.summarizeUsage(other.id, from, to)).toEqual({ quota: 0, prepaid: 2, overage: 0, prepaidBalance: 5 });
        expect(await store.summarizeUsage('org_missing', from, to)).toEqual({ quota: 0, prepaid: 0, overage: 0, prepaidBalance: 0 });
        expect((await store.getOrganization(org.id))?.prepaidCredits).toBe(991);
        expect((await store.listOrganizations()).find((o) => o.id === org.id)?.prepaidCredits).toBe(991);
        expect((await store.updateOrganization(org.id, { quota: 1 }))?.prepaidCredits).toBe(991);
      });

      it('lists credit grants oldest first and rejects fractional credits', async () => {
        const org = await store.createOrganization(newOrg());
        const late = grant(org.id, 20, at(50), 100);
        const early = grant(org.id, 500, at(10));
        await store.addCreditGrant(late);
        await store.addCreditGrant(early);
        expect(await store.listCreditGrants(org.id)).toEqual([early, late]);
        await expect(store.addCreditGrant(grant(org.id, 1.5, at(60)))).rejects.toThrow(RangeError);
        await expect(store.addCreditGrant(grant('org_missing', 5, at(60)))).rejects.toThrow();
        expect((await store.getOrganization(org.id))?.prepaidCredits).toBe(520);
      });

      it('lets exactly one of many concurrent claims of a usage notice win', async () => {
        const org = await store.createOrganization(newOrg());
        const notice = { orgId: org.id, period: '2024-05', threshold: 80, createdAt: at(0) };
        const claims = await Promise.all(Array.from({ length: 20 }, () => store.claimUsageNotice(notice)));
        expect(claims.filter(Boolean)).toHaveLength(1);
        expect(await store.claimUsageNotice(notice)).toBe(false);
        expect(await store.claimUsageNotice({ ...notice, threshold: 100 })).toBe(true);
        expect(await store.claimUsageNotice({ ...notice, period: '2024-06' })).toBe(true);
        await store.releaseUsageNotice(org.id, '2024-05', 80);
        expect(await store.claimUsageNotice(notice)).toBe(true);
        expect(await store.claimUsageNotice(notice)).toBe(false);
      });
    });
  });
}
