/** The logo evidence's store over the kernel's Database (SQLite or PostgreSQL; logo-evidence-rows.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { LogoEvidenceStore } from '../logo-evidence-store.js';
import { getLogoEvidence } from './logo-evidence-rows.js';
import type { LogoEvidenceTables } from './logo-evidence-tables.js';

export class KyselyLogoEvidenceStore implements LogoEvidenceStore {
  private readonly db: Kysely<LogoEvidenceTables>;

  constructor(database: Database) {
    this.db = database.tables<LogoEvidenceTables>();
  }

  getLogoEvidence: LogoEvidenceStore['getLogoEvidence'] = (brandId) => getLogoEvidence(this.db, brandId);
}
