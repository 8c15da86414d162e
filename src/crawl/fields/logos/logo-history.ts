/**
 * Re-crawl rule of spec 2.3: "an image that is no longer the brand's main icon or logo keeps its tags and is
 * listed with type `other`". The brand indexer calls this with the stored record's logos and the fresh
 * crawl's: every previously listed file (by its content-addressed original src) that the new crawl no longer
 * lists is appended as `other`, with its theme, formats and tags unchanged. At most MAX_OTHER such entries
 * are kept (newest first), so a brand that rebrands every year does not grow without bound.
 * Pictures are not carried over: spec 2.6 replaces them on every re-crawl.
 * A file the new crawl lists again keeps the renditions the previous record has for it (same content-addressed
 * original, so the same renditions): an unchanged logo is never re-encoded (ADR 0008).
 */
import type { Logo } from '../../../domain/brand.js';

export const MAX_OTHER_LOGOS = 4;

export function mergeRecrawledLogos(previous: readonly Logo[], fresh: readonly Logo[]): Logo[] {
  const next = keepRenditions(previous, fresh);
  const listed = new Set(next.flatMap((logo) => logo.formats.map((f) => f.src)));
  const retired = previous
    .filter((logo) => logo.formats.length > 0 && !logo.formats.some((f) => listed.has(f.src)))
    .map((logo): Logo => ({ ...logo, type: 'other' }));
  const others = [...next.filter((l) => l.type === 'other'), ...retired].slice(0, MAX_OTHER_LOGOS);
  return [...next.filter((l) => l.type !== 'other'), ...others];
}

function keepRenditions(previous: readonly Logo[], next: readonly Logo[]): Logo[] {
  const known = new Map(previous.filter((l) => l.formats.length > 1).map((l) => [l.formats[0]?.src, l.formats]));
  return next.map((logo) => {
    const formats = logo.formats.length === 1 ? known.get(logo.formats[0]?.src) : undefined;
    return formats ? { ...logo, formats } : logo;
  });
}
