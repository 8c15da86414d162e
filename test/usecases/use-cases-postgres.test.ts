import { describe } from 'vitest';
import { PG_URL, tempPostgres } from '../store/temp-database.js';
import { useCaseSuite } from './use-cases.suite.js';

// Runs when BRANDBASE_TEST_PG_URL points at a PostgreSQL the suite may create and drop schemas in.
describe.skipIf(PG_URL === undefined)('use cases on PostgreSQL', () => {
  useCaseSuite('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
