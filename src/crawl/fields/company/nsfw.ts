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
import type { Industry } from '../../../domain/brand.js';
import { elementIndex } from '../../page/element-index.js';
import { anyOf, attrContains, attrContainsAny, attrEquals, attrHasWord, firstAttr, tagIs, textOf, textOfAll } from '../../page/element-queries.js';
import { cleanText, type HtmlPage } from '../../page/html-page.js';
import { isNsfwIndustry } from '../industries/taxonomy.js';

const RTA_LABEL = 'rta-5042-1996-1400-1577-rta';
const ADULT_RATINGS = new Set(['adult', 'mature', 'restricted', RTA_LABEL]);
const EXPLICIT_TERMS = /\b(porn\w*|xxx|hentai|nsfw|camgirls?|cam ?models?|sex ?cams?|live ?sex|nude|nudes|naked|erotic[a]?|escorts?|fetish\w*|milfs?|onlyfans|strip ?club|adult (videos?|content|entertainment|movies|site)|hardcore|sexy (girls|videos))\b/gi;
const AGE_GATE_TEXT = /\b(you must be (at least )?(18|21)|are you (over )?(18|21)|(18|21) (years|or older)|over (18|21) only|18\+|adults only|age verification|verify (your|that you are of) age|i am (over )?(18|21))\b/i;
/** `[class*="age-gate" i], [id*="age-gate" i], [class*="agegate" i], [id*="agegate" i], [class*="age-verif" i], [id*="age-verif" i]` */
const AGE_GATE_MARKUP = anyOf(attrContainsAny('class', ['age-gate', 'agegate', 'age-verif'], true), attrContainsAny('id', ['age-gate', 'agegate', 'age-verif'], true));
/** `[role="dialog"], dialog, .modal, [class*="overlay" i]` */
const DIALOG = anyOf(attrEquals('role', 'dialog'), tagIs('dialog'), attrHasWord('class', 'modal'), attrContains('class', 'overlay', true));
/** `meta[name="rating" i], meta[name="rating-content" i], meta[http-equiv="rating" i]` */
const RATING = anyOf(attrEquals('name', 'rating', true), attrEquals('name', 'rating-content', true), attrEquals('http-equiv', 'rating', true));
const PICS_LABEL = attrEquals('http-equiv', 'pics-label', true);
const DESCRIPTION = attrEquals('name', 'description', true);
const OG_DESCRIPTION = attrEquals('property', 'og:description', true);
const KEYWORDS = attrEquals('name', 'keywords', true);

export function detectNsfw(page: HtmlPage, industries: Industry[] = []): boolean {
  if (isAdultRated(page)) return true;
  if (industries.some((i) => isNsfwIndustry(i.id) && i.score >= 1)) return true;
  return hasAgeGate(page) && explicitSelfDescription(page) >= 2;
}

export function isAdultRated(page: HtmlPage): boolean {
  const metas = elementIndex(page.$).byTag('meta');
  const ratings = metas.filter(RATING).map((el) => (el.attribs['content'] ?? '').trim().toLowerCase());
  if (ratings.some((r) => ADULT_RATINGS.has(r) || r.includes(RTA_LABEL))) return true;
  // The RTA label is also published as a PICS label.
  const pics = firstAttr(metas, PICS_LABEL, 'content') ?? '';
  return pics.toLowerCase().includes(RTA_LABEL);
}

export function hasAgeGate(page: HtmlPage): boolean {
  const index = elementIndex(page.$);
  if (index.all.some(AGE_GATE_MARKUP)) return true;
  const dialogs = textOfAll(index.all.filter(DIALOG));
  const title = textOfAll(index.byTag('title'));
  return AGE_GATE_TEXT.test(cleanText(`${dialogs} ${title} ${firstAttr(index.byTag('meta'), DESCRIPTION, 'content') ?? ''}`));
}

/** Distinct explicit adult terms in the title, meta and og descriptions (the site's own summary of itself). */
export function explicitSelfDescription(page: HtmlPage): number {
  const index = elementIndex(page.$);
  const metas = index.byTag('meta');
  const title = index.byTag('title')[0];
  const text = [
    title ? textOf(title) : '',
    firstAttr(metas, DESCRIPTION, 'content'),
    firstAttr(metas, OG_DESCRIPTION, 'content'),
    firstAttr(metas, KEYWORDS, 'content'),
  ].join(' ');
  return new Set([...text.matchAll(EXPLICIT_TERMS)].map((m) => m[0].toLowerCase())).size;
}
