/**
 * The save decision on its own (brands/brand-save-decision.ts): which saves are refreshes, which mark signatures the
 * store must read for them, and the event (changes, announcement) a save of one record over another writes.
 */
import { describe, expect, it } from 'vitest';
import { decideBrandSave, isRefresh, markKeysToCompare, type SavedRecord } from '../../src/brands/brand-save-decision.js';
import type { MarkSignature } from '../../src/domain/brand-announcement.js';
import type { Logo } from '../../src/domain/brand.js';
import { sampleBrand } from '../store/sample-brand.js';

const key = (n: number) => `${n.toString(16).padStart(64, '0')}.svg`;
const logo = (type: Logo['type'], file: string): Logo => ({ type, theme: null, tags: [], formats: [{ src: file, format: 'svg', width: null, height: null, size: 100, background: null }] });
const record = (name: string, logos: Logo[], crawledAt: number): SavedRecord => ({ brand: sampleBrand('acme.com', { name, logos }), crawledAt: new Date(crawledAt) });

const at = new Date('2026-01-02T03:04:05Z');
const before = record('Acme', [logo('logo', key(1)), logo('icon', key(2))], 1000);
/** A new logo, a new icon and a new name: a rebrand when it is a refresh. */
const rebranded = (crawledAt: number) => record('Zenith', [logo('logo', key(3)), logo('icon', key(4))], crawledAt);
const unrelated: [string, MarkSignature][] = [
  [key(1), { dhash: 'f0f0f0f00f0f0f0f', aspect: 1 }],
  [key(2), { dhash: '00ff00ff00ff00ff', aspect: 1 }],
  [key(3), { dhash: '0f0f0f0ff0f0f0f0', aspect: 1 }],
  [key(4), { dhash: 'ff00ff00ff00ff00', aspect: 1 }],
];

describe('isRefresh and markKeysToCompare', () => {
  it('counts only a later crawl of a held record as a refresh, and reads signatures only for one', () => {
    expect(isRefresh(null, before)).toBe(false);
    expect(isRefresh(before, { ...before })).toBe(false);
    expect(isRefresh(before, rebranded(999))).toBe(false);
    expect(isRefresh(before, rebranded(1001))).toBe(true);
    expect(markKeysToCompare(null, before)).toEqual([]);
    expect(markKeysToCompare(before, rebranded(1000))).toEqual([]);
    expect(markKeysToCompare(before, rebranded(1001))).toEqual([key(1), key(2), key(3), key(4)]);
  });
});

describe('decideBrandSave', () => {
  it('a first save: created, its filled families changed, nothing announced', () => {
    const event = decideBrandSave(null, before, new Map(), at);
    expect(event).toMatchObject({ type: 'brand.saved', brandId: before.brand.id, domain: 'acme.com', created: true, occurredAt: at, announce: null });
    expect(event.changes).toEqual(['logos', 'icon', 'name', 'colors', 'descriptions', 'links']);
    expect(event.id).toMatch(/^evt_/);
  });

  it('a refresh with a new logo, icon and name is a rebrand; the same edit keeping the crawl time announces nothing', () => {
    const refresh = decideBrandSave(before, rebranded(2000), new Map(unrelated), at);
    expect(refresh.created).toBe(false);
    expect(refresh.changes).toEqual(['logos', 'icon', 'name']);
    expect(refresh.announce).toEqual({ kind: 'brand.rebranded', changedFields: ['logos', 'icon', 'name'], previous: { name: 'Acme', logo: before.brand.logos[0] } });
    const edit = decideBrandSave(before, rebranded(1000), new Map(unrelated), at);
    expect(edit.changes).toEqual(['logos', 'icon', 'name']);
    expect(edit.announce).toBeNull();
  });

  it('new files showing the same marks (close signatures) are no visible change: a refresh announces nothing', () => {
    const sameMarks = new Map<string, MarkSignature>([
      [key(1), { dhash: 'f0f0f0f00f0f0f0f', aspect: 1 }],
      [key(3), { dhash: 'f0f0f0f00f0f0f0e', aspect: 1 }],
      [key(2), { dhash: '00ff00ff00ff00ff', aspect: 1 }],
      [key(4), { dhash: '00ff00ff00ff00fe', aspect: 1 }],
    ]);
    const next = record('Acme', [logo('logo', key(3)), logo('icon', key(4))], 2000);
    const event = decideBrandSave(before, next, sameMarks, at);
    expect(event.changes).toEqual(['logos', 'icon']);
    expect(event.announce).toBeNull();
    // Without the signatures the new files are new marks: a new logo and a new icon make a rebrand, a new logo alone an update.
    expect(decideBrandSave(before, next, new Map(), at).announce).toMatchObject({ kind: 'brand.rebranded', changedFields: ['logos', 'icon'] });
    const newLogoOnly = record('Acme', [logo('logo', key(3)), logo('icon', key(2))], 2000);
    expect(decideBrandSave(before, newLogoOnly, new Map(), at).announce).toMatchObject({ kind: 'brand.updated', changedFields: ['logos'] });
  });
});
