import { describe } from 'vitest';
import { NEEDS_POSTGRES, PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { referenceDataContract } from './reference-data.contract.js';

referenceDataContract('SQLite (temp file)', tempSqlite);

describe.skipIf(PG_URL === undefined)('PostgreSQL reference data', NEEDS_POSTGRES, () => {
  referenceDataContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
