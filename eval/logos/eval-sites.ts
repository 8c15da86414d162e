/**
 * The labelled corpus of `npm run eval` (issue 4 item 8): websites generated from real brand artwork
 * (brand-assets.ts) in the page structures real sites use, each with the answer a careful human gives:
 * which file is the brand's primary mark, its type and theme, which files are acceptable as the icon, and
 * which files are other brands' marks that must never be chosen. Every image a site serves is registered
 * under an id, so the suite can tell which file a stored asset came from by its pixels (see signature.ts).
 */
import { encodeIco } from '../../test/helpers/fixture-sites.js';
import sharp from 'sharp';
import {
  EVAL_BRAND_SLUGS,
  PARTNER_KEYS,
  PAYMENT_KEYS,
  SOCIAL_KEYS,
  evalBrand,
  recolor,
  recoloredLogo,
  thirdPartyMark,
  type EvalBrand,
} from './brand-assets.js';

export interface StaticFile {
  type: string;
  body: Buffer | string;
}

export interface SiteLabel {
  /** Registry id of the brand's primary mark; null when the site shows none. */
  primary: string | null;
  primaryType: 'logo' | 'symbol' | null;
  /** Expected theme of the primary mark; undefined = not labelled (multi-colour marks have no clear answer). */
  theme?: 'dark' | 'light' | null;
  /** The other colour scheme's version of the primary mark, when the site has one. */
  variant?: { id: string; theme: 'dark' | 'light' };
  /** Registry ids acceptable as the icon. */
  icon: string[];
  /** Registry ids of other brands' marks, placeholders and UI graphics: choosing one is an error. */
  thirdParty: string[];
  /** Tags a careful labeller accepts on the primary mark (anything else assigned is a wrong tag). */
  allowedTags: string[];
  /** The site builds its header with JavaScript: only a rendering crawler can find the logo. */
  needsRendering?: boolean;
}

export interface EvalSite {
  host: string;
  scenario: string;
  brand: EvalBrand;
  files: Record<string, StaticFile>;
  /** Every image the site serves, by id: SVG text or raster bytes. */
  registry: Record<string, string | Buffer>;
  label: SiteLabel;
}

type Scenario = (brand: EvalBrand, partners: ReturnType<typeof thirdPartyMark>[]) => Promise<Omit<EvalSite, 'host' | 'scenario' | 'brand'>>;

const svg = (body: string): StaticFile => ({ type: 'image/svg+xml', body });
const png = (body: Buffer): StaticFile => ({ type: 'image/png', body });
const html = (body: string): StaticFile => ({ type: 'text/html; charset=utf-8', body });
const css = (body: string): StaticFile => ({ type: 'text/css', body });

async function pngOf(svgText: string, width?: number): Promise<Buffer> {
  const image = sharp(Buffer.from(svgText), { density: 144 });
  return (width ? image.resize({ width }) : image).png().toBuffer();
}

/** App icon: the brand's icon on an opaque white plate with safe-zone padding, as apple-touch icons are. */
async function plateIcon(brand: EvalBrand, size: number): Promise<Buffer> {
  const inner = Math.round(size * 0.7);
  const mark = await sharp(Buffer.from(brand.icon), { density: 300 }).resize(inner, inner).png().toBuffer();
  return sharp({ create: { width: size, height: size, channels: 4, background: '#ffffff' } })
    .composite([{ input: mark, gravity: 'centre' }])
    .png()
    .toBuffer();
}

interface PageParts {
  head?: string;
  header: string;
  main?: string;
  footer?: string;
  bodyStart?: string;
  headerStyle?: string;
  styles?: string;
}

const DEFAULT_ICON_LINKS = '<link rel="icon" type="image/png" sizes="32x32" href="/favicon-32x32.png">\n<link rel="apple-touch-icon" sizes="180x180" href="/apple-touch-icon.png">';

