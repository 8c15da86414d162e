/**
 * The palette store's contract (migration 0009, ADR 0023), run on every backend against a real database:
 * evidence kept per brand, a palette stored only against the evidence it was built from, and a re-crawl's
 * evidence dropping the palette built from the old one.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PALETTE_EVIDENCE_VERSION, type Palette, type PaletteEvidence } from '../../src/domain/palette.js';
import type { PaletteStore } from '../../src/palette/palette-store.js';
import type { BrandStore } from '../../src/brands/brand-store.js';
import { sampleBrand } from '../store/sample-brand.js';

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

export function paletteStoreContract(name: string, open: () => Promise<{ migrate(): Promise<void>; stores: { palette: PaletteStore; brands: BrandStore }; cleanup: () => Promise<void> }>): void {
  describe(`Store contract, palettes: ${name}`, () => {
    let brands: BrandStore;
    let palettes: PaletteStore;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      let stores: { palette: PaletteStore; brands: BrandStore };
      let migrate: () => Promise<void>;
      ({ migrate, stores, cleanup } = await open());
      palettes = stores.palette;
      brands = stores.brands;
      await migrate();
    });
    afterAll(async () => {
      await cleanup();
    });

    async function savedBrand(): Promise<string> {
      const brand = sampleBrand(`acme-${randomBytes(5).toString('hex')}.test`);
      await brands.saveBrand({ brand, status: 'indexed', crawledAt: at(1), createdAt: at(1), updatedAt: at(1) }, []);
      return brand.id;
    }

    it('has nothing for a brand whose crawl kept no evidence', async () => {
      expect(await palettes.getStoredPalette(await savedBrand())).toBeNull();
    });

    it('round-trips the evidence exactly, with no palette yet', async () => {
      const id = await savedBrand();
      await palettes.savePaletteEvidence(id, evidence(), at(10));
      expect(await palettes.getStoredPalette(id)).toEqual({ brandId: id, evidence: evidence(), observedAt: at(10), palette: null, builtAt: null });
    });

    it('stores a palette built from the current evidence', async () => {
      const id = await savedBrand();
      await palettes.savePaletteEvidence(id, evidence(), at(10));
      expect(await palettes.savePalette(id, PALETTE, at(10), at(20))).toBe(true);
      const got = await palettes.getStoredPalette(id);
      expect(got?.palette).toEqual(PALETTE);
      expect(got?.builtAt).toEqual(at(20));
    });

    it('refuses a palette built from evidence a re-crawl replaced, and the re-crawl drops the old palette', async () => {
      const id = await savedBrand();
      await palettes.savePaletteEvidence(id, evidence(), at(10));
      expect(await palettes.savePalette(id, PALETTE, at(10), at(20))).toBe(true);
      const newer = evidence({ source: 'rendered', signals: [] });
      await palettes.savePaletteEvidence(id, newer, at(30));
      expect(await palettes.getStoredPalette(id)).toEqual({ brandId: id, evidence: newer, observedAt: at(30), palette: null, builtAt: null });
      expect(await palettes.savePalette(id, PALETTE, at(10), at(40))).toBe(false);
      expect((await palettes.getStoredPalette(id))?.palette).toBeNull();
    });

    it('refuses a palette for a brand without evidence', async () => {
      expect(await palettes.savePalette(await savedBrand(), PALETTE, at(10), at(20))).toBe(false);
    });

    it('saveBrand keeps the crawl\'s evidence in its own transaction, observed at crawledAt, dropping an older palette', async () => {
      const brand = sampleBrand(`acme-${randomBytes(5).toString('hex')}.test`);
      await brands.saveBrand({ brand, status: 'indexed', crawledAt: at(1), createdAt: at(1), updatedAt: at(1) }, [], { paletteEvidence: evidence() });
      expect(await palettes.getStoredPalette(brand.id)).toEqual({ brandId: brand.id, evidence: evidence(), observedAt: at(1), palette: null, builtAt: null });
      expect(await palettes.savePalette(brand.id, PALETTE, at(1), at(2))).toBe(true);
      const recrawl = evidence({ source: 'rendered' });
      await brands.saveBrand({ brand, status: 'indexed', crawledAt: at(5), createdAt: at(1), updatedAt: at(5) }, [], { paletteEvidence: recrawl });
      expect(await palettes.getStoredPalette(brand.id)).toEqual({ brandId: brand.id, evidence: recrawl, observedAt: at(5), palette: null, builtAt: null });
      // A save without evidence (a claim, a curated industry) leaves the evidence and its palette alone.
      expect(await palettes.savePalette(brand.id, PALETTE, at(5), at(6))).toBe(true);
      await brands.saveBrand({ brand: { ...brand, claimed: true }, status: 'indexed', crawledAt: at(5), createdAt: at(1), updatedAt: at(7) }, []);
      expect((await palettes.getStoredPalette(brand.id))?.palette).toEqual(PALETTE);
    });

    it('replaces the crawl\'s evidence with the background render\'s, dropping the palette and refusing builds of the old evidence', async () => {
      const id = await savedBrand();
      await palettes.savePaletteEvidence(id, evidence(), at(10));
      expect(await palettes.savePalette(id, PALETTE, at(10), at(20))).toBe(true);
      const rendered = evidence({ source: 'rendered', pairs: [{ element: 'button', theme: 'dark', background: '#ff5a1f', text: '#ffffff', count: 2 }] });
      expect(await palettes.replacePaletteEvidence(id, rendered, at(10), at(50))).toBe(true);
      expect(await palettes.getStoredPalette(id)).toEqual({ brandId: id, evidence: rendered, observedAt: at(50), palette: null, builtAt: null });
      // A build of the CSS evidence that was still running cannot store its palette over the rendered evidence.
      expect(await palettes.savePalette(id, PALETTE, at(10), at(60))).toBe(false);
      expect(await palettes.savePalette(id, PALETTE, at(50), at(60))).toBe(true);
    });

    it('does not replace evidence a re-crawl wrote after the render started, nor evidence that is not there', async () => {
      const id = await savedBrand();
      await palettes.savePaletteEvidence(id, evidence(), at(10));
      const recrawl = evidence({ signals: [{ hex: '#00aa00', weight: 2, source: 'cta' }] });
      await palettes.savePaletteEvidence(id, recrawl, at(30));
      expect(await palettes.replacePaletteEvidence(id, evidence({ source: 'rendered' }), at(10), at(50))).toBe(false);
      expect(await palettes.getStoredPalette(id)).toEqual({ brandId: id, evidence: recrawl, observedAt: at(30), palette: null, builtAt: null });
      expect(await palettes.replacePaletteEvidence(await savedBrand(), evidence({ source: 'rendered' }), at(10), at(50))).toBe(false);
      expect(await palettes.getStoredPalette(await savedBrand())).toBeNull();
    });
  });
}
