/**
 * The byte-bounded LRU every in-memory cache uses (src/platform/byte-lru.ts, ADR 0042), and the caches built on it:
 * eviction by bytes, oldest (least recently used) first; a value larger than the budget is not cached; the brand
 * cache's domain and identifier indexes follow its evictions; the key cache stays within its budget.
 */
import { describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/assets/asset-urls.js';
import { Authenticator } from '../../src/billing/authenticator.js';
import { BrandCache } from '../../src/brands/brand-cache.js';
import { IdentifierCache } from '../../src/domain/identifier-cache.js';
import { parseIdentifier } from '../../src/domain/identifiers.js';
import { ByteLru, ENTRY_OVERHEAD_BYTES } from '../../src/platform/byte-lru.js';
import type { StoredBrand } from '../../src/brands/brand-store.js';
import { Accounts } from '../../src/billing/accounts.js';
import { tempSqlite } from '../store/temp-database.js';
import { sampleBrand } from '../store/sample-brand.js';

/** A cache whose entries cost their string length (plus the fixed overhead per entry). */
function lru(maxBytes: number, evicted: string[] = []): ByteLru<string, string> {
  return new ByteLru<string, string>(maxBytes, (value) => value.length, (key) => evicted.push(key));
}

const E = ENTRY_OVERHEAD_BYTES;

describe('ByteLru', () => {
  it('evicts by bytes, least recently used first', () => {
    const evicted: string[] = [];
    const cache = lru(3 * (100 + E), evicted);
    cache.set('a', 'x'.repeat(100));
    cache.set('b', 'x'.repeat(100));
    cache.set('c', 'x'.repeat(100));
    expect(cache.bytes).toBe(3 * (100 + E));
    // Reading a makes b the oldest.
    expect(cache.get('a')).toHaveLength(100);
    cache.set('d', 'x'.repeat(100));
    expect(evicted).toEqual(['b']);
    expect([...cache.entries()].map(([k]) => k)).toEqual(['c', 'a', 'd']);
    // One large value pushes out as many old ones as it needs, oldest first.
    cache.set('e', 'x'.repeat(200 + E));
    expect(evicted).toEqual(['b', 'c', 'a']);
    expect([...cache.entries()].map(([k]) => k)).toEqual(['d', 'e']);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
  });

  it('counts bytes, not entries: many small values fit where few large ones do', () => {
    const cache = lru(10_000);
    for (let i = 0; i < 100; i++) cache.set(`small${i}`, 'x'.repeat(10));
    expect(cache.size).toBe(100);
    for (let i = 0; i < 100; i++) cache.set(`large${i}`, 'x'.repeat(1000));
    expect(cache.size).toBe(Math.floor(10_000 / (1000 + E)));
    expect(cache.bytes).toBeLessThanOrEqual(10_000);
  });

  it('does not cache a value larger than the budget, and drops the older value under its key', () => {
    const evicted: string[] = [];
    const cache = lru(500, evicted);
    cache.set('a', 'small');
    expect(cache.set('b', 'x'.repeat(500))).toBe(false);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe('small');
    expect(evicted).toEqual([]);
    expect(cache.set('a', 'x'.repeat(1000))).toBe(false);
    expect(cache.has('a')).toBe(false);
    expect(cache.bytes).toBe(0);
  });

  it('replacing a key re-counts its bytes; delete and clear release them; a budget of 0 keeps nothing', () => {
    const cache = lru(1000);
    cache.set('a', 'x'.repeat(100));
    cache.set('a', 'x'.repeat(300));
    expect(cache.bytes).toBe(300 + E);
    expect(cache.delete('a')).toBe(true);
    expect(cache.bytes).toBe(0);
    cache.set('b', 'y');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    const none = lru(0);
    expect(none.set('a', '')).toBe(false);
    expect(none.size).toBe(0);
    expect(() => lru(-1)).toThrow(RangeError);
  });
});

function stored(domain: string): StoredBrand {
  const now = new Date();
  return { brand: sampleBrand(domain), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now };
}

describe('caches bounded by bytes', () => {
  it('the brand cache keeps its estimated bytes within the budget, evicts the least recently used brand with its domain and ticker entries', () => {
    const urls = new AssetUrls('http://brandbase.test/assets/');
    const one = new BrandCache(60_000, urls);
    one.put(stored('probe.com'), ['probe.com']);
    const entry = one.usage.bytes;
    // The estimate counts the JSON string, its bytes and the parsed record: several times the JSON length.
    expect(entry).toBeGreaterThan(5 * (one.getByDomain('probe.com')?.json.length ?? Infinity));
    const cache = new BrandCache(60_000, urls, Math.floor(entry * 3.5));
    cache.put(stored('a.com'), ['a.com'], undefined, ['ticker:AAA']);
    cache.put(stored('b.com'), ['b.com']);
    cache.put(stored('c.com'), ['c.com']);
    expect(cache.getByDomain('a.com')).not.toBeNull();
    cache.put(stored('d.com'), ['d.com']);
    expect(cache.usage.entries).toBe(3);
    expect(cache.usage.bytes).toBeLessThanOrEqual(cache.usage.maxBytes);
    expect(cache.getByDomain('b.com')).toBeNull();
    expect(cache.getByDomain('a.com')).not.toBeNull();
    expect(cache.getByKey('ticker:AAA')).not.toBeNull();
    // a was read after c was put, so c is the oldest now.
    cache.put(stored('e.com'), ['e.com']);
    expect(cache.getByDomain('c.com')).toBeNull();
    cache.getByDomain('d.com');
    cache.getByDomain('e.com');
    cache.put(stored('f.com'), ['f.com']);
    expect(cache.getByDomain('a.com')).toBeNull();
    expect(cache.getByKey('ticker:AAA')).toBeNull();
    // The indexes hold nothing for evicted brands.
    const indexes = cache as unknown as { idByDomain: Map<string, string>; idByKey: Map<string, string> };
    expect([...indexes.idByDomain.keys()].sort()).toEqual(['d.com', 'e.com', 'f.com']);
    expect(indexes.idByKey.size).toBe(0);
  });

  it('a brand cache budget of 0 answers every put but keeps nothing', () => {
    const cache = new BrandCache(60_000, new AssetUrls('http://brandbase.test/assets/'), 0);
    const entry = cache.put(stored('acme.com'), ['acme.com']);
    expect(JSON.parse(entry.json)).toMatchObject({ domain: 'acme.com' });
    expect(cache.getByDomain('acme.com')).toBeNull();
    expect(cache.usage).toMatchObject({ bytes: 0, entries: 0 });
  });

  it('the identifier cache answers like parseIdentifier and holds only what its budget allows', () => {
    const cache = new IdentifierCache(10_000);
    for (let i = 0; i < 500; i++) expect(cache.parse(`brand${i}.com`)).toEqual(parseIdentifier(`brand${i}.com`));
    const entries = (cache as unknown as { entries: Map<string, unknown> }).entries;
    expect(entries.size).toBeGreaterThan(10);
    expect(entries.size).toBeLessThan(500);
    expect(entries.has('brand499.com')).toBe(true);
    expect(entries.has('brand0.com')).toBe(false);
  });

  it('the key cache keeps verified keys within its byte budget, least recently used out', async () => {
    const db = await tempSqlite();
    try {
      await db.migrate();
      const accounts = new Accounts(db.stores.billing, { freeQuota: 100, paidQuota: 1000 });
      const org = await accounts.createOrganization({ name: 'Org', plan: 'paid' });
      const keys = [];
      for (let i = 0; i < 30; i++) keys.push(await accounts.createApiKey({ orgId: org.id }));
      const auth = new Authenticator(db.stores.billing, 60_000, Date.now, 8000);
      for (const key of keys) await auth.authenticate(key.key);
      const cache = (auth as unknown as { cache: ByteLru<string, unknown> }).cache;
      expect(cache.bytes).toBeLessThanOrEqual(8000);
      expect(cache.size).toBeGreaterThan(1);
      expect(cache.size).toBeLessThan(30);
      // Revoked in the store behind the cache's back: the newest key is still answered from memory, the oldest
      // (evicted) is read again and refused.
      for (const key of [keys[0], keys[29]]) await db.stores.billing.revokeApiKey(key!.id, new Date());
      await expect(auth.authenticate(keys[29]!.key)).resolves.toMatchObject({ key: { id: keys[29]!.id } });
      await expect(auth.authenticate(keys[0]!.key)).rejects.toMatchObject({ code: 'invalid_api_key' });
    } finally {
      await db.cleanup();
    }
  });
});