function page(brand: EvalBrand, parts: PageParts): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>${brand.name} — software teams love</title>
<meta name="description" content="${brand.name} helps teams ship faster with less busywork.">
<meta property="og:site_name" content="${brand.name}">
${parts.head ?? DEFAULT_ICON_LINKS}
<link rel="stylesheet" href="/site.css">
${parts.styles ? `<style>${parts.styles}</style>` : ''}
</head><body>
${parts.bodyStart ?? ''}
<header class="site-header"${parts.headerStyle ? ` style="${parts.headerStyle}"` : ''}>
${parts.header}
<nav class="main-nav"><a href="/product">Product</a> <a href="/pricing">Pricing</a> <a href="/about">About</a>
<button class="menu" aria-label="Menu"><svg width="20" height="20" viewBox="0 0 24 24"><path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor"/></svg></button></nav>
</header>
<main>
<section class="hero"><h1>${brand.name} makes the busywork disappear</h1>
<p>Plan, build and ship with one tool. ${brand.name} connects your whole team, from the first idea to the last release.</p></section>
${parts.main ?? ''}
</main>
<footer class="site-footer">${parts.footer ?? `<p>© 2026 ${brand.name} Inc.</p>`}</footer>
</body></html>`;
}

/** Files every site has: the stylesheet, the PNG favicon and the apple-touch icon. */
async function baseFiles(brand: EvalBrand): Promise<{ files: Record<string, StaticFile>; registry: Record<string, string | Buffer> }> {
  const favicon = await pngOf(brand.icon.replace('width="64" height="64"', 'width="32" height="32"'));
  const touch = await plateIcon(brand, 180);
  return {
    files: {
      '/site.css': css('body{font-family:Inter,sans-serif;margin:0}.site-header{display:flex;gap:24px;padding:16px 32px;background:#ffffff}'),
      '/favicon-32x32.png': png(favicon),
      '/apple-touch-icon.png': png(touch),
    },
    registry: { 'favicon-32': favicon, 'apple-touch': touch },
  };
}

const homeLinkedImg = (brand: EvalBrand, src: string, extra = ''): string =>
  `<a href="/" class="logo" aria-label="${brand.name} home"><img src="${src}" alt="${brand.name}" ${extra}></a>`;

function label(partial: Partial<SiteLabel> & Pick<SiteLabel, 'primary'>): SiteLabel {
  return { primaryType: 'logo', icon: ['apple-touch'], thirdParty: [], allowedTags: [], ...partial };
}

// ---------------------------------------------------------------- scenarios

const lightHeaderImg: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  return {
    files: { ...base.files, '/': html(page(brand, { header: homeLinkedImg(brand, '/assets/logo.svg') })), '/assets/logo.svg': svg(brand.logo) },
    registry: { ...base.registry, logo: brand.logo },
    label: label({ primary: 'logo' }),
  };
};

const darkHeaderWhiteLogo: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const white = recoloredLogo(brand, '#ffffff');
  return {
    files: {
      ...base.files,
      '/': html(page(brand, { header: homeLinkedImg(brand, '/img/logo-white.svg'), headerStyle: 'background:#0b0b12' })),
      '/img/logo-white.svg': svg(white),
    },
    registry: { ...base.registry, logo: white },
    label: label({ primary: 'logo', theme: 'light' }),
  };
};

function inlineCurrentColor(headerColor: string, headerBg: string, theme: 'dark' | 'light'): Scenario {
  return async (brand) => {
    const base = await baseFiles(brand);
    const inline = `<a href="/" class="brand"><svg class="brand-logo" viewBox="${brand.logoViewBox}" width="160" height="${Math.round(160 / brand.aspect)}" fill="currentColor" role="img" aria-label="${brand.name}"><title>${brand.name}</title>${recolor(brand.logoBody, 'currentColor')}</svg></a>`;
    return {
      files: {
        ...base.files,
        '/': html(page(brand, { header: inline, styles: `.site-header{color:${headerColor};background:${headerBg}}` })),
      },
      registry: { ...base.registry, logo: recoloredLogo(brand, headerColor) },
      label: label({ primary: 'logo', theme }),
    };
  };
}

const logoWall: Scenario = async (brand, partners) => {
  const base = await baseFiles(brand);
  const own = recoloredLogo(brand, '#111111');
  const wall = partners.slice(0, 4);
  const items = wall.map((p) => `<li><img class="logo" src="/customers/${p.slug}.svg" alt="${p.title}" width="120" height="40"></li>`).join('');
  return {
    files: {
      ...base.files,
      '/': html(page(brand, { header: homeLinkedImg(brand, '/img/logo.svg'), main: `<section class="customers"><h2>Trusted by</h2><ul class="logos">${items}</ul></section>` })),
      '/img/logo.svg': svg(own),
      ...Object.fromEntries(wall.map((p) => [`/customers/${p.slug}.svg`, svg(p.svg)])),
    },
    registry: { ...base.registry, logo: own, ...Object.fromEntries(wall.map((p) => [`partner:${p.slug}`, p.svg])) },
    label: label({ primary: 'logo', theme: 'dark', thirdParty: wall.map((p) => `partner:${p.slug}`) }),
  };
};

const cookieBanner: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const vendor = thirdPartyMark('siDatadog', 48);
  const banner = `<div id="consent-banner" class="cookie-consent"><img src="/consent/vendor-logo.svg" alt="Consent by Datadog" width="48" height="48"><p>We use cookies.</p><button>Accept</button></div>`;
  return {
    files: { ...base.files, '/': html(page(brand, { bodyStart: banner, header: homeLinkedImg(brand, '/logo.svg') })), '/logo.svg': svg(brand.logo), '/consent/vendor-logo.svg': svg(vendor.svg) },
    registry: { ...base.registry, logo: brand.logo, cookie: vendor.svg },
    label: label({ primary: 'logo', thirdParty: ['cookie'] }),
  };
};

const cssBackground: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const height = Math.round(160 / brand.aspect);
  const styles = `.navbar-brand{display:block;width:160px;height:${height}px;background:url(/img/brand.svg) no-repeat;background-size:contain;text-indent:-9999px}`;
  return {
    files: { ...base.files, '/': html(page(brand, { header: `<a href="/" class="navbar-brand">${brand.name}</a>`, styles })), '/img/brand.svg': svg(brand.logo) },
    registry: { ...base.registry, logo: brand.logo },
    label: label({ primary: 'logo' }),
  };
};

const spriteSheet: Scenario = async (brand, partners) => {
  const base = await baseFiles(brand);
  const logoPng = await pngOf(recoloredLogo(brand, '#1d1d1f', 40));
  const meta = await sharp(logoPng).metadata();
  const w = meta.width ?? 200;
  const h = meta.height ?? 40;
  const glyphs = await Promise.all(partners.slice(0, 3).map((p) => pngOf(p.svg, 48)));
  const sheetWidth = Math.max(w, 3 * 64);
  const sprite = await sharp({ create: { width: sheetWidth, height: 64 + h, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([...glyphs.map((g, i) => ({ input: g, left: i * 64, top: 0 })), { input: logoPng, left: 0, top: 64 }])
    .png()
    .toBuffer();
  const styles = `.site-logo{display:block;width:${w}px;height:${h}px;background:url(/img/sprite.png) 0 -64px no-repeat;text-indent:-9999px}`;
  return {
    files: { ...base.files, '/': html(page(brand, { header: `<a href="/" class="site-logo">${brand.name}</a>`, styles })), '/img/sprite.png': png(sprite) },
    registry: { ...base.registry, logo: logoPng, sprite },
    label: label({ primary: 'logo', theme: 'dark', thirdParty: ['sprite'] }),
  };
};

const appleTouchOnly: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const head = '<link rel="apple-touch-icon-precomposed" href="/apple-touch-icon.png">';
  return {
    files: { ...base.files, '/': html(page(brand, { head, header: homeLinkedImg(brand, '/logo.svg') })), '/logo.svg': svg(brand.logo) },
    registry: { ...base.registry, logo: brand.logo },
    label: label({ primary: 'logo', icon: ['apple-touch'] }),
  };
};

const icoOnly: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const sizes = await Promise.all([16, 32, 48].map((s) => pngOf(brand.icon.replace('width="64" height="64"', `width="${s}" height="${s}"`))));
  // Only the ICO: an undeclared /apple-touch-icon.png would be probed and, being larger, rightly win (issue 16).
  const { '/apple-touch-icon.png': _undeclaredTouch, ...files } = base.files;
  return {
    files: { ...files, '/': html(page(brand, { head: '', header: homeLinkedImg(brand, '/logo.svg') })), '/logo.svg': svg(brand.logo), '/favicon.ico': { type: 'image/x-icon', body: encodeIco(sizes) } },
    registry: { ...base.registry, logo: brand.logo, 'favicon-ico': sizes[2] ?? Buffer.alloc(0) },
    label: label({ primary: 'logo', icon: ['favicon-ico'] }),
  };
};

const placeholderAvatar: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const avatar = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" fill="#d1d5db"/><circle cx="32" cy="24" r="12" fill="#9ca3af"/><path d="M8 64c0-14 10-24 24-24s24 10 24 24z" fill="#9ca3af"/></svg>';
  const blank = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#e5e7eb' } }).png().toBuffer();
  const head = `${DEFAULT_ICON_LINKS}<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"${brand.name}","logo":"/img/logo-blank.png"}</script>`;
  const header = `${homeLinkedImg(brand, '/img/logo.svg')}<a href="/account" class="user-menu"><img class="avatar" src="/img/default-avatar.svg" alt="Your profile" width="32" height="32"></a>`;
  return {
    files: { ...base.files, '/': html(page(brand, { head, header })), '/img/logo.svg': svg(brand.logo), '/img/default-avatar.svg': svg(avatar), '/img/logo-blank.png': png(blank) },
    registry: { ...base.registry, logo: brand.logo, avatar, blank },
    label: label({ primary: 'logo', thirdParty: ['avatar', 'blank'] }),
  };
};

const pictureVariants: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const dark = recoloredLogo(brand, '#111827');
  const light = recoloredLogo(brand, '#f9fafb');
  const header = `<a href="/" class="logo"><picture><source srcset="/img/logo-on-dark.svg" media="(prefers-color-scheme: dark)"><img src="/img/logo-default.svg" alt="${brand.name}"></picture></a>`;
  return {
    files: { ...base.files, '/': html(page(brand, { header })), '/img/logo-default.svg': svg(dark), '/img/logo-on-dark.svg': svg(light) },
    registry: { ...base.registry, logo: dark, 'logo-variant': light },
    label: label({ primary: 'logo', theme: 'dark', variant: { id: 'logo-variant', theme: 'light' } }),
  };
};

const tailwindVariants: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const dark = recoloredLogo(brand, '#0f172a');
  const light = recoloredLogo(brand, '#ffffff');
  const header = `<a href="/" class="flex items-center"><img class="h-8 w-auto dark:hidden" src="/_next/static/media/mark-color.svg" alt="${brand.name}"><img class="hidden h-8 w-auto dark:block" src="/_next/static/media/mark-inverted.svg" alt="${brand.name}"></a>`;
  return {
    files: { ...base.files, '/': html(page(brand, { header })), '/_next/static/media/mark-color.svg': svg(dark), '/_next/static/media/mark-inverted.svg': svg(light) },
    registry: { ...base.registry, logo: dark, 'logo-variant': light },
    label: label({ primary: 'logo', theme: 'dark', variant: { id: 'logo-variant', theme: 'light' } }),
  };
};

const jsonLdOnly: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const raster = await pngOf(recoloredLogo(brand, '#202124', 60), 400);
  const head = `${DEFAULT_ICON_LINKS}<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"${brand.name}"},{"@type":"Organization","name":"${brand.name}","url":"https://${brand.slug}.test/","logo":{"@type":"ImageObject","url":"https://${brand.slug}.test/images/logo.png"}}]}</script>`;
  return {
    files: { ...base.files, '/': html(page(brand, { head, header: `<a href="/" class="wordmark-text">${brand.name}</a>` })), '/images/logo.png': png(raster) },
    registry: { ...base.registry, logo: raster },
    label: label({ primary: 'logo', theme: 'dark' }),
  };
};

const paymentSocialFooter: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const payments = PAYMENT_KEYS.map((k) => thirdPartyMark(k, 48));
  const socials = SOCIAL_KEYS.map((k) => thirdPartyMark(k, 24));
  const footer = `<div class="payment-methods">${payments.map((p) => `<img src="/img/pay/${p.slug}.svg" alt="${p.title}" width="48" height="32">`).join('')}</div>
