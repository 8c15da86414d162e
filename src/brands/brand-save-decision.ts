/**
 * What a brand save means, decided from the record it replaces and the record it writes (issue 30: the rebrand
 * decision belongs to brands/, not to the SQL adapter). Pure: the brand store reads the previous record and the
 * mark signatures `markKeysToCompare` names inside its write transaction, calls `decideBrandSave`, and only writes
 * the rows of the `brand.saved` event it returns (docs/adr/0010-brand-events-outbox.md, ADR 0030).
 */
import { announceBrandSave, logoContentKeys } from '../domain/brand-announcement.js';
import type { MarkSignatures } from '../domain/brand-announcement.js';
import { brandSavedEvent } from '../domain/brand-changes.js';
import type { BrandSavedEvent } from '../domain/brand-changes.js';
import type { Brand } from '../domain/brand.js';

/** The parts of a stored record the decision reads (a StoredBrand is one). */
export interface SavedRecord {
  brand: Brand;
  /** When the record was built from the brand's website: a save with a later crawl time is a refresh. */
  crawledAt: Date;
}

/** A save replacing a record with a later crawl time; a first save or an operator edit keeping the time is not one. */
export function isRefresh(previous: SavedRecord | null, next: SavedRecord): boolean {
  return previous !== null && next.crawledAt.getTime() > previous.crawledAt.getTime();
}

/**
 * The content keys whose mark signatures the decision compares: every logo file of both records on a refresh,
 * none otherwise (only refreshes announce, so nothing else needs them).
 */
export function markKeysToCompare(previous: SavedRecord | null, next: SavedRecord): string[] {
  if (previous === null || !isRefresh(previous, next)) return [];
  return [...logoContentKeys(previous.brand), ...logoContentKeys(next.brand)];
}

/**
 * The `brand.saved` event of replacing `previous` (null: none) by `next` at `occurredAt`: what changed and what
 * webhooks announce (brand.updated / brand.rebranded, only on a refresh). `marks`: the signatures of the keys
 * `markKeysToCompare` named that are known.
 */
export function decideBrandSave(previous: SavedRecord | null, next: SavedRecord, marks: MarkSignatures, occurredAt: Date): BrandSavedEvent {
  const announce = announceBrandSave(previous?.brand ?? null, next.brand, isRefresh(previous, next), marks);
  return brandSavedEvent(previous?.brand ?? null, next.brand, occurredAt, announce);
}
