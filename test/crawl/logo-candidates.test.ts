import { describe, expect, it } from 'vitest';
import { findIconCandidates, findMarkCandidates, isThirdPartyLabel, themeHint } from '../../src/crawl/fields/logos/logo-candidates.js';
import { readJsonLd } from '../../src/crawl/page/json-ld.js';
import { parseCss } from '../../src/crawl/page/parse-css.js';
import { htmlPageOf } from './html-page-of.js';

function marksOf(html: string, css = '', brandName: string | null = 'Acme') {
  const page = htmlPageOf(html);
  return findMarkCandidates({ page, jsonLd: readJsonLd(page.$), brandName, cssRules: parseCss(css, null).rules });
}

/** The inline SVG marks among the candidates. */
function marks(candidates: ReturnType<typeof marksOf>) {
  return candidates.filter((c) => c.svg !== undefined && c.svg !== null);
}

describe('findIconCandidates', () => {
  it('collects link icons and manifest icons, largest first, resolved against <base href>', () => {
    const page = htmlPageOf(`<head><base href="https://static.acme.test/"><link rel="shortcut icon" href="favicon.ico">
      <link rel="apple-touch-icon-precomposed" sizes="152x152" href="/apple.png"><link rel="mask-icon" href="/pin.svg" color="#f00"></head>`);
    const manifest = { name: null, shortName: null, description: null, themeColor: null, backgroundColor: null, icons: [
      { url: 'https://acme.test/512.png', size: 512, purpose: 'any maskable' },
      { url: 'https://acme.test/mono.png', size: 512, purpose: 'monochrome' },
    ] };
    expect(findIconCandidates(page, manifest).map((c) => [c.kind, c.url, c.declaredSize])).toEqual([
      ['manifest-icon', 'https://acme.test/512.png', 512],
      ['apple-touch-icon', 'https://static.acme.test/apple.png', 152],
      ['icon', 'https://static.acme.test/favicon.ico', 0],
      ['mask-icon', 'https://static.acme.test/pin.svg', 0],
    ]);
  });

  it('falls back to /favicon.ico only when no icon is declared, probing the conventional apple-touch-icon paths too', () => {
    expect(findIconCandidates(htmlPageOf('<title>x</title>', 'https://www.acme.test/en/'), null)).toEqual([
      { kind: 'conventional-path', url: 'https://www.acme.test/apple-touch-icon.png', declaredSize: 0 },
      { kind: 'conventional-path', url: 'https://www.acme.test/apple-touch-icon-precomposed.png', declaredSize: 0 },
      { kind: 'favicon-fallback', url: 'https://www.acme.test/favicon.ico', declaredSize: 0 },
    ]);
  });

  it('probes the conventional apple-touch-icon paths only when no large icon is declared', () => {
    const small = findIconCandidates(htmlPageOf('<link rel="icon" href="/favicon-40.png">'), null).map((c) => c.kind);
    expect(small).toEqual(['conventional-path', 'conventional-path', 'icon']);
    for (const large of ['<link rel="icon" sizes="192x192" href="/i.png">', '<link rel="apple-touch-icon" href="/touch.png">']) {
      expect(findIconCandidates(htmlPageOf(large), null).some((c) => c.kind === 'conventional-path')).toBe(false);
    }
  });
});

