/** 0020 table (credit-lease-migration.ts). Imports nothing from schema.ts (which extends it). */
import type { UsageSource } from '../../domain/accounts.js';

/** Epoch milliseconds (as schema.ts's `Millis`). */
type Millis = number;

/**
 * 0020: credits a live process has leased from one source of an organization (ADR 0040). `credits` is what the
 * lease still holds: granted, minus what its holder's flushes turned into ledger entries. A row whose
 * `expires_at` has passed counts as zero (its holder stopped renewing it: it crashed or lost the database).
 */
export interface CreditLeasesTable {
  id: string;
  /** The holding process (one id per usage meter), for operators reading the table. */
  holder: string;
  org_id: string;
  source: UsageSource;
  /** The billing period key (`2026-03`) for quota and overage; '' for prepaid credits, which span periods. */
  period: string;
  credits: number;
  expires_at: Millis;
  created_at: Millis;
}

export interface CreditLeaseTables {
  credit_leases: CreditLeasesTable;
}
