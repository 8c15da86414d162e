/**
 * What a refresh announces to webhooks (spec section 6, docs/refresh.md "Change rules", ADR 0030). Pure: the store
 * calls it inside the save transaction with the record being replaced and the perceptual signatures of the files
 * both records list (kept per asset content key when the crawl analysed them).
 *
 * Marks are compared by what they look like, not by their bytes: a logo re-exported, re-encoded or resized is the
 * same mark, so it announces nothing. Names are compared normalized (case, accents, punctuation, legal suffixes).
 */
import type { Brand, Logo } from './brand.js';
import { BRAND_CHANGE_FIELDS, BRAND_REBRANDED, BRAND_UPDATED, brandChanges } from './brand-changes.js';
import type { BrandAnnouncement, BrandChange } from './brand-changes.js';

/** The perceptual signature of one stored file: a 64-bit dHash of its rendering and its aspect ratio. */
export interface MarkSignature {
  /** 16 hex digits (media/perceptual-hash.ts: 9×8 greyscale on a mid-grey backdrop). */
  dhash: string;
  /** width / height, or null when the file declares no size (an SVG without one). */
  aspect: number | null;
}

/** Signatures by asset content key (`<sha256>.<ext>`). */
export type MarkSignatures = ReadonlyMap<string, MarkSignature>;

/**
 * Two renderings at most this many of 64 bits apart are the same mark. Re-encoding changes 0 bits, resizing 1 or 2
 * (box-averaged 9×8 grid). Wide wordmarks are squeezed into that grid, so two different ones can come close: a
 * 5.5:1 wordmark with another mark and another name measured 6 bits from the old one (test/webhooks/
 * change-detection.test.ts), hence the tight bound.
 */
export const SAME_MARK_MAX_BITS = 4;
/** Aspect ratios within ±15 % (log scale) can be the same mark; a wordmark that gained a word cannot. */
const SAME_MARK_MAX_LOG_ASPECT = Math.log(1.15);

const CONTENT_KEY = /([0-9a-f]{64}\.[a-z0-9]+)$/i;

