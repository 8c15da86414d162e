/**
 * Where a homepage declares or shows its marks, as a list of candidates to download and judge (pure: no
 * network). Icon candidates come from <link rel=icon|apple-touch-icon|mask-icon> and the manifest, with
 * /favicon.ico only when nothing is declared (dembrandt: sites with `favicon-purple.ico` often 404 on the bare
 * path). Mark candidates are og:logo / itemprop=logo / JSON-LD logo and the header's home-linked or
 * logo-named <img>/<svg>, scored with dembrandt-style heuristics; other brands' marks (logo walls, third-party
 * alt text, cookie banners, UI glyphs) are excluded.
 */
import type { CheerioAPI } from 'cheerio';
import { elementIndex } from '../../page/element-index.js';
import {
  anyOf,
  attrContains,
  attrEquals,
  attrStartsWithIgnoreCase,
  childElements,
  closest,
  firstAttr,
  hasAncestor,
  LINK,
  parentOf,
  parentsOf,
  tagIs,
  textOf,
  type ElementTest,
} from '../../page/element-queries.js';
import { elementText } from '../../page/element-text.js';
import { cleanText, registrableDomain, resolveUrl, type HtmlElement, type HtmlPage } from '../../page/html-page.js';
import { pageZones } from '../../page/page-zones.js';
import { findOrganization, nodeValue, stringValue, type JsonLdNode } from '../../page/json-ld.js';
import { largestSize, type WebManifest } from '../../fetch/manifest.js';
import { serializeInlineSvg } from './inline-svg.js';
import type { CssRule, ParsedCss } from '../../page/parse-css.js';
import { backgroundLogos, type SpriteCrop } from './logo-backgrounds.js';
import { backdropColor } from './logo-backdrop.js';
import { collectRootVariables } from '../../page/css-variables.js';

export type IconKind = 'icon' | 'apple-touch-icon' | 'mask-icon' | 'fluid-icon' | 'tile' | 'manifest-icon' | 'favicon-fallback' | 'conventional-path';
export type MarkKind = 'header' | 'meta-logo' | 'json-ld-logo';

export interface IconCandidate {
  kind: IconKind;
  url: string;
  /** Largest side declared in `sizes` (0 when unknown). */
  declaredSize: number;
}

export interface MarkCandidate {
  kind: MarkKind;
  /** null for an inline <svg>, whose markup is in `svg`. */
  url: string | null;
  svg: string | null;
  score: number;
  /** Hint from the file name or alt text (`logo-white.svg` is a light logo). */
  themeHint: 'dark' | 'light' | null;
  /** The colour scheme this variant is shown in, when the page offers one per scheme (<picture>, CSS). */
  scheme?: 'dark' | 'light' | null;
  /** The logo's box inside a CSS sprite sheet. */
  crop?: SpriteCrop | null;
  /** How a header mark was found when not as an <img> or <svg> itself (the logo evidence names it, ADR 0044). */
  via?: 'picture-source' | 'css-background';
  /**
   * The background colour the page paints behind the mark (logo-backdrop.ts, #rrggbb or null), which decides
   * the theme of a mark on transparency (logos.ts). A function because the cascade walk is only worth doing
   * for the marks chosen.
   */
  backdrop?: () => string | null;
}

const MAX_ICON_CANDIDATES = 8;
const MAX_MARK_CANDIDATES = 4;

/** `meta[name="msapplication-TileImage" i], meta[name^="msapplication-square" i]` */
const TILE_META = anyOf(attrEquals('name', 'msapplication-TileImage', true), attrStartsWithIgnoreCase('name', 'msapplication-square'));

