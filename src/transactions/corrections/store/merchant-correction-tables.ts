/** The merchant corrections' table (merchant-correction-migrations.ts; issue 34, ADR 0053). */
import type { Millis } from '../../../db/column-codec.js';

/** 0026: corrections of organizations and aliases of the operator; a removed row stays (the audit trail). */
export interface MerchantCorrectionsTable {
  id: string;
  /** An organization's id, or `operator` (OPERATOR_SCOPE). */
  scope: string;
  /** The descriptor as it was sent. */
  label: string;
  /** Its merchant words (correctionKey). */
  key: string;
  /** ISO 3166 alpha-2, or `*` (ANY_COUNTRY) for every country. */
  country: string;
  /** The merchant's registrable domain; null: the descriptor names no merchant. */
  domain: string | null;
  created_by: string;
  created_at: Millis;
  removed_by: string | null;
  removed_at: Millis | null;
}

export interface MerchantCorrectionTables {
  merchant_corrections: MerchantCorrectionsTable;
}