<ul class="follow">${socials.map((s) => `<li><a href="https://${s.slug === 'x' ? 'x' : s.slug}.com/${brand.slug}"><img src="/img/social/${s.slug}.svg" alt="${s.title}" width="24" height="24"></a></li>`).join('')}</ul>`;
  return {
    files: {
      ...base.files,
      '/': html(page(brand, { header: homeLinkedImg(brand, '/logo.svg'), footer })),
      '/logo.svg': svg(brand.logo),
      ...Object.fromEntries(payments.map((p) => [`/img/pay/${p.slug}.svg`, svg(p.svg)])),
      ...Object.fromEntries(socials.map((s) => [`/img/social/${s.slug}.svg`, svg(s.svg)])),
    },
    registry: { ...base.registry, logo: brand.logo, ...Object.fromEntries([...payments, ...socials].map((p) => [`badge:${p.slug}`, p.svg])) },
    label: label({ primary: 'logo', thirdParty: [...payments, ...socials].map((p) => `badge:${p.slug}`) }),
  };
};

const symbolOnly: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const mark = brand.icon.replace('width="64" height="64"', 'width="40" height="40"');
  return {
    files: { ...base.files, '/': html(page(brand, { header: homeLinkedImg(brand, '/img/mark.svg', 'width="40" height="40"') })), '/img/mark.svg': svg(mark) },
    registry: { ...base.registry, logo: mark },
    label: label({ primary: 'logo', primaryType: 'symbol' }),
  };
};

const manifestIcons: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const [i192, i512] = await Promise.all([plateIcon(brand, 192), plateIcon(brand, 512)]);
  const manifest = JSON.stringify({ name: brand.name, icons: [{ src: '/android-chrome-192x192.png', sizes: '192x192', type: 'image/png' }, { src: '/android-chrome-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' }] });
  const head = '<link rel="icon" type="image/png" sizes="32x32" href="/favicon-32x32.png"><link rel="manifest" href="/site.webmanifest">';
  return {
    files: {
      ...base.files,
      '/': html(page(brand, { head, header: homeLinkedImg(brand, '/logo.svg') })),
      '/logo.svg': svg(brand.logo),
      '/site.webmanifest': { type: 'application/manifest+json', body: manifest },
      '/android-chrome-192x192.png': png(i192),
      '/android-chrome-512x512.png': png(i512),
    },
    registry: { ...base.registry, logo: brand.logo, 'icon-192': i192, 'icon-512': i512 },
    label: label({ primary: 'logo', icon: ['icon-512'] }),
  };
};

const lazySrcset: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const header = homeLinkedImg(brand, 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'class="lazyload" data-src="/img/logo.svg"');
  return {
    files: { ...base.files, '/': html(page(brand, { header })), '/img/logo.svg': svg(brand.logo) },
    registry: { ...base.registry, logo: brand.logo },
    label: label({ primary: 'logo' }),
  };
};

const baseHref: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const head = '<base href="/static/"><link rel="apple-touch-icon" href="icons/touch.png">';
  return {
    files: {
      ...base.files,
      '/': html(page(brand, { head, header: homeLinkedImg(brand, 'brand/logo.svg') })),
      '/static/brand/logo.svg': svg(brand.logo),
      '/static/icons/touch.png': png(base.registry['apple-touch'] as Buffer),
    },
    registry: { ...base.registry, logo: brand.logo },
    label: label({ primary: 'logo' }),
  };
};

const rasterHeaderLogo: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const one = await pngOf(recoloredLogo(brand, '#222222', 40), 200);
  const two = await pngOf(recoloredLogo(brand, '#222222', 80), 400);
  const header = homeLinkedImg(brand, '/img/logo.png', 'srcset="/img/logo.png 1x, /img/logo@2x.png 2x"');
  return {
    files: { ...base.files, '/': html(page(brand, { header })), '/img/logo.png': png(one), '/img/logo@2x.png': png(two) },
    registry: { ...base.registry, logo: one, 'logo-2x': two },
    label: label({ primary: 'logo', theme: 'dark' }),
  };
};

const spaShell: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const script = `document.getElementById('root').innerHTML = ${JSON.stringify(`<header class="site-header"><a href="/" class="logo"><img src="/static/media/logo.svg" alt="${brand.name}"></a><nav><a href="/pricing">Pricing</a></nav></header><main><h1>${brand.name}</h1><p>Everything your team needs.</p></main>`)};`;
  const shell = `<!doctype html><html><head><meta charset="utf-8"><title>${brand.name}</title>${DEFAULT_ICON_LINKS}</head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/js/main.js"></script></body></html>`;
  return {
    files: { ...base.files, '/': html(shell), '/static/js/main.js': { type: 'text/javascript', body: script }, '/static/media/logo.svg': svg(brand.logo) },
    registry: { ...base.registry, logo: brand.logo },
    label: label({ primary: 'logo', needsRendering: true }),
  };
};

