/** The palette store's contract (palette-store.contract.ts) on SQLite and, when one answers, PostgreSQL. */
import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';
import { paletteStoreContract } from './palette-store.contract.js';

paletteStoreContract('SQLite (temp file)', tempSqlite);

needsPostgres.describe('PostgreSQL palette store', () => {
  paletteStoreContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
