/** The context's store over the kernel's Database (SQLite or PostgreSQL; context-rows.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ContextStore } from '../context-store.js';
import * as contexts from './context-rows.js';
import type { BrandContextTables } from './context-tables.js';

export class KyselyContextStore implements ContextStore {
  private readonly db: Kysely<BrandContextTables>;

  constructor(database: Database) {
    this.db = database.tables<BrandContextTables>();
  }

  saveContextEvidence: ContextStore['saveContextEvidence'] = (brandId, evidence, observedAt) => contexts.saveContextEvidence(this.db, brandId, evidence, observedAt);
  getStoredContext: ContextStore['getStoredContext'] = (brandId) => contexts.getStoredContext(this.db, brandId);
  saveContextProfile: ContextStore['saveContextProfile'] = (brandId, profile, observedAt, builtAt) =>
    contexts.saveContextProfile(this.db, brandId, profile, observedAt, builtAt);
}