const heroAndNamedDiv: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const hero = await sharp({ create: { width: 1600, height: 800, channels: 3, background: '#777777', noise: { type: 'gaussian', mean: 120, sigma: 50 } } }).jpeg().toBuffer();
  const header = `<div class="brand-logo"><img src="/assets/${brand.slug}-logo.svg" alt=""></div>`;
  return {
    files: {
      ...base.files,
      '/': html(page(brand, { header, main: `<section class="hero-image"><img src="/assets/team-at-work.jpg" alt="The ${brand.name} team at work" width="1600" height="800"></section>` })),
      [`/assets/${brand.slug}-logo.svg`]: svg(brand.logo),
      '/assets/team-at-work.jpg': { type: 'image/jpeg', body: hero },
    },
    registry: { ...base.registry, logo: brand.logo, hero },
    label: label({ primary: 'logo', thirdParty: ['hero'] }),
  };
};

const textLockup: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const icon = brand.icon.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '');
  const viewBox = /viewBox="([^"]+)"/.exec(brand.icon)?.[1] ?? '0 0 256 256';
  const lockup = `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="40" viewBox="0 0 180 40"><svg x="0" y="4" width="32" height="32" viewBox="${viewBox}">${icon}</svg><text x="42" y="28" font-family="Arial, sans-serif" font-size="22" font-weight="700" fill="#111111">${brand.name}</text></svg>`;
  return {
    files: { ...base.files, '/': html(page(brand, { header: homeLinkedImg(brand, '/img/lockup.svg') })), '/img/lockup.svg': svg(lockup) },
    registry: { ...base.registry, logo: lockup },
    label: label({ primary: 'logo', allowedTags: ['combination'] }),
  };
};

