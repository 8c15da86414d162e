/** The merchant corrections' store over the kernel's Database (SQLite or PostgreSQL; issue 34, ADR 0053). */
import type { Kysely, Selectable } from 'kysely';
import { fromMillis, fromNullableMillis, toMillis } from '../../../db/column-codec.js';
import type { Database } from '../../../db/database.js';
import { CURRENT_SCHEMA, type DialectQuirks } from '../../../db/dialect-quirks.js';
import { ANY_COUNTRY, type MerchantCorrection } from '../merchant-correction.js';
import type { AddCorrectionResult, CorrectionLimits, CorrectionListQuery, MerchantCorrectionStore } from '../merchant-correction-store.js';
import type { MerchantCorrectionsTable, MerchantCorrectionTables } from './merchant-correction-tables.js';

function correctionOf(row: Selectable<MerchantCorrectionsTable>): MerchantCorrection {
  return {
    id: row.id,
    scope: row.scope,
    label: row.label,
    key: row.key,
    countryCode: row.country === ANY_COUNTRY ? null : row.country,
    domain: row.domain,
    createdBy: row.created_by,
    createdAt: fromMillis(row.created_at),
    removedBy: row.removed_by,
    removedAt: fromNullableMillis(row.removed_at),
  };
}

export class KyselyMerchantCorrectionStore implements MerchantCorrectionStore {
  private readonly db: Kysely<MerchantCorrectionTables>;
  private readonly quirks: DialectQuirks;

  constructor(database: Database) {
    this.db = database.tables<MerchantCorrectionTables>();
    this.quirks = database.quirks;
  }

  addMerchantCorrection(correction: MerchantCorrection, limits: CorrectionLimits | null): Promise<AddCorrectionResult> {
    const country = correction.countryCode ?? ANY_COUNTRY;
    const at = toMillis(correction.createdAt);
    return this.quirks.writeTransaction(this.db, async (trx) => {
      // A scope's writes take turns (PostgreSQL; SQLite's write transaction already excludes every other writer): two
      // adds of one key never both apply, and never both pass the last place of a bound.
      await this.quirks.transactionLock(trx as Kysely<unknown>, { name: ['brandbase.merchant_corrections'], subname: [CURRENT_SCHEMA, ':', correction.scope] });
      const same = trx.selectFrom('merchant_corrections').selectAll().where('scope', '=', correction.scope).where('key', '=', correction.key).where('country', '=', country).where('removed_at', 'is', null);
      const previous = await same.executeTakeFirst();
      if (limits !== null) {
        const applying = await trx
          .selectFrom('merchant_corrections')
          .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
          .where('scope', '=', correction.scope)
          .where('removed_at', 'is', null)
          .executeTakeFirstOrThrow();
        // A replacement does not add to what applies.
        if (previous === undefined && Number(applying.n) >= limits.maxActive) return { refused: 'too_many' };
        const recent = await trx
          .selectFrom('merchant_corrections')
          .select((eb) => [eb.fn.countAll<number | string | bigint>().as('n'), eb.fn.min('created_at').as('oldest')])
          .where('scope', '=', correction.scope)
          .where('created_at', '>', at - limits.windowMs)
          .executeTakeFirstOrThrow();
        if (Number(recent.n) >= limits.maxAdded) return { refused: 'rate', oldestAt: fromMillis(recent.oldest ?? at) };
      }
      if (previous !== undefined) {
        await trx.updateTable('merchant_corrections').set({ removed_at: at, removed_by: correction.createdBy }).where('id', '=', previous.id).execute();
      }
      await trx
        .insertInto('merchant_corrections')
        .values({ id: correction.id, scope: correction.scope, label: correction.label, key: correction.key, country, domain: correction.domain, created_by: correction.createdBy, created_at: at, removed_by: null, removed_at: null })
        .execute();
      const replaced = previous === undefined ? null : { ...correctionOf(previous), removedAt: correction.createdAt, removedBy: correction.createdBy };
      return { added: { ...correction, removedAt: null, removedBy: null }, replaced };
    });
  }

  async removeMerchantCorrection(scope: string, id: string, removedBy: string, at: Date): Promise<MerchantCorrection | null> {
    const row = await this.db
      .updateTable('merchant_corrections')
      .set({ removed_at: toMillis(at), removed_by: removedBy })
      .where('scope', '=', scope)
      .where('id', '=', id)
      .where('removed_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? null : correctionOf(row);
  }

  async listMerchantCorrections(scope: string, query: CorrectionListQuery): Promise<MerchantCorrection[]> {
    let select = this.db.selectFrom('merchant_corrections').selectAll().where('scope', '=', scope);
    if (!query.includeRemoved) select = select.where('removed_at', 'is', null);
    const after = query.after;
    if (after !== null) {
      const ms = toMillis(after.createdAt);
      select = select.where((eb) => eb.or([eb('created_at', '<', ms), eb.and([eb('created_at', '=', ms), eb('id', '<', after.id)])]));
    }
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map(correctionOf);
  }

  async findMerchantCorrections(scopes: readonly string[], keys: readonly string[], countryCode: string): Promise<MerchantCorrection[]> {
    if (scopes.length === 0 || keys.length === 0) return [];
    const rows = await this.db
      .selectFrom('merchant_corrections')
      .selectAll()
      .where('scope', 'in', scopes)
      .where('key', 'in', keys)
      .where('country', 'in', [countryCode, ANY_COUNTRY])
      .where('removed_at', 'is', null)
      .execute();
    return rows.map(correctionOf);
  }
}
