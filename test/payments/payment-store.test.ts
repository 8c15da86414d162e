/** The payments store contract on a SQLite temp file and, when one answers, a fresh PostgreSQL schema. */
import { describe } from 'vitest';
import { paymentStoreContract } from './payment-store.contract.js';
import { NEEDS_POSTGRES, PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';

paymentStoreContract('SQLite (temp file)', tempSqlite);

describe.skipIf(PG_URL === undefined)('PostgreSQL store', NEEDS_POSTGRES, () => {
  paymentStoreContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
