import { describe } from 'vitest';
import { sharedSqlite } from '../helpers/shared-database.js';
import { commonRouteTests } from './common-route-tests.js';

describe('shared route tests of every billable route and MCP tool, on SQLite', () => {
  commonRouteTests(sharedSqlite);
});
