/**
 * The tables tests read with SQL of their own, as one Kysely type: the brands', billing's and the job queue's. The
 * program never types one handle with every product's tables (each product types its own: Database.tables<T>()).
 */
import type { JobsTable } from '../../src/jobs/sql/jobs-table.js';
import type { BrandTables } from '../../src/brands/store/brand-tables.js';
import type { BillingTables } from '../../src/billing/store/billing-tables.js';

export interface Database extends BrandTables, BillingTables {
  jobs: JobsTable;
}
