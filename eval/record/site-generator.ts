/**
 * Builds one labelled fixture website per brand: homepage, stylesheet, about page, logo, favicon and sometimes a
 * manifest, expressing the brand's colour, fonts and company facts in one of several realistic ways chosen by
 * the brand's index (so every extraction path is exercised by several brands), with the usual noise: status
 * colours, framework variables, a dark footer, a cookie banner, a footer copyright year that is not the founding
 * year, share links. Returns the files and the ground truth the page actually states.
 */
import sharp from 'sharp';
import * as icons from 'simple-icons';
import type { CompanyKind } from '../../src/domain/brand.js';
import { googleFamily } from '../../src/crawl/fields/fonts/google-font-families.js';
import type { LabelledBrand } from './brands.js';

export interface SiteFile {
  type: string;
  body: string | Buffer;
}

export interface FontTruth {
  name: string;
  origin: 'google' | 'custom' | 'system';
}

export interface CompanyTruth {
  foundedYear?: number;
  employees?: number;
  city?: string;
  countryCode?: string;
  region?: string;
  kind?: CompanyKind;
  ticker?: string;
}

export interface SiteTruth {
  host: string;
  /** Official simple-icons hex, `#rrggbb`. */
  brandHex: string;
  title: FontTruth;
  body: FontTruth;
  company: CompanyTruth;
  industry: string;
  /** The one-sentence description the site states (for the training-overlap check of the industry figure). */
  description: string;
  colorVariant: string;
  fontVariant: string;
  companyVariant: string;
}

export interface GeneratedSite {
  host: string;
  files: Record<string, SiteFile>;
  truth: SiteTruth | null;
  /** Expected isNsfw; every real brand is false. */
  nsfw: boolean;
  /** Control sites expected in the lower third of the quality score. */
  lowQuality?: boolean;
  /** Real pages: simple-icons' hex for the brand, when it has one. */
  officialHex?: string;
  /** Real pages: the hand-labelled top-level industry id. */
  topIndustry?: string;
  /** Real pages: the brand names a brand service should report for the page's domain (the corpus labels). */
  acceptedNames?: string[];
  /** Real pages: which saved page this is (`real-pages/acast`), for the report. */
  corpusPage?: string;
}

interface SimpleIcon {
  slug: string;
  title: string;
  hex: string;
  path: string;
}

const ALL_ICONS = (Object.values(icons) as unknown[]).filter((i): i is SimpleIcon => typeof i === 'object' && i !== null && 'slug' in i && 'path' in i);
const COLOR_VARIANTS = ['token', 'theme-meta', 'modern-syntax', 'manifest-links', 'gradient-cta', 'logo-only', 'png-logo-only'] as const;
const FONT_VARIANTS = ['css2', 'legacy', 'import', 'self-hosted', 'nextjs', 'tokens', 'system-body', 'typekit'] as const;
const COMPANY_VARIANTS = ['jsonld-full', 'about-text', 'jsonld-broken', 'text-only'] as const;
const ADOBE_FAMILIES = ['proxima-nova', 'freight-big-pro', 'museo-sans', 'brandon-grotesque', 'futura-pt', 'sofia-pro', 'acumin-pro'];
const REGIONS: Record<string, string> = { US: 'Americas', CA: 'Americas', SE: 'Europe', GB: 'Europe', IE: 'Europe', AE: 'Asia', NL: 'Europe', DE: 'Europe' };
const COUNTRY_CODES: Record<string, string> = { 'United States': 'US', Canada: 'CA', Sweden: 'SE', 'United Kingdom': 'GB', Ireland: 'IE', Netherlands: 'NL', Germany: 'DE' };

export function iconOf(slug: string): SimpleIcon {
  const icon = ALL_ICONS.find((i) => i.slug === slug);
  if (!icon) throw new Error(`simple-icons has no ${slug}`);
  return icon;
}

