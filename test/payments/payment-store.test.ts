/** The payments store contract (payment-store.contract.ts) on a SQLite temp file and, when one answers, a fresh PostgreSQL schema. */
import { paymentStoreContract } from './payment-store.contract.js';
import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

paymentStoreContract('SQLite (temp file)', tempSqlite);

needsPostgres.describe('PostgreSQL payments store', () => {
  paymentStoreContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
