import { describe } from 'vitest';
import { sharedPostgres } from '../helpers/shared-database.js';
import { NEEDS_POSTGRES, PG_URL } from '../store/temp-database.js';
import { commonRouteTests } from './common-route-tests.js';

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
describe.skipIf(PG_URL === undefined)('shared route tests of every billable route and MCP tool, on PostgreSQL', NEEDS_POSTGRES, () => {
  commonRouteTests(() => sharedPostgres(PG_URL ?? ''));
});
