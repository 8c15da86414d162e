/**
 * What a save changed in a brand record, and the `brand.saved` event the store writes with every save
 * (docs/adr/0010-brand-events-outbox.md). Pure: the store calls `brandSavedEvent` inside the save transaction,
 * with the record it is about to replace.
 */
import type { Brand, Logo } from './brand.js';
import { newId } from './ids.js';

/** The field families a consumer can react to, in a stable order (events list changes in this order). */
export const BRAND_CHANGE_FIELDS = ['logos', 'icon', 'name', 'colors', 'descriptions', 'links'] as const;
export type BrandChange = (typeof BRAND_CHANGE_FIELDS)[number];

export const BRAND_SAVED = 'brand.saved';

/**
 * Written in the same transaction as the record it describes, so it exists exactly when the save committed.
 * It names what changed, not the new values: a consumer reads the brand when it handles the event (it may have
 * changed again since), which also makes handling an old or repeated event harmless.
 */
export interface BrandSavedEvent {
  /** `evt_` + 24 base32 characters. */
  id: string;
  type: typeof BRAND_SAVED;
  brandId: string;
  /** The brand's domain as saved. */
  domain: string;
  /** True when the save inserted the brand (no record with this id before). */
  created: boolean;
  /** Field families whose content differs from the previous record; on creation, those that are not empty. */
  changes: BrandChange[];
  /** Clock of the saving process when the save ran. */
  occurredAt: Date;
  /**
   * What webhooks announce for this save (spec section 6), decided inside the save transaction where the previous
   * record is at hand; null when the save is nothing to announce (a first save, no visible change).
   */
  announce: BrandAnnouncement | null;
}

export const BRAND_REBRANDED = 'brand.rebranded';
export const BRAND_UPDATED = 'brand.updated';
export type BrandAnnouncementKind = typeof BRAND_REBRANDED | typeof BRAND_UPDATED;

/** The webhook-facing meaning of a save: a rebrand (spec 6 rule) or another visible update. */
export interface BrandAnnouncement {
  kind: BrandAnnouncementKind;
  /** Field families that changed (BRAND_CHANGE_FIELDS order). */
  changedFields: BrandChange[];
  /** The brand's name and main logo before the save (null when it had none); payload of `brand.rebranded`. */
  previous: { name: string | null; logo: Logo | null };
}

/** The content key at the end of an asset reference (`<sha256>.<ext>`, bare or at the end of an URL). */
const CONTENT_KEY = /([0-9a-f]{64}\.[a-z0-9]+)$/i;

/** What identifies a file's content: its content key when it has one, the whole reference otherwise. */
function contentOf(src: string): string {
  const path = src.split(/[?#]/, 1)[0] ?? src;
  const key = CONTENT_KEY.exec(path)?.[1];
  return key === undefined ? src : key.toLowerCase();
}

/** A logo as compared: its type, theme and the set of its files' contents (tags, sizes and order are ignored). */
function logoSignature(logo: Logo): string {
  const files = [...new Set(logo.formats.map((f) => contentOf(f.src)))].sort();
  return JSON.stringify([logo.type, logo.theme, files]);
}

/** The set of logos of the selected kind, order-insensitive. */
function logoSet(brand: Brand, icons: boolean): string[] {
  const selected = brand.logos.filter((logo) => (logo.type === 'icon') === icons);
  return [...new Set(selected.map(logoSignature))].sort();
}

function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** One comparable value per field family; an empty family compares equal to `EMPTY`. */
const EMPTY = JSON.stringify(null);

function signatures(brand: Brand): Record<BrandChange, string> {
  const description = text(brand.description);
  const longDescription = text(brand.longDescription);
  const links = [...new Set(brand.links.map((l) => JSON.stringify([l.name, l.url.trim()])))].sort();
  const logos = logoSet(brand, false);
  const icons = logoSet(brand, true);
  return {
    logos: logos.length === 0 ? EMPTY : JSON.stringify(logos),
    icon: icons.length === 0 ? EMPTY : JSON.stringify(icons),
    name: JSON.stringify(text(brand.name)),
    // Ordered: the first color of a type is the one clients pick. Brightness follows from the hex.
    colors: brand.colors.length === 0 ? EMPTY : JSON.stringify(brand.colors.map((c) => [c.hex.toLowerCase(), c.type])),
    descriptions: description === null && longDescription === null ? EMPTY : JSON.stringify([description, longDescription]),
    links: links.length === 0 ? EMPTY : JSON.stringify(links),
  };
}

/**
 * The field families that differ between `previous` and `next`, in BRAND_CHANGE_FIELDS order. With no previous
 * record (a first save), every family that is not empty. Whitespace around texts and the order of logos, their
 * files and links do not count; a logo file counts by its content key, so moving files to another host is no change.
 */
export function brandChanges(previous: Brand | null, next: Brand): BrandChange[] {
  const after = signatures(next);
  const before = previous === null ? null : signatures(previous);
  return BRAND_CHANGE_FIELDS.filter((field) => (before === null ? after[field] !== EMPTY : before[field] !== after[field]));
}

/** `announce`: decided by brand-announcement.ts (the store has the signatures it needs); null when not given. */
export function brandSavedEvent(previous: Brand | null, next: Brand, occurredAt: Date, announce: BrandAnnouncement | null = null): BrandSavedEvent {
  return {
    id: newId('evt'),
    type: BRAND_SAVED,
    brandId: next.id,
    domain: next.domain,
    created: previous === null,
    changes: brandChanges(previous, next),
    occurredAt,
    announce,
  };
}
