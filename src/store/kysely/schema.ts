/**
 * Row types of the tables every Kysely-backed store shares (SQLite and PostgreSQL).
 *
 * Time: every timestamp column holds epoch milliseconds as an integer (`bigint` on PostgreSQL; SQLite gives a
 * `bigint` column INTEGER affinity). One representation on both dialects keeps comparisons, ordering and the
 * millisecond precision of `Date` exact without per-dialect parsing; the PostgreSQL pool parses int8 to a
 * number (see src/db/postgres/open-postgres-database.ts), which is safe for any date before the year 287396.
 *
 * JSON: documents (`brands.record`, `jobs.payload`) are stored as text on both dialects. Text round-trips
 * byte-for-byte (jsonb would reorder keys) and the store never queries inside them.
 */
import type { JobsTable } from '../../jobs/sql/jobs-table.js';
import type { BrandTables } from '../../brands/store/brand-tables.js';
import type { BillingTables } from '../../billing/store/billing-tables.js';

import type { Millis } from '../../db/column-codec.js';

export type { Millis };

/** The brands' tables (brands/store/brand-tables.ts) are here while facade code still reads them (search, brand events). */
export interface Database extends BrandTables, BillingTables {
  jobs: JobsTable;
}