export async function buildBrandSite(brand: LabelledBrand, index: number): Promise<GeneratedSite> {
  const icon = iconOf(brand.slug);
  const hex = `#${icon.hex.toLowerCase()}`;
  const host = `${brand.slug}.test`;
  const colorVariant = COLOR_VARIANTS[index % COLOR_VARIANTS.length] ?? 'token';
  const fontVariant = FONT_VARIANTS[index % FONT_VARIANTS.length] ?? 'css2';
  const companyVariant = COMPANY_VARIANTS[index % COMPANY_VARIANTS.length] ?? 'jsonld-full';
  const fonts = fontPlan(brand, fontVariant, index);
  const company = companyPlan(brand, companyVariant, host);
  const color = withNoise(colorPlan(hex, colorVariant), index, colorVariant);
  const files: Record<string, SiteFile> = {
    '/': html(homepage({ brand, icon, hex, host, fonts, company, color })),
    '/about': html(aboutPage(brand, icon, company)),
    '/assets/site.css': { type: 'text/css', body: `${fonts.css}\n${color.css}\n${NOISE_CSS}\n${fontNoise(index)}` },
    '/logo.svg': { type: 'image/svg+xml', body: logoSvg(icon, hex) },
    '/logo.png': { type: 'image/png', body: await sharp(Buffer.from(logoSvg(icon, hex)), { density: 288 }).png().toBuffer() },
    '/favicon.svg': { type: 'image/svg+xml', body: markSvg(icon.path, hex, 32) },
    ...fonts.files,
  };
  if (color.manifest) files['/site.webmanifest'] = { type: 'application/manifest+json', body: color.manifest };
  return {
    host,
    files,
    nsfw: false,
    truth: { host, brandHex: hex, title: fonts.title, body: fonts.body, company: company.truth, industry: brand.industry, description: brand.description, colorVariant, fontVariant, companyVariant },
  };
}

// ---------------------------------------------------------------- colours

interface ColorPlan {
  css: string;
  head: string;
  manifest: string | null;
  inlineLogo: boolean;
  pngLogo?: boolean;
}

function colorPlan(hex: string, variant: (typeof COLOR_VARIANTS)[number]): ColorPlan {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  switch (variant) {
    case 'token':
      return { head: '', manifest: null, inlineLogo: false, css: `:root { --color-brand: ${hex}; --color-text: #1f2937; --color-danger: #d92d20; --tw-ring-color: #3b82f6; --color-surface: #ffffff; }\n.btn-primary { background: var(--color-brand); color: #fff; }\n.badge-error { background: var(--color-danger); }` };
    case 'theme-meta':
      return { head: `<meta name="theme-color" content="${hex}">`, manifest: null, inlineLogo: false, css: `.button--primary, .btn-primary { background-color: rgb(${r} ${g} ${b}); color: white; }\n.alert-success { background-color: #16a34a; }` };
    case 'modern-syntax':
      return { head: `<link rel="mask-icon" href="/favicon.svg" color="${hex}">`, manifest: null, inlineLogo: false, css: `.btn-primary { background-color: ${oklchString(hex)}; }\na { color: ${hslOf(hex)}; }\n.tag-warning { background: #f59e0b; }` };
    case 'manifest-links':
      return { head: '<link rel="manifest" href="/site.webmanifest">', manifest: JSON.stringify({ name: 'x', theme_color: hex, background_color: '#ffffff', icons: [] }), inlineLogo: false, css: `a, .link { color: ${hex}; }\nh1 { color: #111827; }` };
    case 'gradient-cta':
      return { head: '', manifest: null, inlineLogo: false, css: `.hero { background: linear-gradient(135deg, ${hex} 0%, #111827 100%); }\n.cta, .btn-primary { background-color: ${hex.toUpperCase()}; }\n.sale { background: #e11d48; }` };
    case 'logo-only':
      return { head: '', manifest: null, inlineLogo: true, css: '.btn-primary { background-color: #111827; color: #fff; }\n.error { color: #dc2626; }' };
    default:
      // The colour lives only in a raster logo: the crawler must read it from the PNG's pixels.
      return { head: '', manifest: null, inlineLogo: false, pngLogo: true, css: '.btn-primary { background-color: #111827; color: #fff; }\n.error { color: #dc2626; }' };
  }
}

/**
 * Realistic distractors, one or two per site, chosen independently of the colour variant: a white theme-color
 * (very common), a differently coloured secondary button, a Tailwind palette in :root, dark-mode token
 * overrides, a chat widget's own blue, generic blue links.
 */
