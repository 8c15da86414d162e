/**
 * The palette render is queued by a brand save hook (palette-render-scheduler.ts): inside the transaction that saves
 * the crawl's record and evidence, so the job exists exactly when the save committed. Real SQLite and PostgreSQL.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PALETTE_EVIDENCE_VERSION, type PaletteEvidence } from '../../src/domain/palette.js';
import { JOB_NAMES } from '../../src/jobs/queue.js';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { PaletteRenderScheduler } from '../../src/palette/palette-render-scheduler.js';
import { silentLogger } from '../../src/platform/logger.js';
import { KyselyBrandStore } from '../../src/brands/store/kysely-brand-store.js';
import type { StoredBrand } from '../../src/brands/brand-store.js';
import type { BrandSaveHook } from '../../src/brands/brand-save-hooks.js';
import { sampleBrand } from '../store/sample-brand.js';
import { PG_URL, tempPostgres, tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { always, needsPostgres, type Gated } from '../helpers/optional.js';

const T0 = new Date('2030-02-03T04:05:06.000Z');
const CSS: PaletteEvidence = { version: PALETTE_EVIDENCE_VERSION, source: 'css', css: {}, elements: [], tokens: [], gradients: [], pairs: [], themes: {}, signals: [] };

class AbortSave extends Error {}

function schedulerSuite(name: string, open: () => Promise<TempDatabase>, gate: Gated = always): void {
  gate.describe(`palette render queued in the brand save: ${name}`, () => {
    let temp: TempDatabase;
    let store: KyselyBrandStore;
    let queue: SqlJobQueue;
    /** The store keeps this list by reference (as main/product-stores.ts does): a test may add a hook after it. */
    let hooks: BrandSaveHook[];

    beforeEach(async () => {
      temp = await open();
      await temp.migrate();
      queue = new SqlJobQueue(temp.database);
      hooks = [new PaletteRenderScheduler(queue, silentLogger(), { enabled: true, maxDepth: 100 })];
      store = new KyselyBrandStore(temp.database, { saveHooks: hooks });
    });
    afterEach(async () => {
      await temp.cleanup();
    });

    const stored = (domain: string): StoredBrand => ({ brand: sampleBrand(domain), status: 'indexed', crawledAt: T0, createdAt: T0, updatedAt: T0 });
    const renders = () => temp.db.selectFrom('jobs').select(['key', 'payload', 'owner']).where('name', '=', JOB_NAMES.paletteRender).execute();

    it('a committed save with CSS evidence leaves exactly one render job, the operator\'s own', async () => {
      const brand = stored('committed.test');
      await store.saveBrand(brand, [{ kind: 'domain', value: 'committed.test' }], { paletteEvidence: CSS });
      expect(await renders()).toEqual([
        { key: `${brand.brand.id}@${T0.getTime()}`, payload: JSON.stringify({ brandId: brand.brand.id, domain: 'committed.test', observedAt: T0.getTime() }), owner: null },
      ]);
    });

    it('a save that rolls back after the hook ran leaves no job (and no brand)', async () => {
      hooks.push({ onBrandSaved: () => Promise.reject(new AbortSave()) });
      const brand = stored('rolledback.test');
      await expect(store.saveBrand(brand, [{ kind: 'domain', value: 'rolledback.test' }], { paletteEvidence: CSS })).rejects.toBeInstanceOf(AbortSave);
      expect(await renders()).toEqual([]);
      expect(await temp.stores.brands.getBrand(brand.brand.id)).toBeNull();
    });

    it('queues nothing for rendered evidence or a save without evidence', async () => {
      await store.saveBrand(stored('rendered.test'), [], { paletteEvidence: { ...CSS, source: 'rendered' } });
      await store.saveBrand(stored('plain.test'), []);
      expect(await renders()).toEqual([]);
    });
  });
}

schedulerSuite('SQLite', tempSqlite);
schedulerSuite('PostgreSQL', () => tempPostgres(PG_URL ?? ''), needsPostgres);
