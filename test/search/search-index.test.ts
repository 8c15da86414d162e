/** The search index's store contract (search-index.contract.ts) on SQLite and, when one answers, PostgreSQL. */
import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';
import { searchIndexContract } from './search-index.contract.js';

searchIndexContract('SQLite (temp file)', tempSqlite);

needsPostgres.describe('PostgreSQL search index', () => {
  searchIndexContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
