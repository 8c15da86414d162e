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
  /** The brand's registrable domain: a name that matches it is consistency evidence. */
  domain?: string;
  /** An operator checked the record by hand (manual verification). */
  verified?: boolean;
};

/** Weights of the evidence terms; they sum to 1. */
const WEIGHTS = {
  name: 0.08,
  description: 0.08,
  longDescription: 0.03,
  primaryLogo: 0.15,
  icon: 0.11,
  colors: 0.05,
  accent: 0.05,
  fonts: 0.05,
  oneLink: 0.04,
  twoLinks: 0.04,
  banner: 0.04,
  /** Each of foundedYear, employees, location.countryCode, kind. */
  companyFact: 0.03,
  industry: 0.02,
  /** Consistency: the name matches the domain (a parked or hijacked page rarely names the domain's brand). */
  nameMatchesDomain: 0.04,
  claimed: 0.06,
  verified: 0.04,
} as const;

/** Text of domain-parking and for-sale pages: almost certainly not a brand. */
const PARKED_TEXT =
  /(domain (name )?(is |may be )?for sale|buy this domain|this domain (is|has been) (parked|registered)|parked (free|domain|by)|domain parking|make an offer|hugedomains|sedo\b|dan\.com|afternic|parkingcrew|bodis|related searches|this web page is parked|website is for sale)/i;
/** Text of default server pages and unfinished sites. */
const PLACEHOLDER_TEXT =
  /\b(coming soon|under construction|launching soon|welcome to nginx|it works!|default web page|apache2 (ubuntu|debian) default page|index of \/|lorem ipsum|site not configured|account suspended|future home of)/i;

/** True when the text reads like a parked, for-sale or placeholder page (also used to skip industry prediction). */
export function isPlaceholderText(text: string): boolean {
  return PARKED_TEXT.test(text) || PLACEHOLDER_TEXT.test(text);
}

/**
 * qualityScore = clamp01(evidence × freshness × placeholderFactor), rounded to 2 decimals. The thirds (spec 2.1):
 * below 1/3 the brand is likely not real, 1/3–2/3 is an OK record, above 2/3 a high-quality one.
 *
 * evidence (sum of weights, max 1):
 *   completeness: name 0.08 · description 0.08 · longDescription 0.03 · a primary logo (type logo or symbol,
 *     with a format) 0.15 · an icon 0.11 · at least one colour 0.05 + a chromatic accent 0.05 · a font 0.05 ·
 *     one social link 0.04 + a second 0.04 · a banner 0.04 · 0.03 for each company fact (foundedYear,
 *     employees, location.countryCode, kind) · an industry 0.02;
 *   consistency: the name matches the domain label 0.04;
 *   curation: claimed 0.06 · manually verified 0.04.
 * freshness (data recency): 1 while the crawl is at most 30 days old, then linear down to 0.7 at 365 days, 0.7
 *   after that: a complete record drops from the upper to the middle third within a year without a re-crawl.
 * placeholderFactor (domain evidence): 0.3 for a parked or for-sale domain, 0.5 for a placeholder or default
 *   server page ("coming soon", "welcome to nginx"), else 1.
 *
 * Calibration: a page with only a <title> and a meta description scores about 0.2 (lower third); a real brand
 * site with logo, icon, colours, fonts, links and a banner scores above 0.7 even without company facts or a
 * claim; a parked domain stays in the lower third whatever it carries.
 */
export function qualityScore(input: QualityInput): number {
  const raw = evidence(input) * freshness(input.crawledAt, input.now) * placeholderFactor(input);
  return Math.round(Math.min(1, Math.max(0, raw)) * 100) / 100;
}

function evidence(b: QualityInput): number {
  return completeness(b) + consistency(b) + curation(b);
}

function completeness(b: QualityInput): number {
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
  if (b.company.industries.length > 0) sum += w.industry;
  return sum;
}

function consistency(b: QualityInput): number {
  return b.name && b.domain && nameMatchesDomain(b.name, b.domain) ? WEIGHTS.nameMatchesDomain : 0;
}

function curation(b: QualityInput): number {
  return (b.claimed ? WEIGHTS.claimed : 0) + (b.verified ? WEIGHTS.verified : 0);
}

/** "Acme Rockets" matches acme.com and acmerockets.io; "Welcome" matches nothing. */
export function nameMatchesDomain(name: string, domain: string): boolean {
  const label = (domain.toLowerCase().split('.')[0] ?? '').replace(/[^a-z0-9]/g, '');
  const compact = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]/g, '');
  if (label.length < 2 || compact.length < 2) return false;
  return compact.includes(label) || label.includes(compact);
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
  const text = `${b.name ?? ''} ${b.description ?? ''}`;
  if (PARKED_TEXT.test(text)) return 0.3;
  return PLACEHOLDER_TEXT.test(text) ? 0.5 : 1;
}
