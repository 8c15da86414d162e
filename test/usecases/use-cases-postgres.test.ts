import { describe } from 'vitest';
import { NEEDS_POSTGRES, PG_URL, tempPostgres } from '../store/temp-database.js';
import { useCaseSuite } from './use-cases.suite.js';

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
describe.skipIf(PG_URL === undefined)('use cases on PostgreSQL', NEEDS_POSTGRES, () => {
  useCaseSuite('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