export function findIconCandidates(page: HtmlPage, manifest: WebManifest | null): IconCandidate[] {
  const index = elementIndex(page.$);
  const out: IconCandidate[] = [];
  for (const el of index.byTag('link')) {
    if (el.attribs['rel'] === undefined || el.attribs['href'] === undefined) continue;
    const rel = (el.attribs['rel'] ?? '').toLowerCase().split(/\s+/);
    const kind = iconKind(rel);
    const url = resolveUrl(el.attribs['href'], page.baseUrl);
    if (kind && url) out.push({ kind, url, declaredSize: largestSize(el.attribs['sizes']) });
  }
  // Windows tiles: a square brand image the site declares for pinned sites, usually 144–310 px.
  for (const el of index.byTag('meta').filter(TILE_META)) {
    const url = resolveUrl(el.attribs['content'], page.baseUrl);
    const size = /(\d+)x\1/i.exec(el.attribs['name'] ?? '')?.[1];
    if (url) out.push({ kind: 'tile', url, declaredSize: size ? Number(size) : 144 });
  }
  for (const icon of manifest?.icons ?? []) {
    if (!icon.purpose.includes('monochrome')) out.push({ kind: 'manifest-icon', url: icon.url, declaredSize: icon.size });
  }
  const conventional = declaresLargeIcon(out) ? [] : conventionalIcons(page);
  if (out.length === 0) out.push({ kind: 'favicon-fallback', url: new URL('/favicon.ico', page.url).href, declaredSize: 0 });
  // Probed paths go first: a declared icon of unknown size may be the small one, and at most 8 are tried.
  return dedupe([...conventional, ...out.sort((a, b) => b.declaredSize - a.declaredSize)]).slice(0, MAX_ICON_CANDIDATES);
}

/** Declared sizes at or above this count as a large icon: nothing needs probing. */
const LARGE_ICON = 64;
/** Where iOS looks for a home-screen icon when a page declares none (Apple's convention, usually 180×180). */
const CONVENTIONAL_ICON_PATHS = ['/apple-touch-icon.png', '/apple-touch-icon-precomposed.png'];

/** A declared icon that is large by its `sizes`, or an apple-touch-icon or tile (large by convention). */
function declaresLargeIcon(candidates: IconCandidate[]): boolean {
  return candidates.some((c) => c.kind !== 'mask-icon' && (c.declaredSize >= LARGE_ICON || c.kind === 'apple-touch-icon' || c.kind === 'tile'));
}

/** The conventional icon paths of the site's origin, probed when nothing large is declared (a 404 costs one request). */
function conventionalIcons(page: HtmlPage): IconCandidate[] {
  return CONVENTIONAL_ICON_PATHS.map((p) => ({ kind: 'conventional-path' as const, url: new URL(p, page.url).href, declaredSize: 0 }));
}

function iconKind(rel: string[]): IconKind | null {
  if (rel.includes('mask-icon')) return 'mask-icon';
  if (rel.some((r) => r.startsWith('apple-touch-icon'))) return 'apple-touch-icon';
  if (rel.includes('fluid-icon')) return 'fluid-icon';
  return rel.includes('icon') ? 'icon' : null;
}

function dedupe<T extends { url: string | null }>(list: T[]): T[] {
  const seen = new Set<string>();
  return list.filter((c) => {
    if (c.url === null) return true;
    if (seen.has(c.url)) return false;
    seen.add(c.url);
    return true;
  });
}

// ---------------------------------------------------------------- marks

export interface MarkContext {
  page: HtmlPage;
  jsonLd: JsonLdNode[];
  /** The brand name found by identity.ts, for telling the brand's own alt text from a customer's. */
  brandName: string | null;
  /** Style rules of the page, for the colour an inline SVG's `currentColor` takes. */
  cssRules: CssRule[];
  /** The stylesheets themselves (URL + rules), for CSS background logos; optional for pure callers. */
  sheets?: ParsedCss[];
}

export function findMarkCandidates(ctx: MarkContext): MarkCandidate[] {
  // Sorted before de-duplication so a file both declared in metadata and shown in the header keeps its best score.
  const candidates = [...metaLogos(ctx), ...pageMarks(ctx)].sort((a, b) => b.score - a.score);
  const kept = dedupe(candidates)
    .filter((c) => c.score > 0)
    .slice(0, MAX_MARK_CANDIDATES);
  for (const c of kept) {
    const el = elementOf.get(c);
    if (el) c.backdrop = () => backdropColor(ctx.page, el, ctx.cssRules, collectRootVariables(ctx.sheets ?? []));
  }
  return kept;
}

