/**
 * The logo evidence store's contract (migration 0022, ADR 0044) on SQLite and PostgreSQL: kept by
 * saveBrand in the brand's transaction, replaced by the next crawl's, untouched by a save without evidence, gone
 * with a brand that never kept one, and hostile text kept as text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGO_EVIDENCE_VERSION, type LogoEvidence } from '../../src/domain/logo-evidence.js';
import type { BrandStore, StoredBrand } from '../../src/brands/brand-store.js';
import type { LogoEvidenceStore } from '../../src/brands/logo-evidence/logo-evidence-store.js';
import { sampleBrand } from '../store/sample-brand.js';
import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

const T0 = new Date('2025-03-04T05:06:07.089Z');

function stored(domain: string, crawledAt: Date): StoredBrand {
  return { brand: sampleBrand(domain), status: 'indexed', crawledAt, createdAt: T0, updatedAt: crawledAt };
}

function evidence(reason: 'primary-mark' | 'best-icon'): LogoEvidence {
  return {
    version: LOGO_EVIDENCE_VERSION,
    candidates: [
      { source: 'header-svg', scheme: null, format: 'svg', width: 320, height: 80, score: 139, outcome: 'chosen', role: 'logo', reason: 'primary-mark', assetKey: `${'a'.repeat(64)}.svg` },
      { source: 'link-icon', scheme: null, format: 'png', width: 32, height: 32, score: 32, outcome: reason === 'best-icon' ? 'chosen' : 'rejected', role: reason === 'best-icon' ? 'icon' : null, reason: reason === 'best-icon' ? 'best-icon' : 'smaller-icon', assetKey: null },
      { source: 'meta-logo', scheme: 'dark', format: null, width: null, height: null, score: 60, outcome: 'rejected', role: null, reason: 'unreadable', assetKey: null },
    ],
  };
}

function contract(name: string, open: () => Promise<{ migrate(): Promise<void>; stores: { logoEvidence: LogoEvidenceStore; brands: BrandStore }; cleanup: () => Promise<void> }>): void {
  describe(`Store contract, logo evidence: ${name}`, () => {
    let brands: BrandStore;
    let logos: LogoEvidenceStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      let stores: { logoEvidence: LogoEvidenceStore; brands: BrandStore };
      let migrate: () => Promise<void>;
      ({ migrate, stores, cleanup } = await open());
      logos = stores.logoEvidence;
      brands = stores.brands;
      await migrate();
    });
    afterAll(async () => cleanup?.());

    it('keeps the evidence with the brand save, as observed at the crawl', async () => {
      const brand = stored('keeper.example', T0);
      expect(await logos.getLogoEvidence(brand.brand.id)).toBeNull();
      await brands.saveBrand(brand, [{ kind: 'domain', value: 'keeper.example' }], { logoEvidence: evidence('primary-mark') });
      const kept = await logos.getLogoEvidence(brand.brand.id);
      expect(kept).toEqual({ evidence: evidence('primary-mark'), observedAt: T0 });
    });

    it("replaces it with the next crawl's, and keeps it through a save that brings none", async () => {
      const later = new Date(T0.getTime() + 86_400_000);
      const brand = stored('recrawled.example', T0);
      await brands.saveBrand(brand, [{ kind: 'domain', value: 'recrawled.example' }], { logoEvidence: evidence('primary-mark') });
      await brands.saveBrand(stored('recrawled.example', later), [], { logoEvidence: evidence('best-icon') });
      expect(await logos.getLogoEvidence(brand.brand.id)).toEqual({ evidence: evidence('best-icon'), observedAt: later });
      // A save without evidence (an identifier attached by a lookup) leaves the crawl's decision in place.
      await brands.saveBrand(stored('recrawled.example', later), [{ kind: 'ticker', value: 'RCRW' }]);
      expect((await logos.getLogoEvidence(brand.brand.id))?.evidence).toEqual(evidence('best-icon'));
    });

    it('commits with its record or not at all: evidence that fails to encode rolls the brand save back', async () => {
      const brand = stored('rolledback.example', T0);
      const broken = evidence('primary-mark');
      // BigInt is not JSON: the evidence write fails inside saveBrand's transaction, after the brand row was written.
      if (broken.candidates[0]) broken.candidates[0].score = 1n as unknown as number;
      await expect(brands.saveBrand(brand, [{ kind: 'domain', value: 'rolledback.example' }], { logoEvidence: broken })).rejects.toThrow();
      expect(await brands.getBrand(brand.brand.id)).toBeNull();
      expect(await logos.getLogoEvidence(brand.brand.id)).toBeNull();
    });

    it('keeps hostile text as text', async () => {
      const brand = stored('hostile.example', T0);
      const hostile = evidence('primary-mark');
      const first = hostile.candidates[0];
      if (first) first.assetKey = `'); drop table brands; -- <script>"✓"</script>`;
      await brands.saveBrand(brand, [{ kind: 'domain', value: 'hostile.example' }], { logoEvidence: hostile });
      expect((await logos.getLogoEvidence(brand.brand.id))?.evidence.candidates[0]?.assetKey).toBe(first?.assetKey);
    });
  });
}

contract('sqlite', tempSqlite);
// Skipped (and reported by the run's skip banner) only when no PostgreSQL answers, as the other store suites.
needsPostgres.describe('PostgreSQL store', () => {
  contract('postgres', () => tempPostgres(PG_URL ?? ''));
});
