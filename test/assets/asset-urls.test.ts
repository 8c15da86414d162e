import { describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/assets/asset-urls.js';
import { BrandCache } from '../../src/brands/brand-cache.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import type { Brand, Format } from '../../src/domain/brand.js';
import type { StoredBrand } from '../../src/brands/brand-store.js';
import { sampleBrand } from '../store/sample-brand.js';

const KEY_SVG = `${'a'.repeat(64)}.svg`;
const KEY_PNG = `${'b'.repeat(64)}.png`;
const KEY_WEBP = `${'c'.repeat(64)}.webp`;
const KEY_JPEG = `${'d'.repeat(64)}.jpeg`;

/** A record as the store holds it: every asset `src` a key. */
function keyedBrand(): Brand {
  const brand = sampleBrand('acme.com');
  const keyed = (keys: string[]) => <T extends { formats: Format[] }>(entry: T, i: number): T => ({ ...entry, formats: entry.formats.map((f, j) => ({ ...f, src: keys[(i + j) % keys.length] ?? '' })) });
  return { ...brand, logos: brand.logos.map(keyed([KEY_SVG, KEY_PNG, KEY_WEBP])), images: brand.images.map(keyed([KEY_JPEG])) };
}

const srcsOf = (brand: Pick<Brand, 'logos' | 'images'>): string[] => [...brand.logos, ...brand.images].flatMap((e) => e.formats.map((f) => f.src));

describe('AssetUrls', () => {
  it('renders a key under the base, with or without its trailing slash', () => {
    expect(new AssetUrls('http://localhost:8787/assets/').src(KEY_PNG)).toBe(`http://localhost:8787/assets/${KEY_PNG}`);
    expect(new AssetUrls('https://cdn.example.com/b').src(KEY_SVG)).toBe(`https://cdn.example.com/b/${KEY_SVG}`);
    expect(new AssetUrls('https://cdn.example.com/b').base).toBe('https://cdn.example.com/b/');
  });

  it('leaves anything that is not a key as it is (URLs, other shapes)', () => {
    const urls = new AssetUrls('https://cdn.example.com/');
    for (const src of [
      `http://old.example/assets/${KEY_PNG}`,
      `${'A'.repeat(64)}.png`,
      `${'a'.repeat(63)}.png`,
      `${'a'.repeat(64)}.gif`,
      `${'a'.repeat(64)}.png?x=1`,
      `../${KEY_PNG}`,
      `staged:${KEY_PNG}`,
      '',
    ]) {
      expect(urls.src(src)).toBe(src);
    }
  });

  it('renderBrand renders every logo and image src, changes nothing else and leaves its input alone', () => {
    const brand = keyedBrand();
    const before = structuredClone(brand);
    const rendered = new AssetUrls('https://cdn.example.com/brand-assets/').renderBrand(brand);
    expect(brand).toEqual(before);
    expect(srcsOf(brand).length).toBeGreaterThan(3);
    expect(srcsOf(rendered)).toEqual(srcsOf(brand).map((key) => `https://cdn.example.com/brand-assets/${key}`));
    const strip = (b: Brand) => ({ ...b, logos: b.logos.map((l) => ({ ...l, formats: l.formats.map(({ src: _src, ...f }) => f) })), images: b.images.map((i) => ({ ...i, formats: i.formats.map(({ src: _src, ...f }) => f) })) });
    expect(strip(rendered)).toEqual(strip(brand));
  });
});

describe('BrandCache', () => {
  it('serializes each record once with rendered URLs; the stored record keeps its keys', () => {
    const brand = keyedBrand();
    const now = new Date();
    const stored: StoredBrand = { brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now };
    const cache = new BrandCache(60_000, new AssetUrls('http://brandbase.test/assets/'));
    const entry = cache.put(stored, ['acme.com']);
    const answered = JSON.parse(entry.json) as Brand;
    expect(srcsOf(answered)).toEqual(srcsOf(brand).map((key) => `http://brandbase.test/assets/${key}`));
    expect(entry.bytes.toString('utf8')).toBe(entry.json);
    expect(entry.stored.brand).toBe(brand);
    expect(srcsOf(entry.stored.brand)).toEqual(srcsOf(keyedBrand()));
    // The cached hit is the same serialized entry: nothing is rendered per request.
    expect(cache.getByDomain('acme.com')).toBe(entry);
  });
});

describe('the asset base URL setting', () => {
  it('defaults to BRANDBASE_PUBLIC_URL/assets/', () => {
    expect(loadConfig({}).assetBaseUrl).toBe('http://localhost:8787/assets/');
    expect(loadConfig({ BRANDBASE_PUBLIC_URL: 'https://brands.example.com/' }).assetBaseUrl).toBe('https://brands.example.com/assets/');
  });

  it('BRANDBASE_ASSET_BASE_URL overrides it and always ends with a slash', () => {
    const env = { BRANDBASE_PUBLIC_URL: 'https://brands.example.com', BRANDBASE_ASSET_BASE_URL: 'https://cdn.example.com/brand-assets' };
    expect(loadConfig(env).assetBaseUrl).toBe('https://cdn.example.com/brand-assets/');
    expect(loadConfig({ BRANDBASE_ASSET_BASE_URL: 'https://cdn.example.com/' }).assetBaseUrl).toBe('https://cdn.example.com/');
  });

  it('refuses a base that is not an http(s) URL', () => {
    for (const bad of ['cdn.example.com/assets', 'ftp://cdn.example.com/', 'javascript:alert(1)']) {
      expect(() => loadConfig({ BRANDBASE_ASSET_BASE_URL: bad })).toThrow(ConfigError);
    }
  });
});
