/** The merchant corrections' store contract on a SQLite temp file and, when one answers, a fresh PostgreSQL schema. */
import { merchantCorrectionStoreContract } from './merchant-correction-store.contract.js';
import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

merchantCorrectionStoreContract('SQLite (temp file)', tempSqlite);

needsPostgres.describe('PostgreSQL merchant corrections store', () => {
  merchantCorrectionStoreContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
