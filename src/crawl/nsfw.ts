/**
 * Adult-content classification (spec 2.1 isNsfw) from what the site says about itself. Conservative by design:
 * a clean site must never be flagged. Flagged when any of these holds:
 *   1. an explicit self-label: meta rating adult/mature/restricted/RTA label (also as a PICS label);
 *   2. an adult industry on the record (set by a content rule, an operator or an import: industries/);
 *   3. an age gate (18+/21+ "enter" wording or age-verification markup) together with explicit adult terms in
 *      the site's own title or meta description (at least two distinct terms).
 * Word matching over body text alone is never used: "adult education", "breast cancer research" and "sex
 * education" are ordinary; and an age gate alone is a brewery or a casino, not adult content.
 */
import type { Industry } from '../domain/brand.js';
import { cleanText, type HtmlPage } from './html-page.js';
import { isNsfwIndustry } from './industries/taxonomy.js';

const RTA_LABEL = 'rta-5042-1996-1400-1577-rta';
const ADULT_RATINGS = new Set(['adult', 'mature', 'restricted', RTA_LABEL]);
const EXPLICIT_TERMS = /\b(porn\w*|xxx|hentai|nsfw|camgirls?|cam ?models?|sex ?cams?|live ?sex|nude|nudes|naked|erotic[a]?|escorts?|fetish\w*|milfs?|onlyfans|strip ?club|adult (videos?|content|entertainment|movies|site)|hardcore|sexy (girls|videos))\b/gi;
const AGE_GATE_TEXT = /\b(you must be (at least )?(18|21)|are you (over )?(18|21)|(18|21) (years|or older)|over (18|21) only|18\+|adults only|age verification|verify (your|that you are of) age|i am (over )?(18|21))\b/i;
const AGE_GATE_MARKUP = '[class*="age-gate" i], [id*="age-gate" i], [class*="agegate" i], [id*="agegate" i], [class*="age-verif" i], [id*="age-verif" i]';

export function detectNsfw(page: HtmlPage, industries: Industry[] = []): boolean {
  if (isAdultRated(page)) return true;
  if (industries.some((i) => isNsfwIndustry(i.id) && i.score >= 1)) return true;
  return hasAgeGate(page) && explicitSelfDescription(page) >= 2;
}

export function isAdultRated(page: HtmlPage): boolean {
  const { $ } = page;
  const ratings = $('meta[name="rating" i], meta[name="rating-content" i], meta[http-equiv="rating" i]')
    .toArray()
    .map((el) => ($(el).attr('content') ?? '').trim().toLowerCase());
  if (ratings.some((r) => ADULT_RATINGS.has(r) || r.includes(RTA_LABEL))) return true;
  // The RTA label is also published as a PICS label.
  const pics = $('meta[http-equiv="pics-label" i]').attr('content') ?? '';
  return pics.toLowerCase().includes(RTA_LABEL);
}

export function hasAgeGate(page: HtmlPage): boolean {
  const { $ } = page;
  if ($(AGE_GATE_MARKUP).length > 0) return true;
  const dialogs = $('[role="dialog"], dialog, .modal, [class*="overlay" i]').text();
  return AGE_GATE_TEXT.test(cleanText(`${dialogs} ${$('title').text()} ${$('meta[name="description" i]').attr('content') ?? ''}`));
}

/** Distinct explicit adult terms in the title, meta and og descriptions (the site's own summary of itself). */
export function explicitSelfDescription(page: HtmlPage): number {
  const { $ } = page;
  const text = [
    $('title').first().text(),
    $('meta[name="description" i]').attr('content'),
    $('meta[property="og:description" i]').attr('content'),
    $('meta[name="keywords" i]').attr('content'),
  ].join(' ');
  return new Set([...text.matchAll(EXPLICIT_TERMS)].map((m) => m[0].toLowerCase())).size;
}
