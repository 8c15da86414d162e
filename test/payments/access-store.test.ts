/** The standing-access store contract on a SQLite temp file and, when one answers, a fresh PostgreSQL schema. */
import { accessStoreContract } from './access-store.contract.js';
import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

accessStoreContract('SQLite (temp file)', tempSqlite, false);

needsPostgres.describe('PostgreSQL store', () => {
  accessStoreContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''), true);
});
