import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { referenceDataContract } from './reference-data.contract.js';
import { needsPostgres } from '../helpers/optional.js';

referenceDataContract('SQLite (temp file)', tempSqlite);

needsPostgres.describe('PostgreSQL reference data', () => {
  referenceDataContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
