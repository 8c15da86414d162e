/**
 * Spec 2.3 tags for a chosen logo, assigned only where the file itself proves them (a wrong tag is worse than
 * none). Rules:
 *   - `wordmark`: an SVG that draws only text (<text>/<tspan>, no shapes) of 4 or more letters, or a shorter
 *     text that is the brand's whole name ("Ory").
 *   - `lettermark`: an SVG that draws only text of 1 to 3 letters that are the initials of a longer brand
 *     name ("IBM" for International Business Machines); unknown name → no tag.
 *   - `combination`: an SVG that draws text of 2 or more letters AND at least one shape that is not a
 *     full-canvas background plate.
 *   Mark-type tags go only on `logo`/`symbol` entries (images that are mainly a logo), at most one per image.
 *   Outlined text (letters converted to paths, as in most production logos) cannot be told from a symbol
 *   without OCR, so such files stay untagged.
 * Placeholders (blank or single-colour images, default avatars) are never chosen as a logo at all; see
 * logo-exclusion.ts. Photographic/illustration/screenshot/pattern need an image classifier: never assigned.
 */
import { load } from 'cheerio';
import type { LogoType } from '../../../domain/brand.js';

export type MarkTag = 'wordmark' | 'lettermark' | 'combination';

const SHAPES = 'path, rect, circle, ellipse, polygon, polyline, line, use, image';
/**
 * Every tag needs a <text> element, which in XML source always starts like this. Most production logos draw
 * their letters as paths, so most files are answered without being parsed again.
 */
const TEXT_ELEMENT_START = /<text[\s/>]/;

export function svgMarkTag(svg: string, type: LogoType, brandName: string | null = null): MarkTag | null {
  if (type !== 'logo' && type !== 'symbol') return null;
  if (!TEXT_ELEMENT_START.test(svg)) return null;
  const $ = load(svg, { xml: true });
  const letters = $('text').text().replace(/[^\p{L}\p{N}]/gu, '');
  if (letters.length === 0) return null;
  const viewBox = ($('svg').first().attr('viewBox') ?? '').split(/[\s,]+/).map(Number);
  const shapes = $(SHAPES).filter((_, el) => !isBackgroundPlate($(el).attr('width'), $(el).attr('height'), viewBox, el.tagName));
  if (shapes.length > 0) return letters.length >= 2 ? 'combination' : null;
  return letters.length > 3 ? 'wordmark' : shortTextTag(letters, brandName);
}

function shortTextTag(letters: string, brandName: string | null): MarkTag | null {
  const words = (brandName ?? '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return null;
  if (words.join('').toLowerCase() === letters.toLowerCase()) return 'wordmark';
  const initials = words.map((w) => w[0] ?? '').join('').toLowerCase();
  return words.length >= 2 && initials.startsWith(letters.toLowerCase()) ? 'lettermark' : null;
}

/** A rect as large as the canvas is the background a logo sits on, not part of the mark. */
function isBackgroundPlate(width: string | undefined, height: string | undefined, viewBox: number[], tag: string): boolean {
  if (tag !== 'rect') return false;
  if (width === '100%' && height === '100%') return true;
  const [, , vw, vh] = viewBox;
  return vw !== undefined && vh !== undefined && Number(width) >= vw && Number(height) >= vh;
}
