/**
 * 0023: an insertion sequence for credit grants, so that grants written in the same millisecond (a purchase and an
 * operator's grant, say) are listed in the order they were written, never in the order of their random ids.
 * Existing rows are numbered by (created_at, id), the order they were listed in before.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const creditGrantSeqMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('credit_grants').addColumn('seq', 'bigint').execute();
    await sql`update credit_grants set seq = (select count(*) from credit_grants g
      where g.created_at < credit_grants.created_at or (g.created_at = credit_grants.created_at and g.id <= credit_grants.id))`.execute(db);
  },
};
