import { load } from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import { exceedsXmlComplexity } from './xml-complexity.js';
import { stripDoctype } from './xml-prolog.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** Elements that run code or pull in foreign content (HTML, plugins); removed with their subtree. */
const FORBIDDEN_ELEMENTS = new Set(['script', 'foreignobject', 'handler', 'listener', 'iframe', 'embed', 'object']);
/** SMIL elements can rewrite an href or handler after sanitizing (`<set attributeName="href" to="javascript:…">`). */
const ANIMATION_ELEMENTS = new Set(['set', 'animate', 'animatemotion', 'animatetransform']);
const SAFE_DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp)[;,]/i;
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"']*))\s*\)/gi;
/** Whatever url( survives the pattern above (odd quoting) is broken into an invalid function: never fetched. */
const CSS_URL_LEFTOVER = /url\((?!\s*['"]?\s*#)/gi;
const CSS_IMPORT = /@import[^;]*;?/gi;
/** `image-set("…")` loads images without url(); CSS escapes could spell `url` in a way the regex misses. */
const CSS_IMAGE_SET = /(?:-webkit-)?image-set\([^)]*\)/gi;
const CSS_ESCAPE = /\\(?:([0-9a-f]{1,6})\s?|(.))/gis;
/** Far beyond any real logo; see xml-complexity.ts for why documents are bounded at all. */
const COMPLEXITY_LIMITS = { maxDepth: 256, maxElements: 50_000 };

export interface SvgSize {
  width: number | null;
  height: number | null;
}

/**
 * A safe-to-serve copy of an SVG document, or null when the text is not an SVG document. The DOCTYPE and all
 * entity declarations are cut out as text before parsing, so nothing is ever expanded; then scripts, event
 * handlers, foreign content, non-local links and external CSS urls are removed. Only the root <svg> element
 * is kept (prolog, processing instructions such as xml-stylesheet, and comments are dropped). Also null for
 * documents nested deeper or with more elements than any real logo (parser denial of service).
 */
export function sanitizeSvg(text: string): string | null {
  return sanitizeSvgWithPreview(text)?.svg ?? null;
}

export interface SanitizedSvg {
  /** What `sanitizeSvg` returns: the copy to store. */
  svg: string;
  /** What `svgDimensions` gives for that copy. */
  size: SvgSize;
  /** What `svgFittedTo(svg, box)` gives: the copy sized for an analysis raster. */
  fittedTo(box: number): string;
}

/**
 * `sanitizeSvg`, and `svgDimensions` and `svgFittedTo` of the sanitized copy, from one parse: the ingest path
 * needs all three, and parsing dominates their cost. null when nothing safe is left to store.
 */
export function sanitizeSvgWithPreview(text: string): SanitizedSvg | null {
  const $ = parseSvg(text);
  if (!$) return null;
  sanitize($);
  const svg = $.xml(svgRoot($));
  // Namespace repair can remove the root itself (an undeclared prefix): nothing is left to store.
  const root = svgRoot($)[0];
  if (!svg || !root) return null;
  const attribs = { ...root.attribs };
  const fittedTo = (box: number) => {
    // Fitting rewrites the root's attributes; start from the stored copy's each time.
    root.attribs = { ...attribs };
    return fitRoot($, box);
  };
  return { svg, size: declaredSize(attribs), fittedTo };
}

function sanitize($: CheerioAPI): void {
  elements($)
    .filter((_, el) => isForbiddenElement(localName(el.name), el.attribs))
    .remove();
  elements($).each((_, el) => cleanAttributes(el.attribs));
  elements($)
    .filter((_, el) => localName(el.name) === 'style')
    .each((_, el) => {
      const style = $(el);
      style.text(scrubCss(style.text()));
    });
  repairNamespaces($);
}

/**
 * Intrinsic size of an SVG per docs (extraction notes 1.4): root width/height when absolute (unitless, px or
 * absolute units), else the viewBox; one absolute side plus a viewBox gives the other by aspect. Percentages
 * and font-relative units are unusable. Rounded to whole pixels; null where nothing usable is declared.
 */
export function svgDimensions(text: string): SvgSize {
  const $ = parseSvg(text);
  return declaredSize($ ? (svgRoot($)[0]?.attribs ?? {}) : {});
}

function declaredSize(attribs: Record<string, string>): SvgSize {
  const size = intrinsicSize(attribs.width, attribs.height, attribs.viewBox ?? attribs.viewbox);
  return { width: roundOrNull(size.width), height: roundOrNull(size.height) };
}

/**
 * Copy of a (sanitized) SVG whose root is sized to fit a `box`×`box` square, for rasterizing analysis
 * previews. Rewriting the root size, rather than using a render density, keeps huge declared sizes from
 * blowing the pixel budget. Without a viewBox the declared size becomes one, so the drawing scales.
 */
export function svgFittedTo(text: string, box: number): string | null {
  const $ = parseSvg(text);
  return $ ? fitRoot($, box) : null;
}

/** Resizes the parsed document's root as `svgFittedTo` describes and serializes it. */
function fitRoot($: CheerioAPI, box: number): string {
  const root = svgRoot($);
  const attribs = root[0]?.attribs ?? {};
  const viewBox = attribs.viewBox ?? attribs.viewbox;
  const size = intrinsicSize(attribs.width, attribs.height, viewBox);
  if (size.width === null || size.height === null) return $.xml(root);
  const scale = box / Math.max(size.width, size.height);
  if (!parseViewBox(viewBox)) root.attr('viewBox', `0 0 ${size.width} ${size.height}`);
  root.attr('width', String(Math.max(1, Math.round(size.width * scale))));
  root.attr('height', String(Math.max(1, Math.round(size.height * scale))));
  root.attr('preserveAspectRatio', null);
  return $.xml(root);
}

function parseSvg(text: string): CheerioAPI | null {
  const source = stripDoctype(text.replace(/^\uFEFF/, ''));
  if (exceedsXmlComplexity(source, COMPLEXITY_LIMITS)) return null;
  const $ = load(source, { xml: true });
  const root = svgRoot($)[0];
  return root && localName(root.name) === 'svg' ? $ : null;
}

/** The document element; anything else at top level (PIs, comments, stray text) is not part of the output. */
function svgRoot($: CheerioAPI) {
  return $.root().children().first();
}

/** Every element of the document, typed as elements (a bare `$('*')` is typed as any node). */
function elements($: CheerioAPI) {
  return $.root().find('*');
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1).toLowerCase();
}

function isForbiddenElement(name: string, attribs: Record<string, string>): boolean {
  if (FORBIDDEN_ELEMENTS.has(name)) return true;
  if (!ANIMATION_ELEMENTS.has(name)) return false;
  const target = (attribs.attributeName ?? attribs.attributename ?? '').toLowerCase();
  return target.endsWith('href') || target.startsWith('on');
}

function cleanAttributes(attribs: Record<string, string>): void {
  for (const [name, value] of Object.entries(attribs)) {
    const lower = name.toLowerCase();
    if (lower.startsWith('on') || lower === 'xml:base' || /javascript:/i.test(value)) {
      delete attribs[name];
    } else if (localName(lower) === 'href') {
      if (!isSafeHref(value)) delete attribs[name];
    } else if (/[(\\]/.test(value)) {
      // Any functional or escaped value may hide a url(); presentation attributes are CSS too.
      attribs[name] = scrubCss(value);
    }
  }
}

/** Local fragments and inline raster data only: an SVG must never make the viewer fetch anything. */
function isSafeHref(value: string): boolean {
  const href = value.trim();
  return href.startsWith('#') || SAFE_DATA_IMAGE.test(href);
}

function scrubCss(css: string): string {
  return css
    .replace(CSS_ESCAPE, unescapeCss)
    .replace(CSS_IMPORT, '')
    .replace(CSS_IMAGE_SET, 'none')
    .replace(CSS_URL, (whole, ...targets: (string | undefined)[]) => (isLocalTarget(targets) ? whole : 'none'))
    .replace(CSS_URL_LEFTOVER, 'none(');
}

function isLocalTarget([double, single, bare]: (string | undefined)[]): boolean {
  return (double ?? single ?? bare ?? '').trim().startsWith('#');
}

/** Decoding escapes first means the url()/@import patterns see what a CSS engine would see. */
function unescapeCss(_whole: string, hex: string | undefined, char: string | undefined): string {
  if (hex === undefined) return char ?? '';
  const code = Number.parseInt(hex, 16);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
}

/**
 * With entity references removed, Illustrator-style `xmlns="&ns_svg;"` declarations are left empty. Renderers
 * need the SVG namespace on the root, and undeclared prefixes make the XML ill-formed, so the root namespace
 * is forced, empty declarations are dropped, and elements/attributes with undeclared prefixes are removed.
 */
function repairNamespaces($: CheerioAPI): void {
  const declared = new Set(['xml', 'xmlns', 'xlink']);
  elements($).each((_, el) => {
    for (const [name, value] of Object.entries(el.attribs)) {
      if (!name.startsWith('xmlns:')) continue;
      if (value.trim() === '') delete el.attribs[name];
      else declared.add(name.slice(6));
    }
  });
  elements($)
    .filter((_, el) => !declared.has(prefixOf(el.name) ?? 'xml'))
    .remove();
  let usesXlink = false;
  elements($).each((_, el) => {
    for (const name of Object.keys(el.attribs)) {
      const prefix = prefixOf(name);
      if (prefix === 'xlink') usesXlink = true;
      if (prefix !== null && !declared.has(prefix)) delete el.attribs[name];
    }
  });
  const root = svgRoot($);
  if (!prefixOf(root[0]?.name ?? '')) root.attr('xmlns', SVG_NS);
  if (usesXlink && !root.attr('xmlns:xlink')) root.attr('xmlns:xlink', XLINK_NS);
}

function prefixOf(name: string): string | null {
  const colon = name.indexOf(':');
  return colon < 0 ? null : name.slice(0, colon);
}

interface RawSize {
  width: number | null;
  height: number | null;
}

function intrinsicSize(width: string | undefined, height: string | undefined, viewBox: string | undefined): RawSize {
  const w = parseLength(width);
  const h = parseLength(height);
  if (w !== null && h !== null) return { width: w, height: h };
  const box = parseViewBox(viewBox);
  if (!box) return { width: w, height: h };
  if (w !== null) return { width: w, height: (w * box.height) / box.width };
  if (h !== null) return { width: (h * box.width) / box.height, height: h };
  return box;
}

/** CSS px per absolute unit (CSS Values 4: 1in = 96px). */
const UNIT_PX: Record<string, number> = {
  '': 1,
  px: 1,
  pt: 4 / 3,
  pc: 16,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  q: 96 / 101.6,
};

function parseLength(value: string | undefined): number | null {
  const match = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-z%]*)\s*$/i.exec(value ?? '');
  if (!match) return null;
  const factor = UNIT_PX[(match[2] ?? '').toLowerCase()];
  const px = Number(match[1]) * (factor ?? NaN);
  return Number.isFinite(px) && px > 0 ? px : null;
}

function parseViewBox(value: string | undefined): { width: number; height: number } | null {
  const parts = (value ?? '').trim().split(/[\s,]+/).map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) return null;
  const [, , width = 0, height = 0] = parts;
  return width > 0 && height > 0 ? { width, height } : null;
}

function roundOrNull(value: number | null): number | null {
  return value === null ? null : Math.round(value);
}