/** The page element behind each page candidate (metadata candidates have none). */
const elementOf = new WeakMap<MarkCandidate, HtmlElement>();

/** og:logo, itemprop=logo and JSON-LD Organization.logo: declared by the site, but untyped (wide or square). */
function metaLogos({ page, jsonLd }: MarkContext): MarkCandidate[] {
  const index = elementIndex(page.$);
  const metas = index.byTag('meta');
  const imgs = index.byTag('img');
  const hrefs = [
    firstAttr(metas, OG_LOGO, 'content'),
    firstAttr(metas, ITEMPROP_LOGO, 'content'),
    firstAttr(imgs, ITEMPROP_LOGO, 'src'),
    firstAttr(imgs, (img) => hasAncestor(img, ITEMPROP_LOGO), 'src'),
  ];
  const org = findOrganization(jsonLd, page.label);
  const logo = org?.['logo'];
  const jsonLdHref = stringValue(nodeValue(logo)?.['url'] ?? nodeValue(logo)?.['contentUrl'] ?? logo);
  const out: MarkCandidate[] = [];
  for (const href of hrefs) {
    const url = resolveUrl(href, page.baseUrl);
    if (url && !isPlaceholderUrl(url)) out.push({ kind: 'meta-logo', url, svg: null, score: 60 + siteBonus(url, page), themeHint: themeHint(url) });
  }
  const url = resolveUrl(jsonLdHref, page.baseUrl);
  if (url && !isPlaceholderUrl(url)) out.push({ kind: 'json-ld-logo', url, svg: null, score: 55 + siteBonus(url, page), themeHint: themeHint(url) });
  return out;
}

const OG_LOGO = attrEquals('property', 'og:logo', true);
const ITEMPROP_LOGO = attrEquals('itemprop', 'logo', true);

function siteBonus(url: string, page: HtmlPage): number {
  // Another registrable domain (a CDN or a customer) makes a mark less likely the brand's own (dembrandt −60).
  return registrableDomain(url) === page.domain ? 0 : -40;
}

/** Badges and other brands' marks that sit near a logo: payment, partner, award, store and social glyphs. */
const FOREIGN_MARK = /(payment|partner|sponsor|award|badge|certif|trust(ed|pilot)|app-?store|google-?play|social|share)/i;
const SOCIAL_HOSTS = /(^|\.)(twitter|x|facebook|instagram|linkedin|youtube|tiktok|github|pinterest|discord|reddit|threads|mastodon\.social|medium)\.com$/i;
/** Default avatars and "no image" graphics are never a brand's logo (spec 2.3 placeholder). */
const PLACEHOLDER_URL = /(default[-_]?(avatar|user|profile|logo)|avatar[-_]?(default|placeholder)|placeholder|no[-_]?(image|logo|photo)|blank\.(png|gif|jpe?g)|spacer\.gif|gravatar\.com\/avatar\/[0-9a-f]*\?.*d=(mp|mm|identicon|blank))/i;

export function isPlaceholderUrl(url: string): boolean {
  return PLACEHOLDER_URL.test(url);
}

const IMG_OR_SVG = tagIs('img', 'svg');
const SVG = tagIs('svg');

function pageMarks(ctx: MarkContext): MarkCandidate[] {
  const out: MarkCandidate[] = [];
  elementIndex(ctx.page.$).all.filter(IMG_OR_SVG).forEach((el, index) => {
    if (el.tagName === 'svg' && parentsOf(el).some(SVG)) return;
    out.push(...judgeMark(ctx, el, index));
  });
  out.push(...cssBackgroundMarks(ctx));
  return out;
}

interface Placement {
  inHeader: boolean;
  inFooter: boolean;
  homeLinked: boolean;
  named: boolean;
  label: string;
}

