/** The standing-access store contract on a SQLite temp file and, when one answers, a fresh PostgreSQL schema. */
import { describe } from 'vitest';
import { accessStoreContract } from './access-store.contract.js';
import { NEEDS_POSTGRES, PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';

accessStoreContract('SQLite (temp file)', tempSqlite, false);

describe.skipIf(PG_URL === undefined)('PostgreSQL store', NEEDS_POSTGRES, () => {
  accessStoreContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''), true);
});
