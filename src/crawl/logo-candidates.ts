/**
 * Where a homepage declares or shows its marks, as a list of candidates to download and judge (pure: no
 * network). Icon candidates come from <link rel=icon|apple-touch-icon|mask-icon> and the manifest, with
 * /favicon.ico only when nothing is declared (dembrandt: sites with `favicon-purple.ico` often 404 on the bare
 * path). Mark candidates are og:logo / itemprop=logo / JSON-LD logo and the header's home-linked or
 * logo-named <img>/<svg>, scored with dembrandt-style heuristics; other brands' marks (logo walls, third-party
 * alt text, cookie banners, UI glyphs) are excluded.
 */
import type { CheerioAPI } from 'cheerio';
import { cleanText, registrableDomain, resolveUrl, type HtmlElement, type HtmlPage } from './html-page.js';
import { findOrganization, nodeValue, stringValue, type JsonLdNode } from './json-ld.js';
import { largestSize, type WebManifest } from './manifest.js';
import { serializeInlineSvg } from './inline-svg.js';
import type { CssRule } from './parse-css.js';

export type IconKind = 'icon' | 'apple-touch-icon' | 'mask-icon' | 'manifest-icon' | 'favicon-fallback';
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
}

const MAX_ICON_CANDIDATES = 8;
const MAX_MARK_CANDIDATES = 4;

export function findIconCandidates(page: HtmlPage, manifest: WebManifest | null): IconCandidate[] {
  const { $ } = page;
  const out: IconCandidate[] = [];
  $('link[rel][href]').each((_, el) => {
    const rel = ($(el).attr('rel') ?? '').toLowerCase().split(/\s+/);
    const kind: IconKind | null = rel.includes('mask-icon')
      ? 'mask-icon'
      : rel.some((r) => r.startsWith('apple-touch-icon'))
        ? 'apple-touch-icon'
        : rel.includes('icon')
          ? 'icon'
          : null;
    const url = resolveUrl($(el).attr('href'), page.baseUrl);
    if (kind && url) out.push({ kind, url, declaredSize: largestSize($(el).attr('sizes')) });
  });
  for (const icon of manifest?.icons ?? []) {
    if (!icon.purpose.includes('monochrome')) out.push({ kind: 'manifest-icon', url: icon.url, declaredSize: icon.size });
  }
  if (out.length === 0) out.push({ kind: 'favicon-fallback', url: new URL('/favicon.ico', page.url).href, declaredSize: 0 });
  return dedupe(out).sort((a, b) => b.declaredSize - a.declaredSize).slice(0, MAX_ICON_CANDIDATES);
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
}

export function findMarkCandidates(ctx: MarkContext): MarkCandidate[] {
  // Sorted before de-duplication so a file both declared in metadata and shown in the header keeps its best score.
  const candidates = [...metaLogos(ctx), ...pageMarks(ctx)].sort((a, b) => b.score - a.score);
  return dedupe(candidates)
    .filter((c) => c.score > 0)
    .slice(0, MAX_MARK_CANDIDATES);
}

/** og:logo, itemprop=logo and JSON-LD Organization.logo: declared by the site, but untyped (wide or square). */
function metaLogos({ page, jsonLd }: MarkContext): MarkCandidate[] {
  const { $ } = page;
  const hrefs = [
    $('meta[property="og:logo" i]').attr('content'),
    $('meta[itemprop="logo" i]').attr('content'),
    $('img[itemprop="logo" i]').attr('src'),
    $('[itemprop="logo" i] img').attr('src'),
  ];
  const org = findOrganization(jsonLd, page.label);
  const logo = org?.['logo'];
  const jsonLdHref = stringValue(nodeValue(logo)?.['url'] ?? nodeValue(logo)?.['contentUrl'] ?? logo);
  const out: MarkCandidate[] = [];
  for (const href of hrefs) {
    const url = resolveUrl(href, page.baseUrl);
    if (url) out.push({ kind: 'meta-logo', url, svg: null, score: 60 + siteBonus(url, page), themeHint: themeHint(url) });
  }
  const url = resolveUrl(jsonLdHref, page.baseUrl);
  if (url) out.push({ kind: 'json-ld-logo', url, svg: null, score: 55 + siteBonus(url, page), themeHint: themeHint(url) });
  return out;
}

function siteBonus(url: string, page: HtmlPage): number {
  // Another registrable domain (a CDN or a customer) makes a mark less likely the brand's own (dembrandt −60).
  return registrableDomain(url) === page.domain ? 0 : -40;
}

const EXCLUDED_CONTAINERS = '[class*="cookie" i], [id*="cookie" i], [class*="consent" i], [id*="consent" i], [class*="gdpr" i], [role="dialog"], [aria-modal="true"], dialog, [class*="modal" i], [id*="onetrust" i]';
const HEADER_ZONE = 'header, [role="banner"], .header, #header, .site-header, .navbar, nav';

function pageMarks(ctx: MarkContext): MarkCandidate[] {
  const { $ } = ctx.page;
  const out: MarkCandidate[] = [];
  $('img, svg').each((index, el) => {
    if (el.tagName === 'svg' && $(el).parents('svg').length > 0) return;
    const candidate = judgeMark(ctx, el, index);
    if (candidate) out.push(candidate);
  });
  return out;
}

