import { sharedPostgres } from '../helpers/shared-database.js';
import { PG_URL } from '../store/temp-database.js';
import { logoCdnSuite } from './logo-cdn.suite.js';
import { needsPostgres } from '../helpers/optional.js';

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
needsPostgres.describe('logo CDN on PostgreSQL', () => {
  logoCdnSuite(async () => {
    const db = await sharedPostgres(PG_URL ?? '');
    return { env: db.env, cleanup: () => db.cleanup() };
  });
});