const pureWordmark: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const word = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><text x="0" y="30" font-family="Georgia, serif" font-size="28" fill="#1a1a1a">${brand.name}</text></svg>`;
  return {
    files: { ...base.files, '/': html(page(brand, { header: homeLinkedImg(brand, '/img/wordmark.svg') })), '/img/wordmark.svg': svg(word) },
    registry: { ...base.registry, logo: word },
    label: label({ primary: 'logo', theme: 'dark', allowedTags: ['wordmark'] }),
  };
};

const headerPartnerLockup: Scenario = async (brand, partners) => {
  const base = await baseFiles(brand);
  const partner = partners[0] ?? thirdPartyMark('siStripe');
  const header = `${homeLinkedImg(brand, '/logo.svg')}<span class="partnership">in partnership with <img src="/img/${partner.slug}.svg" alt="${partner.title}" width="40" height="40"></span>`;
  return {
    files: { ...base.files, '/': html(page(brand, { header })), '/logo.svg': svg(brand.logo), [`/img/${partner.slug}.svg`]: svg(partner.svg) },
    registry: { ...base.registry, logo: brand.logo, [`partner:${partner.slug}`]: partner.svg },
    label: label({ primary: 'logo', thirdParty: [`partner:${partner.slug}`] }),
  };
};

const footerOnlyLogo: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const footer = `<a href="/"><img src="/img/footer-logo.svg" alt="${brand.name}"></a><p>© 2026 ${brand.name}</p>`;
  return {
    files: { ...base.files, '/': html(page(brand, { header: `<span class="site-title">${brand.name}</span>`, footer })), '/img/footer-logo.svg': svg(brand.logo) },
    registry: { ...base.registry, logo: brand.logo },
    label: label({ primary: 'logo' }),
  };
};

const customerStory: Scenario = async (brand, partners) => {
  const base = await baseFiles(brand);
  const customer = partners[1] ?? thirdPartyMark('siShopify');
  const big = customer.svg.replace(/width="\d+" height="\d+"/, 'width="200" height="200"');
  const main = `<section class="case-study"><a href="https://${customer.slug}.com/"><img src="/img/case/${customer.slug}-logo.svg" alt="${customer.title} logo" class="logo"></a><h2>How ${customer.title} cut shipping time in half with ${brand.name}</h2></section>`;
  return {
    files: { ...base.files, '/': html(page(brand, { header: homeLinkedImg(brand, '/logo.svg'), main })), '/logo.svg': svg(brand.logo), [`/img/case/${customer.slug}-logo.svg`]: svg(big) },
    registry: { ...base.registry, logo: brand.logo, [`customer:${customer.slug}`]: big },
    label: label({ primary: 'logo', thirdParty: [`customer:${customer.slug}`] }),
  };
};

const svgSpriteUse: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const sprite = `<svg style="display:none" xmlns="http://www.w3.org/2000/svg"><symbol id="icon-logo" viewBox="${brand.logoViewBox}">${recolor(brand.logoBody, '#0a0a0a')}</symbol><symbol id="icon-search" viewBox="0 0 24 24"><path d="M10 2a8 8 0 1 0 5 14l5 5 1-1-5-5A8 8 0 0 0 10 2z"/></symbol></svg>`;
  const header = `<a href="/" class="brand" aria-label="${brand.name}"><svg width="160" height="${Math.round(160 / brand.aspect)}"><use href="#icon-logo"/></svg></a>`;
  return {
    files: { ...base.files, '/': html(page(brand, { bodyStart: sprite, header })) },
    registry: { ...base.registry, logo: recoloredLogo(brand, '#0a0a0a') },
    label: label({ primary: 'logo', theme: 'dark' }),
  };
};

const darkPlatePng: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const white = await pngOf(recoloredLogo(brand, '#ffffff', 40), 240);
  const meta = await sharp(white).metadata();
  const plate = await sharp({ create: { width: (meta.width ?? 240) + 32, height: (meta.height ?? 60) + 24, channels: 4, background: '#101828' } })
    .composite([{ input: white, gravity: 'centre' }])
    .png()
    .toBuffer();
  return {
    files: { ...base.files, '/': html(page(brand, { header: homeLinkedImg(brand, '/img/logo-header.png'), headerStyle: 'background:#101828' })), '/img/logo-header.png': png(plate) },
    registry: { ...base.registry, logo: plate },
    label: label({ primary: 'logo', theme: 'light' }),
  };
};

const mobileAndDesktop: Scenario = async (brand) => {
  const base = await baseFiles(brand);
  const mark = brand.icon.replace('width="64" height="64"', 'width="40" height="40"');
  const header = `<a href="/" class="navbar-brand"><img class="d-none d-md-block" src="/img/logo-desktop.svg" alt="${brand.name}"><img class="d-md-none" src="/img/logo-mobile.svg" alt="${brand.name}" width="40" height="40"></a>