function judgeMark(ctx: MarkContext, el: HtmlElement, index: number): MarkCandidate | null {
  const { page } = ctx;
  const $el = page.$(el);
  if ($el.closest(EXCLUDED_CONTAINERS).length > 0 || $el.closest('button').length > 0) return null;
  const inHeader = $el.closest(HEADER_ZONE).length > 0;
  const inFooter = $el.closest('footer, [role="contentinfo"]').length > 0;
  const homeLinked = isHomeLinked(page, el);
  const named = isLogoNamed(page.$, el);
  if (!inHeader && !homeLinked && !named) return null;
  const label = markLabel(page.$, el);
  if (label && isThirdPartyLabel(label, page.label, ctx.brandName)) return null;
  if (!inHeader && !homeLinked && isInLogoWall(page.$, el)) return null;
  const size = paintedSize(page.$, el);
  if (size && Math.max(size.width, size.height) < 24) return null;
  const tag = String($el.prop('tagName') ?? '').toLowerCase();
  const url = tag === 'img' ? resolveUrl(imgSrc(page.$, el), page.baseUrl) : null;
  const svg = tag === 'svg' ? serializeInlineSvg(page, el, ctx.cssRules) : null;
  if (!url && !svg) return null;
  let score = (inHeader ? 50 : 0) + (inFooter ? 20 : 0) + (homeLinked ? 40 : 0) + (named ? 30 : 0);
  if (label && matchesBrand(label, page.label, ctx.brandName)) score += 40;
  if (url) score += siteBonus(url, page) * 1.5;
  if (size && (size.width > 800 || size.height > 500)) score -= 80;
  if (label.length > 50) score -= 40;
  score -= Math.min(index, 20);
  return { kind: 'header', url, svg, score, themeHint: themeHint(`${url ?? ''} ${label}`) };
}

function imgSrc($: CheerioAPI, el: HtmlElement): string | undefined {
  const $el = $(el);
  const srcset = $el.attr('srcset') ?? $el.attr('data-srcset');
  const fromSet = srcset ? srcset.split(',').map((s) => s.trim().split(/\s+/)[0]).filter(Boolean).pop() : undefined;
  return $el.attr('src') ?? $el.attr('data-src') ?? fromSet;
}

/** A link to the site's own home page: `/`, `./`, the own origin, or a locale root such as `/en` or `/de-ch`. */
export function isHomeLinked(page: HtmlPage, el: HtmlElement): boolean {
  const href = page.$(el).closest('a[href]').attr('href');
  const url = resolveUrl(href, page.baseUrl);
  if (!url || registrableDomain(url) !== page.domain) return false;
  return /^\/(index\.html?|[a-z]{2}([-_][a-z]{2})?\/?)?$/i.test(new URL(url).pathname);
}

function isLogoNamed($: CheerioAPI, el: HtmlElement): boolean {
  const chain = [el, ...$(el).parents().toArray().slice(0, 3)];
  return chain.some((node) => /logo|brand/i.test(`${$(node).attr('class') ?? ''} ${$(node).attr('id') ?? ''}`))
    || /logo/i.test(`${$(el).attr('alt') ?? ''} ${fileName($(el).attr('src'))}`);
}

function fileName(src: string | undefined): string {
  return (src ?? '').split(/[?#]/)[0]?.split('/').pop() ?? '';
}

/** Text that names the mark: alt, aria-label, title, or the <title> of an inline SVG. */
function markLabel($: CheerioAPI, el: HtmlElement): string {
  const $el = $(el);
  const text = $el.attr('alt') ?? $el.attr('aria-label') ?? $el.attr('title') ?? $el.children('title').first().text();
  return cleanText(text);
}

const LABEL_NOISE = /\b(logo(type)?|logos|icon|brand|wordmark|symbol|image|img|svg|png|jpe?g|webp|the|official|home(page)?|page|link|go|to|back|return|of|and|white|black|dark|light|mono(chrome)?|colou?r|full|horizontal|vertical|small|large|inverse|negative|primary|main|site|website|v\d+|\d+x)\b/gi;

/** dembrandt's rule: an alt that, stripped of logo words, names something the domain/brand does not contain. */
export function isThirdPartyLabel(label: string, domainLabel: string, brandName: string | null): boolean {
  const rest = label.toLowerCase().replace(LABEL_NOISE, ' ').replace(/[^a-z0-9]/g, '');
  if (!rest) return false;
  return !matchesBrand(label, domainLabel, brandName);
}

function matchesBrand(label: string, domainLabel: string, brandName: string | null): boolean {
  const rest = label.toLowerCase().replace(LABEL_NOISE, ' ').replace(/[^a-z0-9]/g, '');
  const names = [domainLabel, brandName ?? ''].map((n) => n.toLowerCase().replace(/[^a-z0-9]/g, '')).filter(Boolean);
  return rest.length > 0 && names.some((n) => n.includes(rest) || rest.includes(n));
}

/** ≥ 3 marks in one local container outside the header: "trusted by", integrations, press (dembrandt). */
export function isInLogoWall($: CheerioAPI, el: HtmlElement): boolean {
  const ancestors = $(el).parents().toArray().slice(0, 4);
  return ancestors.some((node) => {
    if (/^(body|html|main)$/i.test(node.tagName)) return false;
    const marks = $(node).find('img, svg').filter((_, m) => $(m).parents('svg').length === 0);
    return marks.length >= 3;
  });
}

/** Size from width/height attributes, when both are plain numbers (the painted size is unknown without CSS). */
function paintedSize($: CheerioAPI, el: HtmlElement): { width: number; height: number } | null {
  const w = Number($(el).attr('width'));
  const h = Number($(el).attr('height'));
  return Number.isFinite(w) && Number.isFinite(h) && w > 0 && h > 0 ? { width: w, height: h } : null;
}

export function themeHint(text: string): 'dark' | 'light' | null {
  const t = text.toLowerCase();
  if (/(^|[^a-z])(white|light|negative|reverse|inverse|knockout|on-dark)([^a-z]|$)/.test(t)) return 'light';
  if (/(^|[^a-z])(black|dark|on-light|positive)([^a-z]|$)/.test(t)) return 'dark';
  return null;
}
