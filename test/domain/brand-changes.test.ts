import { describe, expect, it } from 'vitest';
import { BRAND_CHANGE_FIELDS, brandChanges, brandSavedEvent } from '../../src/domain/brand-changes.js';
import type { Brand, Format, Logo } from '../../src/domain/brand.js';
import { emptyCompany } from '../../src/domain/brand.js';
import { brandIdForDomain, brandUrn } from '../../src/domain/ids.js';
import { sampleBrand } from '../store/sample-brand.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);
const SHA_C = 'c'.repeat(64);

function format(src: string, overrides: Partial<Format> = {}): Format {
  return { src, format: 'png', height: 64, width: 64, size: 100, background: null, ...overrides };
}

function logo(type: Logo['type'], srcs: string[], overrides: Partial<Logo> = {}): Logo {
  return { type, theme: null, tags: [], formats: srcs.map((src) => format(src)), ...overrides };
}

function emptyBrand(domain = 'acme.test'): Brand {
  const id = brandIdForDomain(domain);
  return {
    id,
    name: null,
    domain,
    claimed: false,
    description: null,
    longDescription: null,
    links: [],
    logos: [],
    colors: [],
    fonts: [],
    images: [],
    qualityScore: 0,
    company: emptyCompany(),
    isNsfw: false,
    urn: brandUrn(id),
  };
}

describe('brandChanges: a first save', () => {
  it('lists every non-empty field family, in BRAND_CHANGE_FIELDS order', () => {
    expect(brandChanges(null, sampleBrand('acme.test'))).toEqual([...BRAND_CHANGE_FIELDS]);
  });

  it('lists nothing for an empty record; blank texts count as empty', () => {
    expect(brandChanges(null, emptyBrand())).toEqual([]);
    expect(brandChanges(null, { ...emptyBrand(), name: '  ', description: '', longDescription: null })).toEqual([]);
  });

  it('lists only what is there', () => {
    expect(brandChanges(null, { ...emptyBrand(), name: 'Acme', logos: [logo('icon', [`/assets/${SHA_A}.png`])] })).toEqual(['icon', 'name']);
    expect(brandChanges(null, { ...emptyBrand(), longDescription: 'Long.' })).toEqual(['descriptions']);
  });
});

describe('brandChanges: a save over a previous record', () => {
  const before = sampleBrand('acme.test');

  it('lists nothing when nothing a consumer cares about changed', () => {
    expect(brandChanges(before, structuredClone(before))).toEqual([]);
    // Fonts, images, industries, quality score, claimed and NSFW are not among the field families.
    expect(brandChanges(before, { ...before, fonts: [], images: [], qualityScore: 0.1, claimed: true, isNsfw: true, company: emptyCompany() })).toEqual([]);
  });

  it('sees each field family on its own', () => {
    expect(brandChanges(before, { ...before, name: 'Acme Corp' })).toEqual(['name']);
    expect(brandChanges(before, { ...before, description: 'New.' })).toEqual(['descriptions']);
    expect(brandChanges(before, { ...before, longDescription: null })).toEqual(['descriptions']);
    expect(brandChanges(before, { ...before, links: [...before.links, { name: 'youtube', url: 'https://youtube.com/acme' }] })).toEqual(['links']);
    expect(brandChanges(before, { ...before, colors: [{ hex: '#000000', type: 'dark', brightness: 0 }] })).toEqual(['colors']);
    expect(brandChanges(before, { ...before, logos: before.logos.filter((l) => l.type !== 'icon') })).toEqual(['icon']);
    expect(brandChanges(before, { ...before, logos: before.logos.filter((l) => l.type === 'icon') })).toEqual(['logos']);
    expect(brandChanges(before, { ...emptyBrand('acme.test') })).toEqual([...BRAND_CHANGE_FIELDS]);
  });

  it('ignores surrounding whitespace, link order, the colour hex case and brightness', () => {
    const reordered: Brand = {
      ...before,
      name: ` ${before.name ?? ''} `,
      links: [...before.links].reverse(),
      colors: before.colors.map((c) => ({ ...c, hex: c.hex.toUpperCase(), brightness: c.brightness + 1 })),
    };
    expect(brandChanges(before, reordered)).toEqual([]);
  });

  it('counts the order of colours and a changed colour type', () => {
    expect(brandChanges(before, { ...before, colors: [...before.colors].reverse() })).toEqual(['colors']);
    expect(brandChanges(before, { ...before, colors: before.colors.map((c) => ({ ...c, type: 'brand' as const })) })).toEqual(['colors']);
  });
});

