/**
 * The brand quality score (spec 2.1): thirds of [0, 1]; the lower third means "probably not a real brand".
 */
import type { Brand } from './brand.js';
import { isNeutral } from './color-math.js';

export type QualityInput = Pick<
  Brand,
  'name' | 'description' | 'longDescription' | 'logos' | 'colors' | 'fonts' | 'links' | 'images' | 'company' | 'claimed'
> & {
  /** When the record was built from the website. */
  crawledAt: Date;
  /** The time the score is computed at. */
  now: Date;
};

/** Weights of the evidence terms; they sum to 1. */
const WEIGHTS = {
  name: 0.1,
  description: 0.1,
  longDescription: 0.03,
  primaryLogo: 0.16,
  icon: 0.12,
  colors: 0.06,
  accent: 0.06,
  fonts: 0.06,
  oneLink: 0.04,
  twoLinks: 0.04,
  banner: 0.05,
  /** Each of foundedYear, employees, location.countryCode, kind. */
  companyFact: 0.03,
  claimed: 0.06,
} as const;

/** Text that parking pages, default server pages and unfinished sites show instead of a brand. */
const PLACEHOLDER_TEXT =
  /\b(domain (is )?for sale|buy this domain|coming soon|under construction|parked (free|domain)|welcome to nginx|it works!|default web page|index of \/|lorem ipsum|website is for sale)\b/i;

/**
 * qualityScore = clamp01(evidence × freshness × placeholderFactor), rounded to 2 decimals.
 *
 * evidence (sum of weights, max 1):
 *   name 0.10 · description 0.10 · longDescription 0.03 ·
 *   a primary logo (type logo or symbol, with a format) 0.16 · an icon 0.12 ·
 *   at least one colour 0.06 + a chromatic accent 0.06 · at least one font 0.06 ·
 *   one social link 0.04 + a second 0.04 · a banner image 0.05 ·
 *   0.03 for each company fact present (foundedYear, employees, location.countryCode, kind) ·
 *   claimed 0.06.
 * freshness: 1 while the crawl is at most 30 days old, then linear down to 0.7 at 365 days, 0.7 after that
 *   (stale data drops a complete record from the upper third to the middle third within a year).
 * placeholderFactor: 0.5 when the name or description reads like a parking/default/unfinished page.
 *
 * Calibration: a page with only a <title> and a meta description scores 0.20 (lower third); a real brand site
 * with logo, icon, colours, fonts, links and a banner scores 0.79 even without company facts or a claim.
 */
export function qualityScore(input: QualityInput): number {
  const raw = evidence(input) * freshness(input.crawledAt, input.now) * placeholderFactor(input);
  return Math.round(Math.min(1, Math.max(0, raw)) * 100) / 100;
}

function evidence(b: QualityInput): number {
  const w = WEIGHTS;
  let sum = 0;
  if (b.name) sum += w.name;
  if (b.description) sum += w.description;
  if (b.longDescription) sum += w.longDescription;
  if (b.logos.some((l) => (l.type === 'logo' || l.type === 'symbol') && l.formats.length > 0)) sum += w.primaryLogo;
  if (b.logos.some((l) => l.type === 'icon' && l.formats.length > 0)) sum += w.icon;
  if (b.colors.length > 0) sum += w.colors;
  if (b.colors.some((c) => c.type === 'accent' && !isNeutral(c.hex))) sum += w.accent;
  if (b.fonts.length > 0) sum += w.fonts;
  if (b.links.length >= 1) sum += w.oneLink;
  if (b.links.length >= 2) sum += w.twoLinks;
  if (b.images.some((i) => i.type === 'banner' && i.formats.length > 0)) sum += w.banner;
  sum += w.companyFact * companyFacts(b.company);
  if (b.claimed) sum += w.claimed;
  return sum;
}

function companyFacts(c: Brand['company']): number {
  return [c.foundedYear, c.employees, c.location.countryCode, c.kind].filter((v) => v !== null).length;
}

const DAY_MS = 86_400_000;

function freshness(crawledAt: Date, now: Date): number {
  const ageDays = Math.max(0, (now.getTime() - crawledAt.getTime()) / DAY_MS);
  if (ageDays <= 30) return 1;
  if (ageDays >= 365) return 0.7;
  return 1 - (0.3 * (ageDays - 30)) / 335;
}

function placeholderFactor(b: QualityInput): number {
  return PLACEHOLDER_TEXT.test(`${b.name ?? ''} ${b.description ?? ''}`) ? 0.5 : 1;
}