/** The content key of a format's `src` (bare key or the end of a URL); the whole src when it has none. */
export function contentKeyOf(src: string): string {
  const path = src.split(/[?#]/, 1)[0] ?? src;
  return CONTENT_KEY.exec(path)?.[1]?.toLowerCase() ?? src;
}

/** Every content key a record's logos list (what the store looks signatures up for). */
export function logoContentKeys(brand: Brand): string[] {
  return [...new Set(brand.logos.flatMap((logo) => logo.formats.map((f) => contentKeyOf(f.src))))];
}

/** Number of differing bits between two 64-bit hashes in hex (0–64); media/perceptual-hash.ts makes them. */
export function hammingDistance(a: string, b: string): number {
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (diff > 0n) {
    count += Number(diff & 1n);
    diff >>= 1n;
  }
  return count;
}

function sameSignature(a: MarkSignature, b: MarkSignature): boolean {
  if (a.aspect !== null && b.aspect !== null && Math.abs(Math.log(a.aspect / b.aspect)) > SAME_MARK_MAX_LOG_ASPECT) return false;
  return hammingDistance(a.dhash, b.dhash) <= SAME_MARK_MAX_BITS;
}

/**
 * Whether two logos show the same mark: a file in common, or any pair of their files with close signatures.
 * Files without a known signature (records saved before signatures were kept) count by their content only.
 */
export function sameMark(a: Logo, b: Logo, marks: MarkSignatures): boolean {
  const keysA = a.formats.map((f) => contentKeyOf(f.src));
  const keysB = new Set(b.formats.map((f) => contentKeyOf(f.src)));
  if (keysA.some((key) => keysB.has(key))) return true;
  const sigsB = [...keysB].flatMap((key) => marks.get(key) ?? []);
  return keysA.some((key) => {
    const sig = marks.get(key);
    return sig !== undefined && sigsB.some((other) => sameSignature(sig, other));
  });
}

/** True when every logo of `a` has its mark among `b` and the other way round (types and order ignored). */
function sameMarkSet(a: readonly Logo[], b: readonly Logo[], marks: MarkSignatures): boolean {
  const covered = (from: readonly Logo[], to: readonly Logo[]) => from.every((logo) => to.some((other) => sameMark(logo, other, marks)));
  return covered(a, b) && covered(b, a);
}

/**
 * Whether the logos other than the icon show the same marks before and after. A re-crawl keeps files the site
 * stopped serving as `other` (crawl/fields/logos/logo-history.ts): such an entry whose mark the previous record
 * showed under any type (a favicon re-exported at another size leaves its old file behind) is history, not a new
 * mark.
 */
function sameLogoMarks(previous: Brand, next: Brand, marks: MarkSignatures): boolean {
  const isIcon = (logo: Logo) => logo.type === 'icon';
  const before = previous.logos.filter((logo) => !isIcon(logo));
  const after = next.logos.filter((logo) => !isIcon(logo));
  const shown = (logo: Logo, among: readonly Logo[]) => among.some((other) => sameMark(logo, other, marks));
  const old = (logo: Logo) => shown(logo, before) || (logo.type === 'other' && shown(logo, previous.logos));
  return after.every(old) && before.every((logo) => shown(logo, next.logos));
}

/**
 * A new mark of `type`: both records have one, and none of the new ones shows a mark the old ones showed. A mark
 * appearing where there was none is an update, not a rebrand (nothing was replaced).
 */
function replacedMark(previous: Brand, next: Brand, type: Logo['type'], marks: MarkSignatures): boolean {
  const before = previous.logos.filter((logo) => logo.type === type);
  const after = next.logos.filter((logo) => logo.type === type);
  if (before.length === 0 || after.length === 0) return false;
  return !after.some((logo) => before.some((old) => sameMark(logo, old, marks)));
}

const LEGAL_SUFFIXES = new Set([
  'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'llc', 'llp', 'lp', 'ltd', 'limited', 'plc', 'gmbh', 'ag', 'kg',
  'sa', 'sas', 'sarl', 'srl', 'spa', 'bv', 'nv', 'oy', 'oyj', 'ab', 'as', 'asa', 'aps', 'kk', 'pty', 'pte', 'se', 'group', 'holdings',
]);

/** A name as compared: accents, case, punctuation, whitespace and trailing legal suffixes do not count. */
export function normalizedBrandName(name: string | null | undefined): string | null {
  const words = (name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  while (words.length > 1 && LEGAL_SUFFIXES.has(words[words.length - 1] ?? '')) words.pop();
  return words.length === 0 ? null : words.join(' ');
}

function renamed(previous: Brand, next: Brand): boolean {
  const before = normalizedBrandName(previous.name);
  const after = normalizedBrandName(next.name);
  return before !== null && after !== null && before !== after;
}

/**
 * The visible field families that changed. Logos and icons are compared as sets of marks (so a re-encoded file,
 * or an old logo now listed as `other` next to its identical successor, is no change); the other families as
 * brand-changes.ts compares them, except the name, compared normalized.
 */
export function visibleChanges(previous: Brand, next: Brand, marks: MarkSignatures): BrandChange[] {
  const content = new Set(brandChanges(previous, next));
  const isIcon = (logo: Logo) => logo.type === 'icon';
  const changed: Record<BrandChange, boolean> = {
    logos: !sameLogoMarks(previous, next, marks),
    icon: !sameMarkSet(previous.logos.filter(isIcon), next.logos.filter(isIcon), marks),
    name: normalizedBrandName(previous.name) !== normalizedBrandName(next.name),
    colors: content.has('colors'),
    descriptions: content.has('descriptions'),
    links: content.has('links'),
  };
  return BRAND_CHANGE_FIELDS.filter((field) => changed[field]);
}

/**
 * Spec 6: a refresh that finds a new logo together with a new icon, a new symbol or a new name. A new logo alone
 * does not count.
 */
export function isRebrand(previous: Brand, next: Brand, marks: MarkSignatures): boolean {
  if (!replacedMark(previous, next, 'logo', marks)) return false;
  return replacedMark(previous, next, 'icon', marks) || replacedMark(previous, next, 'symbol', marks) || renamed(previous, next);
}

/** The main logo clients show: the first of type `logo`, else the first symbol; null when there is neither. */
export function mainLogo(brand: Brand): Logo | null {
  return brand.logos.find((l) => l.type === 'logo') ?? brand.logos.find((l) => l.type === 'symbol') ?? null;
}

/**
 * What a save announces. Only refreshes announce: a first save (nothing to compare with, and nobody can be
 * subscribed to changes of a brand they never saw) and operator edits that keep the crawl time (claim,
 * set-industry, attached identifiers) announce nothing.
 */
export function announceBrandSave(previous: Brand | null, next: Brand, refreshed: boolean, marks: MarkSignatures): BrandAnnouncement | null {
  if (previous === null || !refreshed) return null;
  const changedFields = visibleChanges(previous, next, marks);
  if (changedFields.length === 0) return null;
  return {
    kind: isRebrand(previous, next, marks) ? BRAND_REBRANDED : BRAND_UPDATED,
    changedFields,
    previous: { name: previous.name, logo: mainLogo(previous) },
  };
}