describe('brandChanges: logos compare by type, theme and file content', () => {
  const base = (logos: Logo[]): Brand => ({ ...emptyBrand(), logos });

  it('compares a file by its content key, wherever it is served from', () => {
    const before = base([logo('logo', [`https://old.example/assets/${SHA_A}.svg`, `https://old.example/assets/${SHA_B}.png`])]);
    const bareKeys = base([logo('logo', [`${SHA_B}.png`, `${SHA_A}.svg`])]);
    const newHost = base([logo('logo', [`https://cdn.example/assets/${SHA_A}.svg?v=2`, `https://cdn.example/assets/${SHA_B}.png`])]);
    expect(brandChanges(before, bareKeys)).toEqual([]);
    expect(brandChanges(before, newHost)).toEqual([]);
  });

  it('sees a new file, a new rendition, a new theme and a new type', () => {
    const before = base([logo('logo', [`${SHA_A}.svg`])]);
    expect(brandChanges(before, base([logo('logo', [`${SHA_C}.svg`])]))).toEqual(['logos']);
    expect(brandChanges(before, base([logo('logo', [`${SHA_A}.svg`, `${SHA_B}.png`])]))).toEqual(['logos']);
    expect(brandChanges(before, base([logo('logo', [`${SHA_A}.svg`], { theme: 'dark' })]))).toEqual(['logos']);
    expect(brandChanges(before, base([logo('symbol', [`${SHA_A}.svg`])]))).toEqual(['logos']);
    // A logo retired to `other` by a re-crawl is a change of the logo set.
    expect(brandChanges(before, base([logo('other', [`${SHA_A}.svg`]), logo('logo', [`${SHA_C}.svg`])]))).toEqual(['logos']);
  });

  it('ignores logo order, tags and file metadata', () => {
    const one = logo('logo', [`${SHA_A}.svg`]);
    const two = logo('symbol', [`${SHA_B}.svg`], { theme: 'light' });
    const retagged: Logo = { ...two, tags: ['photographic'], formats: two.formats.map((f) => ({ ...f, size: 999, width: 10, height: 10 })) };
    expect(brandChanges(base([one, two]), base([retagged, one]))).toEqual([]);
  });

  it('keeps the icon apart from the other logos', () => {
    const logos = [logo('logo', [`${SHA_A}.svg`]), logo('icon', [`${SHA_B}.png`])];
    expect(brandChanges(base(logos), base([logos[0] as Logo, logo('icon', [`${SHA_C}.png`])]))).toEqual(['icon']);
    expect(brandChanges(base(logos), base([logo('logo', [`${SHA_C}.svg`]), logos[1] as Logo]))).toEqual(['logos']);
  });

  it('falls back to the whole reference when a file has no content key', () => {
    const before = base([logo('logo', ['https://cdn.example/logo.svg'])]);
    expect(brandChanges(before, base([logo('logo', ['https://cdn.example/logo.svg'])]))).toEqual([]);
    expect(brandChanges(before, base([logo('logo', ['https://cdn.example/logo-2.svg'])]))).toEqual(['logos']);
  });
});

describe('brandSavedEvent', () => {
  it('builds the event of a first save and of a later one', () => {
    const at = new Date('2025-01-02T03:04:05.678Z');
    const brand = sampleBrand('acme.test');
    const first = brandSavedEvent(null, brand, at);
    expect(first).toEqual({ id: expect.stringMatching(/^evt_[a-z2-7]{24}$/), type: 'brand.saved', brandId: brand.id, domain: 'acme.test', created: true, changes: [...BRAND_CHANGE_FIELDS], occurredAt: at, announce: null });
    const second = brandSavedEvent(brand, { ...brand, name: 'Acme 2' }, at);
    expect(second).toMatchObject({ created: false, changes: ['name'], announce: null });
    expect(second.id).not.toBe(first.id);
    // The announcement is decided by the store (brand-announcement.ts) and carried as given.
    const announce = { kind: 'brand.updated' as const, changedFields: ['name' as const], previous: { name: brand.name, logo: null } };
    expect(brandSavedEvent(brand, { ...brand, name: 'Acme 2' }, at, announce).announce).toEqual(announce);
  });
});