/** Where the element sits and what names it, or null when it is clearly not the brand's own mark. */
function placementOf(ctx: MarkContext, el: HtmlElement): Placement | null {
  const { page } = ctx;
  const zones = pageZones(page.$);
  if (zones.isExcluded(el)) return null;
  const inHeader = zones.inHeader(el);
  const homeLinked = isHomeLinked(page, el);
  const named = isLogoNamed(el);
  if (!inHeader && !homeLinked && !named) return null;
  if (isForeignMark(page, el) || namesAnotherBrand(ctx, el)) return null;
  const label = markLabel(el);
  if (label && isThirdPartyLabel(label, page.label, ctx.brandName)) return null;
  if (!inHeader && !homeLinked && isInLogoWall(page.$, el)) return null;
  return { inHeader, inFooter: closest(el, FOOTER) !== null, homeLinked, named, label };
}

/** `footer, [role="contentinfo"]` */
const FOOTER = anyOf(tagIs('footer'), attrEquals('role', 'contentinfo'));

function placementScore(ctx: MarkContext, p: Placement, index: number): number {
  let score = (p.inHeader ? 50 : 0) + (p.inFooter ? 20 : 0) + (p.homeLinked ? 40 : 0) + (p.named ? 30 : 0);
  if (p.label && matchesBrand(p.label, ctx.page.label, ctx.brandName)) score += 40;
  if (p.label.length > 50) score -= 40;
  return score - Math.min(index, 20);
}

function judgeMark(ctx: MarkContext, el: HtmlElement, index: number): MarkCandidate[] {
  const { page } = ctx;
  const placement = placementOf(ctx, el);
  if (!placement) return [];
  const size = paintedSize(el);
  if (size && Math.max(size.width, size.height) < 24) return [];
  const tag = tagNameOf(el);
  const url = tag === 'img' ? resolveUrl(imageSource(el), page.baseUrl) : null;
  const svg = tag === 'svg' ? serializeInlineSvg(page, el, ctx.cssRules) : null;
  if ((!url && !svg) || (url && isPlaceholderUrl(url))) return [];
  let score = placementScore(ctx, placement, index);
  if (url) score += siteBonus(url, page) * 1.5;
  if (size && (size.width > 800 || size.height > 500)) score -= 80;
  const scheme = tag === 'img' ? classScheme(el) : null;
  const hint = themeHint(`${url ?? ''} ${placement.label}`);
  const own: MarkCandidate = { kind: 'header', url, svg, score: scheme === 'dark' ? score - 5 : score, themeHint: hint ?? schemeTheme(scheme), scheme };
  elementOf.set(own, el);
  const variants = tag === 'img' ? pictureVariants(ctx, el, score) : [];
  if (variants.length > 0 && !own.scheme) {
    own.scheme = 'light';
    own.themeHint ??= 'dark';
  }
  return [own, ...variants];
}

/** The theme a scheme variant implies: the dark-scheme asset is drawn light, and vice versa (notes 1.4). */
function schemeTheme(scheme: 'dark' | 'light' | null | undefined): 'dark' | 'light' | null {
  if (scheme === 'dark') return 'light';
  return scheme === 'light' ? 'dark' : null;
}

/** The tag name, lower-cased (SVG keeps camel case in the tree). */
function tagNameOf(el: HtmlElement): string {
  return el.name.toLowerCase();
}

/** Tailwind-style scheme switches: `dark:hidden` shows in light mode only, `hidden dark:block` in dark only. */
function classScheme(el: HtmlElement): 'dark' | 'light' | null {
  const cls = `${el.attribs['class'] ?? ''} ${parentOf(el)?.attribs['class'] ?? ''}`;
  if (/(^|\s)dark:(block|inline|inline-block|flex)(\s|$)/.test(cls)) return 'dark';
  if (/(^|\s)dark:hidden(\s|$)/.test(cls)) return 'light';
  if (/(^|[\s_-])(logo|brand)[-_]{1,2}(on-)?dark(\s|$)/i.test(cls) || /(^|\s)(only-dark|show-dark|dark-only)(\s|$)/i.test(cls)) return 'dark';
  return null;
}

