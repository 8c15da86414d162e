/** The palette store's contract (palette-store.contract.ts) on SQLite and, when one answers, PostgreSQL. */
import { describe } from 'vitest';
import { NEEDS_POSTGRES, PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { paletteStoreContract } from './palette-store.contract.js';

paletteStoreContract('SQLite (temp file)', tempSqlite);

describe.skipIf(PG_URL === undefined)('PostgreSQL palette store', NEEDS_POSTGRES, () => {
  paletteStoreContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
