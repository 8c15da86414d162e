/**
 * The one place that lists every product's storage: the migrations the kernel runs (src/db/migrations.ts), in the
 * order the parts of one name run, and the stores built over one Database. Products not yet moved out of the Store
 * facade live in store/kysely/ (STORE_MIGRATIONS, KyselyStore) until they are.
 */
import type { Database } from '../db/database.js';
import type { ProductMigrations } from '../db/migrations.js';
import type { AccessStore } from '../payments/access-store.js';
import type { PaymentLedger, PaymentStore } from '../payments/payment-store.js';
import { KyselyAccessStore } from '../payments/store/kysely-access-store.js';
import { KyselyPaymentStore } from '../payments/store/kysely-payment-store.js';
import { paymentMigrations } from '../payments/store/payment-migrations.js';
import { MIGRATIONS as STORE_MIGRATIONS } from '../store/kysely/migrations.js';
import { purchasedAccountRows } from '../store/kysely/purchased-account-rows.js';

/** Every product's migrations, in the order their parts of one name run. */
export const PRODUCT_MIGRATIONS: readonly ProductMigrations[] = [STORE_MIGRATIONS, paymentMigrations];

/** Each product's storage over one Database. */
export interface ProductStores {
  payments: PaymentStore & PaymentLedger;
  access: AccessStore;
}

export function openProductStores(database: Database): ProductStores {
  return {
    payments: new KyselyPaymentStore(database),
    access: new KyselyAccessStore(database, purchasedAccountRows),
  };
}
