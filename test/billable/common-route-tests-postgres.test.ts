import { sharedPostgres } from '../helpers/shared-database.js';
import { PG_URL } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';
import { commonRouteTests } from './common-route-tests.js';

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
needsPostgres.describe('shared route tests of every billable route and MCP tool, on PostgreSQL', () => {
  commonRouteTests(() => sharedPostgres(PG_URL ?? ''));
});