<a href="https://apps.apple.com/app/id1" class="store"><img src="/img/app-store-badge.svg" alt="Download on the App Store" width="120" height="40"></a>
<a href="/en" class="lang"><img src="/img/flags/en.svg" alt="English" width="20" height="14"></a>`;
  const badge = thirdPartyMark('siAppstore', 40);
  const flag = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="14"><rect width="20" height="14" fill="#012169"/><path d="M0 0l20 14M20 0L0 14" stroke="#fff" stroke-width="3"/></svg>';
  return {
    files: {
      ...base.files,
      '/': html(page(brand, { header })),
      '/img/logo-desktop.svg': svg(brand.logo),
      '/img/logo-mobile.svg': svg(mark),
      '/img/app-store-badge.svg': svg(badge.svg),
      '/img/flags/en.svg': svg(flag),
    },
    registry: { ...base.registry, logo: brand.logo, symbol: mark, badge: badge.svg, flag },
    label: label({ primary: 'logo', thirdParty: ['badge', 'flag'] }),
  };
};

/** A mid-tone one-colour logo (red): its pixels fit both backgrounds, so the header it sits on decides. */
function midtoneOn(headerStyle: string | undefined, theme: 'dark' | 'light'): Scenario {
  return async (brand) => {
    const base = await baseFiles(brand);
    const red = recoloredLogo(brand, '#e5484d');
    return {
      files: { ...base.files, '/': html(page(brand, { header: homeLinkedImg(brand, '/img/logo.svg'), headerStyle })), '/img/logo.svg': svg(red) },
      registry: { ...base.registry, logo: red },
      label: label({ primary: 'logo', theme }),
    };
  };
}

export const SCENARIOS: Record<string, Scenario> = {
  lightHeaderImg,
  darkHeaderWhiteLogo,
  inlineCurrentColorOnDark: inlineCurrentColor('#ffffff', '#111111', 'light'),
  inlineCurrentColorOnLight: inlineCurrentColor('#1f2937', '#ffffff', 'dark'),
  logoWall,
  cookieBanner,
  cssBackground,
  spriteSheet,
  appleTouchOnly,
  icoOnly,
  placeholderAvatar,
  pictureVariants,
  tailwindVariants,
  jsonLdOnly,
  paymentSocialFooter,
  symbolOnly,
  manifestIcons,
  lazySrcset,
  baseHref,
  rasterHeaderLogo,
  spaShell,
  heroAndNamedDiv,
  textLockup,
  pureWordmark,
  headerPartnerLockup,
  footerOnlyLogo,
  customerStory,
  svgSpriteUse,
  darkPlatePng,
  mobileAndDesktop,
  midtoneOnDarkHeader: midtoneOn('background-color:#0f0f14', 'light'),
  midtoneOnWhiteHeader: midtoneOn(undefined, 'dark'),
};

/** Two sites per scenario where brands allow (every scenario at least once), each with its own brand. */
export async function buildEvalSites(): Promise<EvalSite[]> {
  const names = Object.keys(SCENARIOS);
  const partners = PARTNER_KEYS.map((k) => thirdPartyMark(k));
  return Promise.all(
    EVAL_BRAND_SLUGS.map(async (slug, i) => {
      const scenario = names[i % names.length] ?? 'lightHeaderImg';
      const brand = evalBrand(slug);
      const rotated = [...partners.slice(i % partners.length), ...partners.slice(0, i % partners.length)];
      const site = await (SCENARIOS[scenario] ?? lightHeaderImg)(brand, rotated);
      return { host: `${slug}.test`, scenario, brand, ...site };
    }),
  );
}
