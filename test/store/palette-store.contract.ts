/**
 * The palette part of the Store contract (migration 0009, ADR 0023), run on every backend against a real database:
 * evidence kept per brand, a palette stored only against the evidence it was built from, and a re-crawl's
 * evidence dropping the palette built from the old one.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PALETTE_EVIDENCE_VERSION, type Palette, type PaletteEvidence } from '../../src/domain/palette.js';
import type { Store } from '../../src/store/store.js';
import { sampleBrand } from './sample-brand.js';

const T0 = new Date('2024-05-06T07:08:09.123Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);

function evidence(overrides: Partial<PaletteEvidence> = {}): PaletteEvidence {
  return {
    version: PALETTE_EVIDENCE_VERSION,
    source: 'css',
    css: { '#ff5a1f': { background: 2, text: 1, border: 0, other: 0 } },
    elements: [],
    // Untrusted site text must round-trip as text.
    tokens: [{ name: '--brand-"quoted"-✓', hex: '#ff5a1f' }],
    gradients: [{ css: 'linear-gradient(90deg, #ff5a1f 0%, #000000 100%)', count: 1, prominent: true }],
    pairs: [],
    themes: { light: { background: '#ffffff', text: '#111111' } },
    signals: [{ hex: '#ff5a1f', weight: 4, source: 'token' }],
    ...overrides,
  };
}

const PALETTE: Palette = { colors: [], logos: [], onPairs: [], gradients: [], themes: { light: { background: '#ffffff', surface: null, text: '#111111', muted: null, border: null, accent: null, contrast: 18.88 } } };

export function paletteStoreContract(name: string, open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>): void {
  describe(`Store contract, palettes: ${name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.migrate();
    });
    afterAll(async () => {
      await cleanup();
    });

    async function savedBrand(): Promise<string> {
      const brand = sampleBrand(`acme-${randomBytes(5).toString('hex')}.test`);
      await store.saveBrand({ brand, status: 'indexed', crawledAt: at(1), createdAt: at(1), updatedAt: at(1) }, []);
      return brand.id;
    }

    it('has nothing for a brand whose crawl kept no evidence', async () => {
      expect(await store.getStoredPalette(await savedBrand())).toBeNull();
    });

    it('round-trips the evidence exactly, with no palette yet', async () => {
      const id = await savedBrand();
      await store.savePaletteEvidence(id, evidence(), at(10));
      expect(await store.getStoredPalette(id)).toEqual({ brandId: id, evidence: evidence(), observedAt: at(10), palette: null, builtAt: null });
    });

    it('stores a palette built from the current evidence', async () => {
      const id = await savedBrand();
      await store.savePaletteEvidence(id, evidence(), at(10));
      expect(await store.savePalette(id, PALETTE, at(10), at(20))).toBe(true);
      const got = await store.getStoredPalette(id);
      expect(got?.palette).toEqual(PALETTE);
      expect(got?.builtAt).toEqual(at(20));
    });

    it('refuses a palette built from evidence a re-crawl replaced, and the re-crawl drops the old palette', async () => {
      const id = await savedBrand();
      await store.savePaletteEvidence(id, evidence(), at(10));
      expect(await store.savePalette(id, PALETTE, at(10), at(20))).toBe(true);
      const newer = evidence({ source: 'rendered', signals: [] });
      await store.savePaletteEvidence(id, newer, at(30));
      expect(await store.getStoredPalette(id)).toEqual({ brandId: id, evidence: newer, observedAt: at(30), palette: null, builtAt: null });
      expect(await store.savePalette(id, PALETTE, at(10), at(40))).toBe(false);
      expect((await store.getStoredPalette(id))?.palette).toBeNull();
    });

    it('refuses a palette for a brand without evidence', async () => {
      expect(await store.savePalette(await savedBrand(), PALETTE, at(10), at(20))).toBe(false);
    });
  });
}
