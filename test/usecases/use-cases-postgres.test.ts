import { PG_URL, tempPostgres } from '../store/temp-database.js';
import { useCaseSuite } from './use-cases.suite.js';
import { needsPostgres } from '../helpers/optional.js';

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
needsPostgres.describe('use cases on PostgreSQL', () => {
  useCaseSuite('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