function withNoise(plan: ColorPlan, index: number, variant: (typeof COLOR_VARIANTS)[number]): ColorPlan {
  const kinds = [(index * 5 + 3) % 7, (index * 7 + 1) % 7];
  let { head, css } = plan;
  for (const kind of new Set(kinds)) {
    if (kind === 0 && variant !== 'theme-meta') head += '\n<meta name="theme-color" content="#ffffff">';
    if (kind === 1) css += '\n.btn-secondary { background-color: #f59e0b; }';
    if (kind === 2) css += '\n:root { --blue-500: #3b82f6; --green-500: #22c55e; --red-500: #ef4444; --gray-100: #f3f4f6; --gray-900: #111827; }';
    if (kind === 3) css += '\n@media (prefers-color-scheme: dark) { :root { --color-brand: #a5b4fc; --color-surface: #0b0b0f; } body { background-color: #0b0b0f; } }';
    if (kind === 4) css += '\n.chat-widget-launcher { background-color: #0084ff; border-radius: 50%; }';
    if (kind === 5 && variant !== 'manifest-links' && variant !== 'modern-syntax') css += '\na { color: #2563eb; }';
    if (kind === 6) css += '\n:root { --bs-primary: #0d6efd; --bs-secondary: #6c757d; --bs-success: #198754; --bs-primary-rgb: 13, 110, 253; }';
  }
  return { ...plan, head, css };
}

function oklchString(hex: string): string {
  const { l, c, h } = toOklch(hex);
  return `oklch(${(l * 100).toFixed(2)}% ${c.toFixed(4)} ${h.toFixed(2)})`;
}

function hslOf(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let h = 0;
  if (d !== 0) h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return `hsl(${((h * 60 + 360) % 360).toFixed(1)}deg ${(s * 100).toFixed(1)}% ${(l * 100).toFixed(1)}%)`;
}

function toOklch(hex: string): { l: number; c: number; h: number } {
  const lin = (v: number): number => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = [1, 3, 5].map((i) => lin(Number.parseInt(hex.slice(i, i + 2), 16) / 255)) as [number, number, number];
  const l_ = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m_ = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s_ = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const L = 0.2104542553 * l_ + 0.793617785 * m_ - 0.0040720468 * s_;
  const A = 1.9779984951 * l_ - 2.428592205 * m_ + 0.4505937099 * s_;
  const B = 0.0259040371 * l_ + 0.7827717662 * m_ - 0.808675766 * s_;
  return { l: L, c: Math.hypot(A, B), h: ((Math.atan2(B, A) * 180) / Math.PI + 360) % 360 };
}

const NOISE_CSS = `html, body { background-color: #ffffff; color: #111827; }
footer, .site-footer { background-color: #0f172a; color: #cbd5e1; }
.card { border: 1px solid #e5e7eb; background: #f9fafb; }
.cookie-banner { background: #111827; color: #f9fafb; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.icon { font-family: "Font Awesome 6 Free"; }`;

// ---------------------------------------------------------------- fonts

interface FontPlan {
  head: string;
  css: string;
  files: Record<string, SiteFile>;
  title: FontTruth;
  body: FontTruth;
  htmlClass: string;
}