describe('findMarkCandidates', () => {
  it('prefers the home-linked header logo over other images', () => {
    const marks = marksOf(`<header><a href="/"><img src="/img/acme-logo.svg" alt="Acme"></a><img src="/img/flag.png" alt=""></header>
      <main><img src="/hero.jpg" alt="Rocket launch"></main>`);
    expect(marks[0]?.url).toBe('https://www.acme.test/img/acme-logo.svg');
  });

  it('excludes logo walls, third-party alt text, cookie banners and UI glyphs', () => {
    const marks = marksOf(`
      <div class="cookie-consent"><img class="logo" src="/cookie-logo.svg" alt="Acme cookies"></div>
      <header><a href="/"><svg viewBox="0 0 24 24" aria-label="Acme"><path d="M0 0h24v24H0z"/></svg></a>
        <button><svg width="20" height="20" viewBox="0 0 24 24"><path d="M3 6h18"/></svg></button>
        <img src="/icons/search.svg" width="16" height="16" alt=""></header>
      <section><h2>Trusted by</h2><div class="logos">
        <img class="logo" src="/p/stripe.svg" alt="Stripe"><img class="logo" src="/p/shopify.svg" alt="Shopify logo"><img class="logo" src="/p/x.svg">
      </div></section>
      <aside><img class="partner-logo" src="/p/globex.svg" alt="Globex logo"></aside>`);
    expect(marks).toHaveLength(1);
    expect(marks[0]?.svg).toContain('M0 0h24v24H0z');
  });

  it('bakes currentColor into the colour set on the element or an ancestor', () => {
    const html = `<header class="top"><a href="/" class="brand"><svg viewBox="0 0 24 24" fill="currentColor"><path d="M1 1h20v20H1z"/></svg></a></header>`;
    expect(marksOf(html, '.top { color: #ffffff }')[0]?.svg).toContain('fill="#ffffff"');
    expect(marksOf(html)[0]?.svg).toContain('fill="#000000"');
    const inline = `<header style="color: rgb(255 0 0)"><a href="/"><svg viewBox="0 0 24 24" fill="currentColor"><path d="M1 1h20v20H1z"/></svg></a></header>`;
    expect(marksOf(inline)[0]?.svg).toContain('fill="#ff0000"');
  });

  it('copies <use> targets into a standalone SVG and adds the namespace', () => {
    const html = `<svg style="display:none"><symbol id="logo-mark" viewBox="0 0 24 24"><path d="M2 2h20v20H2z"/></symbol><g id="dot"><circle r="2"/></g></svg>
      <header><a href="/"><svg viewBox="0 0 24 24"><path d="M0 0h4v4z"/><use href="#dot"/></svg></a></header>`;
    const svg = marksOf(html)[0]?.svg ?? '';
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toContain('<defs><g id="dot">');
  });

  it('refuses inline SVGs that embed rasters or foreign content (illustrations, not marks), whatever the case of the tag', () => {
    const mark = (inner: string) => marksOf(`<header><a href="/"><svg viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/>${inner}</svg></a></header>`);
    expect(marks(mark('')).length).toBe(1);
    expect(marks(mark('<image href="/photo.png" width="24" height="24"/>'))).toEqual([]);
    expect(marks(mark('<foreignObject width="24" height="24"><div>Acme</div></foreignObject>'))).toEqual([]);
    expect(marks(mark('<foreignobject width="24" height="24"><div>Acme</div></foreignobject>'))).toEqual([]);
  });

  it('a lone <use> of a sprite <symbol> becomes the symbol drawing with its viewBox (rasterizers skip bare symbol uses)', () => {
    const html = `<svg style="display:none"><symbol id="logo-mark" viewBox="0 0 48 12"><path d="M2 2h20v8H2z"/></symbol></svg>
      <header><a href="/"><svg width="96" height="24"><title>Acme</title><use href="#logo-mark"/></svg></a></header>`;
    const svg = marksOf(html)[0]?.svg ?? '';
    expect(svg).toMatch(/<svg[^>]*viewBox="0 0 48 12"/);
    expect(svg).toContain('<path d="M2 2h20v8H2z"');
    expect(svg).not.toContain('<use');
  });

  it('a class, id or file name naming a logo after another organisation is not the brand mark (iana.org footer: id="icann-logo")', () => {
    const page = htmlPageOf('<footer><img src="/_img/icann-logo.svg" id="icann-logo" width="57" height="48"></footer><footer><a href="/"><img src="/img/site-logo.svg"></a></footer>', 'https://www.iana.org/');
    const marks = findMarkCandidates({ page, jsonLd: [], brandName: 'IANA', cssRules: [] });
    expect(marks.map((m) => new URL(m.url ?? '').pathname)).toEqual(['/img/site-logo.svg']);
  });

  it('paints the header <h1> or home link background when it is the only logo (iana.org homepage)', () => {
    const page = htmlPageOf('<header><h1><span>Internet Assigned Numbers Authority</span></h1></header>', 'https://www.iana.org/');
    const sheets = [parseCss('.homepage header h1 { background-image: url("/_img/iana-logo-homepage.png"); width: 300px; height: 100px }', 'https://www.iana.org/_css/screen.css')];
    const marks = findMarkCandidates({ page, jsonLd: [], brandName: 'IANA', cssRules: sheets.flatMap((s) => s.rules), sheets });
    expect(marks).toEqual([]);
    const home = htmlPageOf('<div class="homepage"><header><h1><span>IANA</span></h1></header></div>', 'https://www.iana.org/');
    const found = findMarkCandidates({ page: home, jsonLd: [], brandName: 'IANA', cssRules: sheets.flatMap((s) => s.rules), sheets });
    expect(found.map((m) => m.url)).toEqual(['https://www.iana.org/_img/iana-logo-homepage.png']);
  });

  it('penalises marks hosted on another registrable domain and reads og:logo / JSON-LD logo', () => {
    const marks = marksOf(`<meta property="og:logo" content="https://cdn.other.test/acme.png">
      <script type="application/ld+json">{"@type":"Organization","name":"Acme","logo":{"@type":"ImageObject","url":"/brand/acme-mark.png"}}</script>`);
    expect(marks.map((m) => [m.kind, m.url])).toEqual([
      ['json-ld-logo', 'https://www.acme.test/brand/acme-mark.png'],
      ['meta-logo', 'https://cdn.other.test/acme.png'],
    ]);
  });
});

describe('label and theme heuristics', () => {
  it('isThirdPartyLabel', () => {
    expect(isThirdPartyLabel('Stripe logo', 'acme', 'Acme')).toBe(true);
    expect(isThirdPartyLabel('Acme Inc. logo', 'acme', 'Acme')).toBe(false);
    expect(isThirdPartyLabel('Go to homepage', 'acme', 'Acme')).toBe(false);
    expect(isThirdPartyLabel('Logo', 'acme', null)).toBe(false);
  });

  it('themeHint', () => {
    expect(themeHint('/img/logo-white.svg')).toBe('light');
    expect(themeHint('/img/logo_on-dark.png')).toBe('light');
    expect(themeHint('/img/logo-black.svg')).toBe('dark');
    expect(themeHint('/img/lightning-logo.svg')).toBeNull();
  });
});
