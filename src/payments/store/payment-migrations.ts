/** The payments product's migrations (src/db/migrations.ts): pay-per-request payments and standing access, the same names and bodies as when they shipped. */
import type { ProductMigrations } from '../../db/migrations.js';
import { standingAccessMigration } from './access-migration.js';
import { paymentsMigration } from './payment-migration.js';

export const paymentMigrations: ProductMigrations = {
  '0010_payments': paymentsMigration,
  '0012_standing_access': standingAccessMigration,
};
