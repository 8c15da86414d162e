/** The search index's store over the kernel's Database (SQLite or PostgreSQL; search-rows.ts, ADR 0033). */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import type { SearchIndexStore } from '../search-store.js';
import * as search from './search-rows.js';
import type { SearchQueryTables } from './search-tables.js';

export class KyselySearchStore implements SearchIndexStore {
  private readonly db: Kysely<SearchQueryTables>;
  private readonly quirks: DialectQuirks;

  constructor(database: Database) {
    this.db = database.tables<SearchQueryTables>();
    this.quirks = database.quirks;
  }

  searchNameCandidates: SearchIndexStore['searchNameCandidates'] = (query) => search.searchNameCandidates(this.db, this.quirks, query);
  similarNameCandidates: SearchIndexStore['similarNameCandidates'] = (norm, limit) => search.similarNameCandidates(this.db, this.quirks, norm, limit);
  searchLookups: SearchIndexStore['searchLookups'] = (brandIds) => search.brandLookups(this.db, brandIds);
  syncSearchReferenceNames: SearchIndexStore['syncSearchReferenceNames'] = (force = false) =>
    search.syncReferenceNames(this.db, (fn) => this.quirks.writeTransaction(this.db, fn), force);
}
