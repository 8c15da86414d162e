/**
 * The change rules on their own (domain/brand-announcement.ts; spec section 6): which saves announce, rebrand or
 * update, with perceptual signatures standing for the rendered marks. The same rules run end to end through the
 * real crawler in change-detection.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { announceBrandSave, isRebrand, normalizedBrandName, SAME_MARK_MAX_BITS, sameMark, type MarkSignature } from '../../src/domain/brand-announcement.js';
import type { Brand, Logo } from '../../src/domain/brand.js';
import { sampleBrand } from '../store/sample-brand.js';

const key = (n: number, ext = 'svg') => `${n.toString(16).padStart(64, '0')}.${ext}`;
const logo = (type: Logo['type'], file: string): Logo => ({ type, theme: null, tags: [], formats: [{ src: file, format: 'svg', width: null, height: null, size: 100, background: null }] });

/** A 64-bit hash with the first `bits` bits flipped from `base`. */
function flipped(base: string, bits: number): string {
  const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(64 - bits);
  return (BigInt(`0x${base}`) ^ mask).toString(16).padStart(16, '0');
}

const H = 'f0f0f0f00f0f0f0f';
const marks = (entries: [string, MarkSignature][]) => new Map(entries);

function brand(name: string, logos: Logo[]): Brand {
  return sampleBrand('acme.com', { name, logos });
}

describe('sameMark', () => {
  it('is the same mark within the bit bound and aspect tolerance, another beyond', () => {
    const [a, b] = [logo('logo', key(1)), logo('logo', key(2))];
    const sig = (bits: number, aspect: number | null = 4): [string, MarkSignature] => [key(2), { dhash: flipped(H, bits), aspect }];
    const base: [string, MarkSignature] = [key(1), { dhash: H, aspect: 4 }];
    expect(sameMark(a, b, marks([base, sig(0)]))).toBe(true);
    expect(sameMark(a, b, marks([base, sig(SAME_MARK_MAX_BITS)]))).toBe(true);
    expect(sameMark(a, b, marks([base, sig(SAME_MARK_MAX_BITS + 1)]))).toBe(false);
    // A wordmark that gained a word has another shape, whatever its hash.
    expect(sameMark(a, b, marks([base, sig(0, 6)]))).toBe(false);
    expect(sameMark(a, b, marks([base, sig(0, null)]))).toBe(true);
    // Without signatures, only a file in common makes the same mark.
    expect(sameMark(a, b, marks([]))).toBe(false);
    expect(sameMark(a, logo('symbol', key(1)), marks([]))).toBe(true);
  });
});

describe('normalizedBrandName', () => {
  it('ignores case, accents, punctuation and trailing legal suffixes', () => {
    expect(normalizedBrandName('Crème-Brûlée, Inc.')).toBe(normalizedBrandName('creme brulee'));
    expect(normalizedBrandName('Acme GmbH')).toBe('acme');
    expect(normalizedBrandName('Group')).toBe('group');
    expect(normalizedBrandName('  ')).toBeNull();
  });
});

describe('announceBrandSave', () => {
  const sigs = marks([
    [key(1), { dhash: H, aspect: 4 }],
    [key(2), { dhash: flipped(H, 1), aspect: 4 }],
    [key(3), { dhash: flipped(H, 30), aspect: 4 }],
    [key(10, 'png'), { dhash: '00ff00ff00ff00ff', aspect: 1 }],
    [key(11, 'png'), { dhash: '00ff00ff00ff00fe', aspect: 1 }],
    [key(12, 'png'), { dhash: 'ff00ff00ff00ff00', aspect: 1 }],
  ]);
  const before = brand('Acme', [logo('logo', key(1)), logo('icon', key(10, 'png'))]);

  it('announces nothing on a first save, an operator edit or a refresh that changed nothing visible', () => {
    expect(announceBrandSave(null, before, true, sigs)).toBeNull();
    expect(announceBrandSave(before, brand('Acme 2', before.logos), false, sigs)).toBeNull();
    expect(announceBrandSave(before, before, true, sigs)).toBeNull();
    // Re-encoded files (close signatures), the old files kept as history, and the name with another suffix.
    const reencoded = brand('ACME Inc.', [logo('logo', key(2)), logo('icon', key(11, 'png')), logo('other', key(1)), logo('other', key(10, 'png'))]);
    expect(announceBrandSave(before, reencoded, true, sigs)).toBeNull();
  });

  it('rebrand: a new logo with a new icon, or with a new name; not a new logo alone', () => {
    const newLogo = logo('logo', key(3));
    const both = brand('Acme', [newLogo, logo('icon', key(12, 'png'))]);
    expect(announceBrandSave(before, both, true, sigs)).toEqual({ kind: 'brand.rebranded', changedFields: ['logos', 'icon'], previous: { name: 'Acme', logo: before.logos[0] } });
    const renamed = brand('Zenith', [newLogo, before.logos[1] as Logo]);
    expect(announceBrandSave(before, renamed, true, sigs)?.kind).toBe('brand.rebranded');
    const logoOnly = brand('Acme', [newLogo, before.logos[1] as Logo]);
    expect(announceBrandSave(before, logoOnly, true, sigs)).toMatchObject({ kind: 'brand.updated', changedFields: ['logos'] });
    // A new icon and name without a new logo is no rebrand either.
    expect(isRebrand(before, brand('Zenith', [before.logos[0] as Logo, logo('icon', key(12, 'png'))]), sigs)).toBe(false);
    // A logo appearing where there was none replaced nothing.
    expect(isRebrand(brand('Acme', []), brand('Zenith', [newLogo]), sigs)).toBe(false);
  });

  it('update: other visible changes, with the changed fields', () => {
    const next = { ...before, description: 'Something else entirely.', name: 'Acme Two' };
    expect(announceBrandSave(before, next, true, sigs)).toMatchObject({ kind: 'brand.updated', changedFields: ['name', 'descriptions'] });
  });
});