/** <picture><source media="(prefers-color-scheme: dark)" srcset="…"> alternates of a header <img>. */
function pictureVariants(ctx: MarkContext, el: HtmlElement, score: number): MarkCandidate[] {
  const out: MarkCandidate[] = [];
  for (const source of pictureSources(el)) {
    const media = source.attribs['media'] ?? '';
    const scheme = /prefers-color-scheme\s*:\s*dark/i.test(media) ? 'dark' : /prefers-color-scheme\s*:\s*light/i.test(media) ? 'light' : null;
    if (!scheme) continue;
    const url = resolveUrl(largestSrcsetEntry(source.attribs['srcset']), ctx.page.baseUrl);
    if (url && !isPlaceholderUrl(url)) out.push({ kind: 'header', url, svg: null, score: score - 5, themeHint: schemeTheme(scheme), scheme, via: 'picture-source' });
  }
  return out;
}

/** `$(img).parent('picture').children('source[srcset]')`: the <source>s of the <picture> an <img> is in. */
export function pictureSources(img: HtmlElement): HtmlElement[] {
  const picture = parentOf(img);
  return picture?.name === 'picture' ? childElements(picture).filter((c) => c.name === 'source' && c.attribs['srcset'] !== undefined) : [];
}

/**
 * Elements that may carry a CSS-painted logo (narrowed further by mayPaintLogo): for each of a, div, span, h1,
 * i, b, strong, p: `t[class], t[id], t[style], header t, nav t`.
 */
const PAINTABLE_TAG = tagIs('a', 'div', 'span', 'h1', 'i', 'b', 'strong', 'p');
const IN_HEADER_OR_NAV = tagIs('header', 'nav');
const PAINTABLE: ElementTest = (el) =>
  PAINTABLE_TAG(el) && (el.attribs['class'] !== undefined || el.attribs['id'] !== undefined || el.attribs['style'] !== undefined || hasAncestor(el, IN_HEADER_OR_NAV));
/** `[style*="background" i]` */
const INLINE_BACKGROUND = attrContains('style', 'background', true);

