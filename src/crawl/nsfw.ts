/**
 * Adult-content classification from what the site says about itself. Deliberately conservative: only explicit
 * self-labels count (meta rating adult/mature/restricted, the RTA label, also as a PICS label). Word
 * matching over body text is not used, because "adult education" or "breast cancer research" would trip it.
 * Not done yet: Mozilla's hashed list of adult domains, image classification, industry categories.
 */
import type { HtmlPage } from './html-page.js';

const RTA_LABEL = 'rta-5042-1996-1400-1577-rta';
const ADULT_RATINGS = new Set(['adult', 'mature', 'restricted', RTA_LABEL]);

export function detectNsfw(page: HtmlPage): boolean {
  const { $ } = page;
  const ratings = $('meta[name="rating" i], meta[name="rating-content" i], meta[http-equiv="rating" i]')
    .toArray()
    .map((el) => ($(el).attr('content') ?? '').trim().toLowerCase());
  if (ratings.some((r) => ADULT_RATINGS.has(r) || r.includes(RTA_LABEL))) return true;
  // The RTA label is also published as a PICS label.
  const pics = $('meta[http-equiv="pics-label" i]').attr('content') ?? '';
  return pics.toLowerCase().includes(RTA_LABEL);
}
