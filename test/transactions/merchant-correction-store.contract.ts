/**
 * The merchant corrections' store contract (MerchantCorrectionStore, store/kysely-merchant-correction-store.ts), run
 * on every backend against a real database: scoping, replacement of the correction that applies to the same key and
 * country (kept in the audit trail), removal kept with who and when, paging newest first, the lookup by scopes, keys
 * and country, the bounds of a scope, and concurrent writers of one scope taking turns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { OPERATOR_SCOPE, type MerchantCorrection } from '../../src/transactions/corrections/merchant-correction.js';
import type { MerchantCorrectionStore } from '../../src/transactions/corrections/merchant-correction-store.js';
import type { TempDatabase } from '../store/temp-database.js';

const T0 = new Date('2026-03-04T05:06:07.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const NO_LIMITS = null;

export function merchantCorrectionStoreContract(name: string, open: () => Promise<TempDatabase>): void {
  describe(`Store contract, merchant corrections: ${name}`, () => {
    let temp: TempDatabase;
    let store: MerchantCorrectionStore;

    beforeAll(async () => {
      temp = await open();
      await temp.migrate();
      store = temp.stores.merchantCorrections;
    });
    afterAll(async () => temp?.cleanup());

    /** A scope of its own per test: the suite may run shuffled. */
    const scope = (): string => newId('org');

    function correction(scopeId: string, overrides: Partial<MerchantCorrection> = {}): MerchantCorrection {
      return {
        id: newId('mco'),
        scope: scopeId,
        label: 'SQ *BLUE BOTTLE COF 4',
        key: 'blue bottle cof',
        countryCode: 'US',
        domain: 'bluebottlecoffee.com',
        createdBy: 'key_a',
        createdAt: T0,
        removedBy: null,
        removedAt: null,
        ...overrides,
      };
    }

    async function add(c: MerchantCorrection): Promise<MerchantCorrection> {
      const result = await store.addMerchantCorrection(c, NO_LIMITS);
      if (!('added' in result)) throw new Error(`refused: ${result.refused}`);
      return result.added;
    }

    it('adds and finds a correction by scope, key and country; every-country rows match any country', async () => {
      const org = scope();
      const us = await add(correction(org));
      const any = await add(correction(org, { key: 'walmart', label: 'WAL-MART #1234', countryCode: null, domain: null }));
      expect(us).toEqual(correction(org, { id: us.id }));
      expect(await store.findMerchantCorrections([org], ['blue bottle cof'], 'US')).toEqual([us]);
      expect(await store.findMerchantCorrections([org], ['blue bottle cof'], 'GB')).toEqual([]);
      expect(await store.findMerchantCorrections([org], ['walmart', 'nothing'], 'GB')).toEqual([any]);
      expect(any).toMatchObject({ countryCode: null, domain: null });
      // Another scope's corrections are not found; both scopes are read at once when asked.
      expect(await store.findMerchantCorrections([scope(), OPERATOR_SCOPE], ['blue bottle cof'], 'US')).toEqual([]);
      const operator = await add(correction(OPERATOR_SCOPE, { key: `operator ${org}` }));
      expect(await store.findMerchantCorrections([org, OPERATOR_SCOPE], ['blue bottle cof', `operator ${org}`], 'US')).toEqual(expect.arrayContaining([us, operator]));
      expect(await store.findMerchantCorrections([], ['blue bottle cof'], 'US')).toEqual([]);
      expect(await store.findMerchantCorrections([org], [], 'US')).toEqual([]);
    });

    it('replaces the correction of the same scope, key and country in one write, keeping it removed by the same actor', async () => {
      const org = scope();
      const first = await add(correction(org));
      const otherCountry = await add(correction(org, { countryCode: 'GB', createdAt: at(1) }));
      const result = await store.addMerchantCorrection(correction(org, { domain: 'other.example', createdBy: 'usr_b', createdAt: at(2) }), NO_LIMITS);
      if (!('added' in result)) throw new Error('refused');
      expect(result.replaced).toEqual({ ...first, removedAt: at(2), removedBy: 'usr_b' });
      expect(await store.findMerchantCorrections([org], ['blue bottle cof'], 'US')).toEqual([result.added]);
      // The other country's correction still applies; the replaced one is in the audit trail only.
      expect(await store.findMerchantCorrections([org], ['blue bottle cof'], 'GB')).toEqual([otherCountry]);
      const all = await store.listMerchantCorrections(org, { includeRemoved: true, after: null, limit: 10 });
      expect(all.map((c) => c.id)).toEqual([result.added.id, otherCountry.id, first.id]);
      expect(all[2]).toMatchObject({ removedBy: 'usr_b', removedAt: at(2) });
    });

    it('removes only the scope\'s applying correction, once, and keeps the row with who and when', async () => {
      const org = scope();
      const c = await add(correction(org));
      expect(await store.removeMerchantCorrection(scope(), c.id, 'key_x', at(5))).toBeNull();
      expect(await store.removeMerchantCorrection(org, 'mco_missing', 'key_x', at(5))).toBeNull();
      const removed = await store.removeMerchantCorrection(org, c.id, 'key_b', at(5));
      expect(removed).toEqual({ ...c, removedBy: 'key_b', removedAt: at(5) });
      expect(await store.removeMerchantCorrection(org, c.id, 'key_b', at(6))).toBeNull();
      expect(await store.findMerchantCorrections([org], [c.key], 'US')).toEqual([]);
      expect(await store.listMerchantCorrections(org, { includeRemoved: false, after: null, limit: 10 })).toEqual([]);
      expect(await store.listMerchantCorrections(org, { includeRemoved: true, after: null, limit: 10 })).toEqual([removed]);
    });

    it('pages newest first (created_at desc, id desc) from a position', async () => {
      const org = scope();
      const made: MerchantCorrection[] = [];
      // Two at each instant, so the id breaks ties.
      for (let i = 0; i < 7; i++) made.push(await add(correction(org, { key: `merchant ${i}`, createdAt: at(Math.floor(i / 2) * 1000) })));
      const expected = [...made].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((c) => c.id);
      const seen: string[] = [];
      let after = null;
      for (;;) {
        const page: MerchantCorrection[] = await store.listMerchantCorrections(org, { includeRemoved: false, after, limit: 3 });
        seen.push(...page.map((c) => c.id));
        const last = page[page.length - 1];
        if (page.length < 3 || !last) break;
        after = { createdAt: last.createdAt, id: last.id };
      }
      expect(seen).toEqual(expected);
    });

    it('refuses past the applying bound (a replacement still passes) and past the additions of the window', async () => {
      const org = scope();
      const limits = { maxActive: 2, maxAdded: 4, windowMs: 60_000 };
      const ok = async (c: MerchantCorrection) => expect('added' in (await store.addMerchantCorrection(c, limits))).toBe(true);
      await ok(correction(org, { key: 'a' }));
      await ok(correction(org, { key: 'b', createdAt: at(1000) }));
      expect(await store.addMerchantCorrection(correction(org, { key: 'c', createdAt: at(2000) }), limits)).toEqual({ refused: 'too_many' });
      await ok(correction(org, { key: 'b', domain: 'replaced.example', createdAt: at(3000) }));
      const removed = (await store.listMerchantCorrections(org, { includeRemoved: false, after: null, limit: 1 }))[0];
      await store.removeMerchantCorrection(org, removed?.id ?? '', 'key_a', at(3500));
      await ok(correction(org, { key: 'c', createdAt: at(4000) }));
      // Four additions since T0 within a minute: the fifth waits until the oldest leaves the window.
      expect(await store.addMerchantCorrection(correction(org, { key: 'a', domain: 'again.example', createdAt: at(5000) }), limits)).toEqual({ refused: 'rate', oldestAt: T0 });
      await ok(correction(org, { key: 'a', domain: 'later.example', createdAt: at(60_001) }));
    });

    it('makes concurrent writers of one scope take turns: one correction applies per key, the bound is never passed', async () => {
      const org = scope();
      // PostgreSQL: two pools of connections. SQLite: one connection per process, whose writes take turns already (a
      // second handle in this thread would block it while it waits for the write lock held across an await).
      const stores = temp.dialect === 'postgres' ? [store, (await temp.openPeer()).stores.merchantCorrections] : [store];
      const sameKey = await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % stores.length]?.addMerchantCorrection(correction(org, { domain: `d${i}.example`, createdAt: at(i) }), NO_LIMITS)));
      expect(sameKey.every((r) => r !== undefined && 'added' in r)).toBe(true);
      expect(await store.findMerchantCorrections([org], ['blue bottle cof'], 'US')).toHaveLength(1);
      expect(await store.listMerchantCorrections(org, { includeRemoved: true, after: null, limit: 20 })).toHaveLength(8);

      const bounded = scope();
      const limits = { maxActive: 3, maxAdded: 100, windowMs: 60_000 };
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => stores[i % stores.length]?.addMerchantCorrection(correction(bounded, { key: `k${i}` }), limits)));
      expect(results.filter((r) => r !== undefined && 'added' in r)).toHaveLength(3);
      expect(await store.listMerchantCorrections(bounded, { includeRemoved: true, after: null, limit: 20 })).toHaveLength(3);
    });
  });
}
