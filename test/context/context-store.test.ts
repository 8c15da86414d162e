/**
 * The context store's contract (migration 0019, ADR 0035), run against SQLite always and PostgreSQL when
 * one answers: evidence kept per brand with its crawl, a profile stored only against the evidence it was built
 * from, a re-crawl's evidence dropping the old profile, site text round-tripping as text, and the row going with
 * its brand.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_EVIDENCE_VERSION, type ContextEvidence, type ContextProfile } from '../../src/domain/brand-context.js';
import type { ContextStore } from '../../src/context/context-store.js';
import type { BrandStore } from '../../src/brands/brand-store.js';
import { sampleBrand } from '../store/sample-brand.js';
import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

const T0 = new Date('2026-05-06T07:08:09.123Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);

function evidence(title = 'Acme | Rockets for "everyone" — ✓'): ContextEvidence {
  return {
    version: CONTEXT_EVIDENCE_VERSION,
    pages: [
      {
        path: '/',
        kind: 'home',
        title,
        metaDescription: "Acme's rockets: O'Reilly said \\ \u0000-free.",
        keywords: ['rockets', 'anvils'],
        headings: [{ level: 1, text: 'Rockets that land' }],
        blocks: [{ heading: 'Rockets that land', text: 'Built for coyotes who chase things.' }],
        jsonLd: [{ type: 'Organization', name: 'Acme', description: null, slogan: 'Beep beep.', keywords: [], audience: null }],
      },
    ],
  };
}

const PROFILE: ContextProfile = {
  identity: { tagline: 'Beep beep.', mission: null, description: null, tags: ['rockets'] },
  positioning: { value_proposition: null, target_audience: [{ segment: 'coyotes', description: 'Built for coyotes who chase things.' }], products_and_services: [] },
  brand: { voice: { summary: null, attributes: [], avoid: [] }, style: { summary: null, attributes: [] } },
  sources: [{ field: 'identity.tagline', page: '/' }],
};

function contract(name: string, open: () => Promise<{ migrate(): Promise<void>; stores: { context: ContextStore; brands: BrandStore }; cleanup: () => Promise<void> }>): void {
  describe(`Store contract, contexts: ${name}`, () => {
    let brands: BrandStore;
    let contexts: ContextStore;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      let stores: { context: ContextStore; brands: BrandStore };
      let migrate: () => Promise<void>;
      ({ migrate, stores, cleanup } = await open());
      contexts = stores.context;
      brands = stores.brands;
      await migrate();
    });
    afterAll(async () => {
      await cleanup?.();
    });

    async function savedBrand(): Promise<string> {
      const brand = sampleBrand(`acme-${randomBytes(5).toString('hex')}.test`);
      await brands.saveBrand({ brand, status: 'indexed', crawledAt: at(1), createdAt: at(1), updatedAt: at(1) }, []);
      return brand.id;
    }

    it('has nothing for a brand whose crawl kept no evidence', async () => {
      expect(await contexts.getStoredContext(await savedBrand())).toBeNull();
    });

    it('round-trips the evidence exactly (site text as text), with no profile yet', async () => {
      const id = await savedBrand();
      await contexts.saveContextEvidence(id, evidence(), at(10));
      expect(await contexts.getStoredContext(id)).toEqual({ brandId: id, evidence: evidence(), observedAt: at(10), profile: null, builtAt: null });
    });

    it('stores a profile built from the current evidence', async () => {
      const id = await savedBrand();
      await contexts.saveContextEvidence(id, evidence(), at(10));
      expect(await contexts.saveContextProfile(id, PROFILE, at(10), at(20))).toBe(true);
      expect(await contexts.getStoredContext(id)).toEqual({ brandId: id, evidence: evidence(), observedAt: at(10), profile: PROFILE, builtAt: at(20) });
    });

    it('refuses a profile built from evidence a re-crawl replaced, and the re-crawl drops the old profile', async () => {
      const id = await savedBrand();
      await contexts.saveContextEvidence(id, evidence(), at(10));
      expect(await contexts.saveContextProfile(id, PROFILE, at(10), at(20))).toBe(true);
      const newer = evidence('Acme | New title');
      await contexts.saveContextEvidence(id, newer, at(30));
      expect(await contexts.getStoredContext(id)).toEqual({ brandId: id, evidence: newer, observedAt: at(30), profile: null, builtAt: null });
      expect(await contexts.saveContextProfile(id, PROFILE, at(10), at(40))).toBe(false);
      expect((await contexts.getStoredContext(id))?.profile).toBeNull();
    });

    it('refuses a profile for a brand without evidence', async () => {
      expect(await contexts.saveContextProfile(await savedBrand(), PROFILE, at(10), at(20))).toBe(false);
    });

    it("saveBrand keeps the crawl's evidence in its own transaction, observed at crawledAt; a save without it leaves it alone", async () => {
      const brand = sampleBrand(`acme-${randomBytes(5).toString('hex')}.test`);
      await brands.saveBrand({ brand, status: 'indexed', crawledAt: at(1), createdAt: at(1), updatedAt: at(1) }, [], { contextEvidence: evidence() });
      expect(await contexts.getStoredContext(brand.id)).toEqual({ brandId: brand.id, evidence: evidence(), observedAt: at(1), profile: null, builtAt: null });
      expect(await contexts.saveContextProfile(brand.id, PROFILE, at(1), at(2))).toBe(true);
      const recrawl = evidence('Acme | Re-crawled');
      await brands.saveBrand({ brand, status: 'indexed', crawledAt: at(5), createdAt: at(1), updatedAt: at(5) }, [], { contextEvidence: recrawl });
      expect(await contexts.getStoredContext(brand.id)).toEqual({ brandId: brand.id, evidence: recrawl, observedAt: at(5), profile: null, builtAt: null });
      expect(await contexts.saveContextProfile(brand.id, PROFILE, at(5), at(6))).toBe(true);
      // A claim or a curated industry saves the record without a crawl: evidence and profile stay.
      await brands.saveBrand({ brand: { ...brand, claimed: true }, status: 'indexed', crawledAt: at(5), createdAt: at(1), updatedAt: at(7) }, []);
      expect((await contexts.getStoredContext(brand.id))?.profile).toEqual(PROFILE);
    });

    it('a failed saveBrand writes no evidence', async () => {
      const brand = sampleBrand(`acme-${randomBytes(5).toString('hex')}.test`);
      // An identifier value the column cannot hold makes the transaction fail after the brand row was written.
      const bad = { kind: 'domain', value: null } as unknown as { kind: 'domain'; value: string };
      await expect(brands.saveBrand({ brand, status: 'indexed', crawledAt: at(1), createdAt: at(1), updatedAt: at(1) }, [bad], { contextEvidence: evidence() })).rejects.toThrow();
      expect(await brands.getBrand(brand.id)).toBeNull();
      expect(await contexts.getStoredContext(brand.id)).toBeNull();
    });
  });
}

contract('SQLite (temp file)', tempSqlite);
needsPostgres.describe('PostgreSQL', () => {
  contract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
