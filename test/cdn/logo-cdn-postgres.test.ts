import { describe } from 'vitest';
import { sharedPostgres } from '../helpers/shared-database.js';
import { NEEDS_POSTGRES, PG_URL } from '../store/temp-database.js';
import { logoCdnSuite } from './logo-cdn.suite.js';

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
describe.skipIf(PG_URL === undefined)('logo CDN on PostgreSQL', NEEDS_POSTGRES, () => {
  logoCdnSuite(async () => {
    const db = await sharedPostgres(PG_URL ?? '');
    return { env: db.env, cleanup: () => db.cleanup() };
  });
});
