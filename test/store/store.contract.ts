/**
 * What is left of the Store contract once its products' parts moved to their products (issue 30; billing's:
 * test/billing/billing-store.contract.ts): the facade's lifecycle. Every backend runs it against a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import { newId } from '../../src/domain/ids.js';

const T0 = new Date('2024-05-06T07:08:09.123Z');

export function storeContract(name: string, open: () => Promise<{ migrate(): Promise<void>; database: Database; stores: { billing: BillingStore }; cleanup: () => Promise<void> }>): void {
  describe(`Store contract: ${name}`, () => {
    let migrate: () => Promise<void>;
    let database: Database;
    let billing: BillingStore;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      let stores: { billing: BillingStore };
      ({ migrate, database, stores, cleanup } = await open());
      billing = stores.billing;
      await migrate();
    });
    afterAll(async () => {
      await cleanup();
    });

    describe('lifecycle', () => {
      it('migrate is idempotent and keeps data', async () => {
        const org = await billing.createOrganization({ id: newId('org'), name: 'Acme Inc', plan: 'free', quota: 500, createdAt: new Date(T0.getTime() + 7) });
        await migrate();
        await migrate();
        expect(await billing.getOrganization(org.id)).toEqual(org);
      });

      it('answers ping', async () => {
        await expect(database.ping()).resolves.toBeUndefined();
      });
    });
  });
}
