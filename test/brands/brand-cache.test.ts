/** BrandCache invalidation (ADR 0017): what the cache sync drops, and the fence that keeps an overtaken read out. */
import { describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/assets/asset-urls.js';
import { BrandCache } from '../../src/brands/brand-cache.js';
import type { StoredBrand } from '../../src/brands/brand-store.js';
import { sampleBrand } from '../store/sample-brand.js';

function stored(domain: string, name = 'Acme'): StoredBrand {
  const now = new Date();
  return { brand: sampleBrand(domain, { name }), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now };
}

function newCache(): BrandCache {
  return new BrandCache(60_000, new AssetUrls('http://brandbase.test/assets/'));
}

describe('BrandCache invalidation', () => {
  it('drops the invalidated brands and domains and keeps the others', () => {
    const cache = newCache();
    const acme = cache.put(stored('acme.com'), ['acme.com', 'acme.net']);
    const globex = cache.put(stored('globex.com'), ['globex.com']);
    cache.invalidate([acme.stored.brand.id], []);
    expect(cache.getById(acme.stored.brand.id)).toBeNull();
    expect(cache.getByDomain('acme.com')).toBeNull();
    expect(cache.getByDomain('acme.net')).toBeNull();
    expect(cache.getByDomain('globex.com')).toBe(globex);
  });

  it('drops a domain that moved to another brand although its old brand did not change', () => {
    const cache = newCache();
    const old = cache.put(stored('old.com'), ['old.com', 'shared.com']);
    // Another process attached shared.com to new.com: the write names new.com's id and the domains it attached.
    cache.invalidate([stored('new.com').brand.id], ['new.com', 'shared.com']);
    expect(cache.getByDomain('shared.com')).toBeNull();
    expect(cache.getByDomain('old.com')).toBe(old);
  });

  it('answers but does not keep a record read before an invalidation that ran during the read', () => {
    const cache = newCache();
    const fence = cache.fence();
    cache.invalidate(['brd_unrelated'], []);
    const entry = cache.put(stored('acme.com'), ['acme.com'], fence);
    expect(JSON.parse(entry.json)).toMatchObject({ domain: 'acme.com' });
    expect(cache.getByDomain('acme.com')).toBeNull();
    // A read started after it is kept.
    const kept = cache.put(stored('acme.com'), ['acme.com'], cache.fence());
    expect(cache.getByDomain('acme.com')).toBe(kept);
  });

  it('clear drops everything and counts as an invalidation for reads in flight', () => {
    const cache = newCache();
    cache.put(stored('acme.com'), ['acme.com']);
    const fence = cache.fence();
    cache.clear();
    expect(cache.getByDomain('acme.com')).toBeNull();
    cache.put(stored('acme.com'), ['acme.com'], fence);
    expect(cache.getByDomain('acme.com')).toBeNull();
  });
});