function fontPlan(brand: LabelledBrand, variant: (typeof FONT_VARIANTS)[number], index: number): FontPlan {
  const custom = [brand.title, brand.body].filter((f) => !googleFamily(f));
  const truth = (name: string): FontTruth => ({ name, origin: googleFamily(name) ? 'google' : 'custom' });
  const q = (f: string): string => `"${f}"`;
  const plus = (f: string): string => f.replace(/ /g, '+');
  const families = [...new Set([brand.title, brand.body])];
  const googleOnes = families.filter((f) => googleFamily(f));
  const customFaces = custom.map((f) => `@font-face { font-family: ${q(f)}; src: url("/fonts/${slugify(f)}.woff2") format("woff2"); font-weight: 400 800; font-display: swap; }`).join('\n');
  const roles = (title: string, body: string): string => `body { font-family: ${body}, system-ui, sans-serif; font-weight: 400; }\nh1, h2, h3, .heading { font-family: ${title}, Georgia, serif; font-weight: 700; }`;
  const css2 = googleOnes.length ? `https://fonts.googleapis.com/css2?${googleOnes.map((f) => `family=${plus(f)}:wght@400;700`).join('&amp;')}&amp;display=swap` : '';
  const base = { files: {}, title: truth(brand.title), body: truth(brand.body), htmlClass: '' };
  switch (variant) {
    case 'legacy':
      return { ...base, head: googleOnes.length ? `<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=${googleOnes.map((f) => `${plus(f)}:400,700,400italic`).join('|')}&amp;display=swap">` : '', css: `${customFaces}\n${roles(q(brand.title), q(brand.body))}` };
    case 'import':
      return { ...base, head: '', css: `${css2 ? `@import url("${css2.replace(/&amp;/g, '&')}");\n` : ''}${customFaces}\n${roles(q(brand.title), q(brand.body))}` };
    case 'self-hosted':
      return { ...base, head: '', css: `${families.map((f) => `@font-face { font-family: ${q(f)}; src: url("/fonts/${slugify(f)}-latin.woff2") format("woff2"); font-weight: 400; font-style: normal; }\n@font-face { font-family: ${q(f)}; src: url("/fonts/${slugify(f)}-latin-700.woff2") format("woff2"); font-weight: 700; font-style: normal; }`).join('\n')}\n${roles(q(brand.title), q(brand.body))}` };
    case 'nextjs': {
      const hash = (f: string): string => `__${f.replace(/ /g, '_')}_${(index * 7919 + f.length * 104729).toString(16).padStart(6, '0').slice(-6)}`;
      const faces = families.map((f) => `@font-face { font-family: '${hash(f)}'; src: url(/_next/static/media/${slugify(f)}.woff2) format('woff2'); font-weight: 100 900; }\n@font-face { font-family: '${hash(f).replace(/_([0-9a-f]{6})$/, '_Fallback_$1')}'; src: local("Arial"); }`).join('\n');
      const stack = (f: string): string => `'${hash(f)}', '${hash(f).replace(/_([0-9a-f]{6})$/, '_Fallback_$1')}'`;
      return { ...base, head: '', css: `${faces}\n.__className_body { font-family: ${stack(brand.body)}; }\nbody { font-family: ${stack(brand.body)}; }\nh1, h2 { font-family: ${stack(brand.title)}; }` };
    }
    case 'tokens':
      return { ...base, head: families.filter((f) => googleFamily(f)).map((f) => `<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=${plus(f)}:ital,wght@0,400;0,700;1,400&amp;display=swap">`).join('\n'), css: `${customFaces}\n:root { --font-heading: ${q(brand.title)}, serif; --font-body: ${q(brand.body)}, sans-serif; }\nhtml { font-family: var(--font-body); }\nh1, h2, h3 { font-family: var(--font-heading); }` };
    case 'system-body':
      return { ...base, body: { name: 'system-ui', origin: 'system' }, head: googleFamily(brand.title) ? `<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=${plus(brand.title)}:wght@600;800&amp;display=swap">` : '', css: `${custom.includes(brand.title) ? customFaces : ''}\nbody { font: 16px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }\nh1, h2, .title { font-family: ${q(brand.title)}, sans-serif; }` };
    case 'typekit': {
      const adobe = ADOBE_FAMILIES[index % ADOBE_FAMILIES.length] ?? 'proxima-nova';
      return { ...base, title: { name: adobe, origin: 'custom' }, head: `<link rel="stylesheet" href="https://use.typekit.net/k${index}abcd.css">${googleFamily(brand.body) ? `\n<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=${plus(brand.body)}&amp;display=swap">` : ''}`, css: `${custom.includes(brand.body) ? customFaces : ''}\n${roles(`${adobe}`, q(brand.body))}` };
    }
    default:
      return { ...base, head: css2 ? `<link rel="stylesheet" href="${css2}">` : '', css: `${customFaces}\n${roles(q(brand.title), q(brand.body))}` };
  }
}

/** Rules real stylesheets carry after the typography: resets, inherited headings in cards, a widget's font. */
function fontNoise(index: number): string {
  const noise = [
    'button, input, select, textarea { font-family: inherit; font-size: 100%; }',
    '.card h2, .card h3 { font-family: inherit; font-size: 1.25rem; }',
    '.site-footer p, .legal p { font-family: Arial, sans-serif; font-size: 12px; }',
    'h1, h2, h3, h4, h5, h6 { margin: 0; font-size: inherit; font-weight: inherit; }',
    '.intercom-launcher, .chat-widget p { font-family: "Helvetica Neue", Helvetica, sans-serif; }',
  ];
  return [noise[index % noise.length], noise[(index * 3 + 2) % noise.length]].join('\n');
}

function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

// ---------------------------------------------------------------- company

interface CompanyPlan {
  homeJsonLd: string;
  aboutJsonLd: string;
  aboutText: string;
  truth: CompanyTruth;
}

function companyPlan(brand: LabelledBrand, variant: (typeof COMPANY_VARIANTS)[number], host: string): CompanyPlan {
  const icon = iconOf(brand.slug);
  const type = brand.type ?? 'Organization';
  const code = COUNTRY_CODES[brand.country] ?? brand.country;
  const listedKind: CompanyKind | undefined = type === 'NGO' ? 'NON_PROFIT' : type === 'EducationalOrganization' ? 'EDUCATIONAL' : brand.ticker ? 'PUBLIC_COMPANY' : undefined;
  // The footer's legal name states how an unlisted company is held when its form is unambiguous (GmbH, B.V., Ltd).
  const kind: CompanyKind | undefined = listedKind ?? (legalSuffix(code) ? 'PRIVATELY_HELD' : undefined);
  const band = bandOf(brand.employees);
  const location = { city: brand.city, countryCode: code, region: REGIONS[code] ?? '' };
  const org = (extra: Record<string, unknown>): Record<string, unknown> => ({ '@type': type, '@id': `https://${host}/#org`, name: icon.title, url: `https://${host}/`, logo: `https://${host}/logo.svg`, ...extra });
  const address = { '@type': 'PostalAddress', addressLocality: brand.city, addressCountry: brand.country };
  const ticker = brand.ticker ? { tickerSymbol: `NASDAQ: ${brand.ticker}` } : {};
  const script = (data: unknown): string => `<script type="application/ld+json">${JSON.stringify(data, null, 1)}</script>`;
  const graph = (node: Record<string, unknown>): unknown => ({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite', url: `https://${host}/`, name: icon.title, publisher: { '@id': `https://${host}/#org` } }, node] });
  const tickerText = brand.ticker ? ` Our shares trade on the Nasdaq (NASDAQ: ${brand.ticker}).` : '';
  const ngoText = type === 'NGO' ? ' We are a non-profit organization funded by donations.' : '';
  switch (variant) {
    case 'jsonld-full':
      return {
        homeJsonLd: script(graph(org({ foundingDate: `${brand.founded}-01-01`, numberOfEmployees: { '@type': 'QuantitativeValue', value: brand.employees }, address, ...ticker, description: brand.description }))),
        aboutJsonLd: '', aboutText: `<p>${icon.title} builds products people use every day. ${brand.description}</p>`,
        truth: { foundedYear: brand.founded, employees: band, ...location, kind, ticker: brand.ticker },
      };
    case 'about-text':
      return {
        homeJsonLd: script({ '@context': 'https://schema.org', '@type': 'Organization', name: icon.title, url: `https://${host}/`, logo: `https://${host}/logo.svg` }),
        aboutJsonLd: script({ '@context': 'https://schema.org', '@type': 'AboutPage', mainEntity: org({ address }) }),
        aboutText: `<p>${icon.title} was founded in ${brand.founded} in ${brand.city}. Today more than ${brand.employees.toLocaleString('en-US')} employees work on our mission.${tickerText}${ngoText}</p>`,
        truth: { foundedYear: brand.founded, employees: band, ...location, kind, ticker: brand.ticker },
      };
    case 'jsonld-broken':
      return {
        homeJsonLd: `<script type="application/ld+json">
        // generated by our CMS
        { "@context": "https://schema.org", "@type": "${type}", "name": "${icon.title}", "url": "https://${host}/",
          "foundingDate": "${brand.founded}", "numberOfEmployees": ${brand.employees},
          "address": { "@type": "PostalAddress", "addressLocality": "${brand.city}", "addressCountry": { "@type": "Country", "name": "${brand.country}" } },${brand.ticker ? ` "tickerSymbol": "${brand.ticker}",` : ''}
        }</script>`,
        aboutJsonLd: '', aboutText: `<p>${brand.description}</p>`,
        truth: { foundedYear: brand.founded, employees: band, ...location, kind, ticker: brand.ticker },
      };
    default:
      return {
        homeJsonLd: '', aboutJsonLd: '',
        aboutText: `<p>Since ${brand.founded}, ${icon.title} has helped customers around the world. ${brand.description}</p><p>We are a team of ${brand.employees.toLocaleString('en-US')} people.${tickerText}${ngoText}</p>`,
        truth: { foundedYear: brand.founded, employees: band, kind, ticker: brand.ticker },
      };
  }
}

/** The legal-form suffix a site in this country writes after its name in the footer; '' when ambiguous (Inc., AB). */
export function legalSuffix(countryCode: string): string {
  return ({ DE: 'GmbH', NL: 'B.V.', GB: 'Ltd', IE: 'Ltd' } as Record<string, string>)[countryCode] ?? '';
}

export function bandOf(n: number): number {
  return [10001, 5001, 1001, 501, 201, 51, 11, 2, 1].find((b) => n >= b) ?? 1;
}

// ---------------------------------------------------------------- pages

interface PageParts {
  brand: LabelledBrand;
  icon: SimpleIcon;
  hex: string;
  host: string;
  fonts: FontPlan;
  company: CompanyPlan;
  color: ColorPlan;
}

function homepage({ brand, icon, hex, host, fonts, company, color }: PageParts): string {
  const copyrightYear = Math.max(brand.founded + 3, 2019);
  const logo = color.inlineLogo
    ? `<a href="/" class="logo" aria-label="${icon.title} home">${markSvg(icon.path, hex, 32)}<span>${icon.title}</span></a>`
    : `<a href="/" class="logo"><img src="/logo.${color.pngLogo ? 'png' : 'svg'}" alt="${icon.title}" width="160" height="32"></a>`;
  return `<!doctype html>
<html lang="en"${fonts.htmlClass}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${icon.title} | ${brand.description.split(/[.:]/)[0]}</title>
<meta name="description" content="${brand.description}">
<meta property="og:site_name" content="${icon.title}">
<meta property="og:description" content="${brand.description}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${color.head}
${fonts.head}
<link rel="stylesheet" href="/assets/site.css">
${company.homeJsonLd}
</head>
<body>
<div class="cookie-banner" role="dialog"><p>We use cookies to improve your experience. Accept all cookies or manage settings.</p><button class="cookie-accept">Accept</button></div>
<header class="site-header">${logo}
<nav><a href="/product">Product</a> <a href="/pricing">Pricing</a> <a href="/about">About us</a> <a href="/contact">Contact</a></nav>
<a class="btn btn-primary" href="/signup">Get started</a></header>
<main>
<section class="hero"><h1>${brand.description.split(/[.:]/)[0]}</h1><p>${brand.description}</p><a class="btn btn-primary cta" href="/signup">Get started</a></section>
<section class="proof"><p>${COPY_TRAPS[brand.founded % COPY_TRAPS.length]}</p></section>
<section class="share"><a href="https://twitter.com/intent/tweet?url=https%3A%2F%2F${host}">Share</a></section>
</main>
<footer class="site-footer"><p>© ${copyrightYear}–2026 ${icon.title}${legalName(brand)}. All rights reserved.</p>
<a href="https://x.com/${brand.slug}">X</a> <a href="https://www.linkedin.com/company/${brand.slug}">LinkedIn</a></footer>
</body>
</html>`;
}

/** Marketing copy with numbers and years that are not firmographics. */
const COPY_TRAPS = [
  'Used by more than 40,000 employees at 300 companies worldwide.',
  'New: smarter search, available since 2024.',
  'Trusted by 2,000,000+ people and teams.',
  'Rated 4.8 by 12,000 reviewers in 2025.',
];

function legalName(brand: LabelledBrand): string {
  const code = COUNTRY_CODES[brand.country] ?? brand.country;
  const suffix = legalSuffix(code);
  if (suffix) return ` ${suffix}`;
  return code === 'US' ? ', Inc.' : code === 'SE' ? ' AB' : '';
}

function aboutPage(brand: LabelledBrand, icon: SimpleIcon, company: CompanyPlan): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>About us | ${icon.title}</title>${company.aboutJsonLd}</head>
<body><header><a href="/">${icon.title}</a></header><main><h1>About ${icon.title}</h1>${company.aboutText}
<p>We support adult education programmes and sponsor a charity run for breast cancer research every spring.</p></main>
<footer><p>© 2026 ${icon.title}</p></footer></body></html>`;
}

function html(body: string): SiteFile {
  return { type: 'text/html; charset=utf-8', body };
}

export function markSvg(path: string, fill: string, size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24"><path fill="${fill}" d="${path}"/></svg>`;
}

function logoSvg(icon: SimpleIcon, hex: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="32" viewBox="0 0 160 32"><title>${icon.title}</title><g transform="translate(4 4)"><path fill="${hex}" d="${icon.path}"/></g><text x="36" y="23" font-family="Arial, sans-serif" font-size="18" font-weight="700" fill="#111111">${icon.title}</text></svg>`;
}
