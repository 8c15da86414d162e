/**
 * The one place that lists every product's storage (issue 30): the migrations the kernel's runner is given, in the
 * order the parts of one name run (src/db/migrations.ts), and each product's store built on one Database.
 * Services (services.ts) and tests take their stores from here.
 */
import type { Database } from '../db/database.js';
import type { ProductMigrations } from '../db/migrations.js';
import type { BillingStore } from '../billing/billing-store.js';
import { billingMigrations } from '../billing/store/billing-migrations.js';
import { KyselyBillingStore } from '../billing/store/kysely-billing-store.js';
import { MIGRATIONS as STORE_MIGRATIONS } from '../store/kysely/migrations.js';

/** Every product's migrations; the store's tables not yet owned by a product are in store/kysely/migrations.ts. */
export const PRODUCT_MIGRATIONS: readonly ProductMigrations[] = [
  STORE_MIGRATIONS,
  billingMigrations,
];

/** Each product's storage over one Database (closing the Database closes them all). */
export interface ProductStores {
  billing: BillingStore;
}

export function openProductStores(database: Database): ProductStores {
  return {
    billing: new KyselyBillingStore(database),
  };
}

/**
 * One object with `extra`'s members and `base`'s others, for a consumer that still takes the ports of two products
 * as one object (a product's port with billing's `getOrganization`, say) while the Store facade is taken apart.
 */
export function joinStores<A extends object, B extends object>(base: A, extra: B): A & B {
  return new Proxy(base, {
    get(target, prop) {
      const owner: object = prop in extra ? extra : target;
      const value: unknown = Reflect.get(owner, prop);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(owner) : value;
    },
  }) as A & B;
}