/** Logos drawn as CSS backgrounds on header/home-link/logo-named elements (see logo-backgrounds.ts). */
function cssBackgroundMarks(ctx: MarkContext): MarkCandidate[] {
  const { page } = ctx;
  const sheets = ctx.sheets ?? [];
  const out: MarkCandidate[] = [];
  const hasRules = sheets.some((sheet) => sheet.rules.some((rule) => /url\(/i.test(rule.declarations.map((d) => d.value).join(' '))));
  const zones = pageZones(page.$);
  elementIndex(page.$).all.filter(hasRules ? PAINTABLE : INLINE_BACKGROUND).forEach((el, index) => {
    if (zones.hasImageBelow(el) || out.length >= 6) return;
    if (!mayPaintLogo(page, el)) return;
    const placement = placementOf(ctx, el);
    if (!placement) return;
    const score = placementScore(ctx, { ...placement, label: placement.label || elementText(el) }, index);
    for (const bg of backgroundLogos(page, el, sheets)) {
      if (isPlaceholderUrl(bg.url)) continue;
      const base = score + siteBonus(bg.url, page) * 1.5 - (bg.scheme === 'dark' ? 5 : 0);
      const candidate: MarkCandidate = { kind: 'header', url: bg.url, svg: null, score: base, themeHint: themeHint(bg.url) ?? schemeTheme(bg.scheme), scheme: bg.scheme, crop: bg.crop, via: 'css-background' };
      elementOf.set(candidate, el);
      out.push(candidate);
    }
  });
  return out;
}

/**
 * Elements worth matching against background rules: logo-named ones, inline backgrounds, and the two places
 * sites paint a text-hidden logo without naming it: the header's <h1> and the header's home link.
 */
function mayPaintLogo(page: HtmlPage, el: HtmlElement): boolean {
  if (/logo|brand/i.test(`${el.attribs['class'] ?? ''} ${el.attribs['id'] ?? ''}`) || /background/i.test(el.attribs['style'] ?? '')) return true;
  if (!pageZones(page.$).inHeader(el)) return false;
  const tag = tagNameOf(el);
  return tag === 'h1' || (tag === 'a' && isHomeLinked(page, el));
}

/** Words that name a logo's variant or place, not a brand: `site-logo`, `logo-white`, `footer-logo`. */
const GENERIC_LOGO_WORDS = /^(site|main|primary|secondary|header|footer|nav|navbar|top|brand|company|home|our|the|img|image|icon|svg|png|dark|light|white|black|color|colour|mono|inverse|negative|full|small|large|mobile|desktop|default|alt|new|old|v\d+|\d+x?|sticky|fixed|text|mark|type|wrapper|container|link|holder|box|area|wrap)$/i;

/**
 * `id="icann-logo"` or `partner-logo-stripe.svg` on a page of iana.org: a class, id or file name that names
 * a logo after something that is neither generic nor the brand is another organisation's mark.
 */
function namesAnotherBrand(ctx: MarkContext, el: HtmlElement): boolean {
  const names = `${el.attribs['class'] ?? ''} ${el.attribs['id'] ?? ''} ${fileName(el.attribs['src']).replace(/\.[a-z0-9]+$/i, '')}`.toLowerCase();
  const words = [...names.matchAll(/([a-z0-9]+)[-_]logo|logo[-_]([a-z0-9]+)/g)].map((m) => m[1] ?? m[2] ?? '');
  return words.some((word) => !GENERIC_LOGO_WORDS.test(word) && !matchesBrand(word, ctx.page.label, ctx.brandName) && !ctx.page.label.includes(word));
}

/** Payment/partner/award badges and marks linking to social networks are other brands' marks. */
function isForeignMark(page: HtmlPage, el: HtmlElement): boolean {
  const chain = [el, ...parentsOf(el).slice(0, 3)];
  const names = chain.map((n) => `${n.attribs['class'] ?? ''} ${n.attribs['id'] ?? ''}`).join(' ');
  if (FOREIGN_MARK.test(names) || FOREIGN_MARK.test(fileName(el.attribs['src']))) return true;
  const href = resolveUrl(closest(el, LINK)?.attribs['href'], page.baseUrl);
  return href !== null && SOCIAL_HOSTS.test(new URL(href).hostname);
}

/** The file an <img> shows: src, unless it is a lazy loader's data: placeholder; then data-src or the largest srcset entry. */
export function imageSource(el: HtmlElement): string | undefined {
  const a = el.attribs;
  const src = a['src'];
  const lazy = a['data-src'] ?? a['data-lazy-src'] ?? a['data-original'];
  const fromSet = largestSrcsetEntry(a['srcset'] ?? a['data-srcset']);
  // A data: URI src is a lazy loader's blank placeholder; the real file is in data-src or srcset.
  if (src && !src.trim().startsWith('data:')) return src;
  return lazy ?? fromSet ?? src;
}

/** The largest file a content <img> shows: its <picture>'s first <source srcset>, else its own (imageSource). */
export function largestImageSource(img: HtmlElement): string | undefined {
  return largestSrcsetEntry(pictureSources(img)[0]?.attribs['srcset']) ?? imageSource(img);
}

/** The srcset candidate with the largest width (`w`) or density (`x`) descriptor; the last one on a tie. */
export function largestSrcsetEntry(srcset: string | undefined): string | undefined {
  if (!srcset) return undefined;
  let best: { url: string; weight: number } | undefined;
  for (const part of srcset.split(/,\s+/)) {
    const [url, descriptor = '1x'] = part.trim().split(/\s+/);
    if (!url) continue;
    const weight = Number.parseFloat(descriptor) || 1;
    if (!best || weight >= best.weight) best = { url, weight };
  }
  return best?.url;
}

/** A link to the site's own home page: `/`, `./`, the own origin, or a locale root such as `/en` or `/de-ch`. */
export function isHomeLinked(page: HtmlPage, el: HtmlElement): boolean {
  const href = closest(el, LINK)?.attribs['href'];
  const url = resolveUrl(href, page.baseUrl);
  if (!url || registrableDomain(url) !== page.domain) return false;
  return /^\/(index\.html?|[a-z]{2}([-_][a-z]{2})?\/?)?$/i.test(new URL(url).pathname);
}

function isLogoNamed(el: HtmlElement): boolean {
  const chain = [el, ...parentsOf(el).slice(0, 3)];
  return chain.some((node) => /logo|brand/i.test(`${node.attribs['class'] ?? ''} ${node.attribs['id'] ?? ''}`))
    || /logo/i.test(`${el.attribs['alt'] ?? ''} ${fileName(el.attribs['src'])}`);
}

function fileName(src: string | undefined): string {
  return (src ?? '').split(/[?#]/)[0]?.split('/').pop() ?? '';
}

/** Text that names the mark: alt, aria-label, title, or the <title> of an inline SVG. */
function markLabel(el: HtmlElement): string {
  const a = el.attribs;
  const title = (): string => {
    const child = childElements(el).find((c) => c.name === 'title');
    return child ? textOf(child) : '';
  };
  return cleanText(a['alt'] ?? a['aria-label'] ?? a['title'] ?? title());
}

const LABEL_NOISE = /\b(logo(type)?|logos|icon|brand|wordmark|symbol|image|img|svg|png|jpe?g|webp|the|official|home(page)?|page|link|go|to|back|return|of|and|white|black|dark|light|mono(chrome)?|colou?r|full|horizontal|vertical|small|large|inverse|negative|primary|main|site|website|v\d+|\d+x)\b/gi;

/** dembrandt's rule: an alt that, stripped of logo words, names something the domain/brand does not contain. */
export function isThirdPartyLabel(label: string, domainLabel: string, brandName: string | null): boolean {
  const rest = labelRest(label);
  if (!rest) return false;
  return !restMatchesBrand(rest, domainLabel, brandName);
}

function matchesBrand(label: string, domainLabel: string, brandName: string | null): boolean {
  return restMatchesBrand(labelRest(label), domainLabel, brandName);
}

/** What a label names once logo words and punctuation are gone. */
function labelRest(label: string): string {
  return label.toLowerCase().replace(LABEL_NOISE, ' ').replace(/[^a-z0-9]/g, '');
}

function restMatchesBrand(rest: string, domainLabel: string, brandName: string | null): boolean {
  const names = [domainLabel, brandName ?? ''].map((n) => n.toLowerCase().replace(/[^a-z0-9]/g, '')).filter(Boolean);
  return rest.length > 0 && names.some((n) => n.includes(rest) || rest.includes(n));
}

/** ≥ 3 marks in one local container outside the header: "trusted by", integrations, press (dembrandt). */
export function isInLogoWall($: CheerioAPI, el: HtmlElement): boolean {
  const zones = pageZones($);
  return parentsOf(el)
    .slice(0, 4)
    .some((node) => !/^(body|html|main)$/i.test(node.tagName) && zones.marksBelow(node) >= 3);
}

/** Size from width/height attributes, when both are plain numbers (the painted size is unknown without CSS). */
function paintedSize(el: HtmlElement): { width: number; height: number } | null {
  const w = Number(el.attribs['width']);
  const h = Number(el.attribs['height']);
  return Number.isFinite(w) && Number.isFinite(h) && w > 0 && h > 0 ? { width: w, height: h } : null;
}

export function themeHint(text: string): 'dark' | 'light' | null {
  const t = text.toLowerCase();
  if (/(^|[^a-z])(white|light|negative|reverse|inverse|knockout|on-dark)([^a-z]|$)/.test(t)) return 'light';
  if (/(^|[^a-z])(black|dark|on-light|positive)([^a-z]|$)/.test(t)) return 'dark';
  return null;
}
