import { describe, expect, it } from 'vitest';
import { cleanFamilyName, extractFonts, parseGoogleFontsUrl } from '../../src/crawl/fields/fonts/fonts.js';
import { cssOf, htmlPageOf } from './html-page-of.js';

describe('parseGoogleFontsUrl', () => {
  it('reads css2 families with weight and italic axes', () => {
    const url = 'https://fonts.googleapis.com/css2?family=Inter:wght@400;700&family=Roboto+Mono:ital,wght@0,400;1,700&family=Lobster&display=swap';
    expect(parseGoogleFontsUrl(url)).toEqual([
      { name: 'Inter', origin: 'google', originId: 'Inter', weights: [{ weight: 400, style: 'normal' }, { weight: 700, style: 'normal' }] },
      { name: 'Roboto Mono', origin: 'google', originId: 'Roboto Mono', weights: [{ weight: 400, style: 'normal' }, { weight: 700, style: 'italic' }] },
      { name: 'Lobster', origin: 'google', originId: 'Lobster', weights: [{ weight: 400, style: 'normal' }] },
    ]);
  });

  it('reads variable ranges by their ends', () => {
    expect(parseGoogleFontsUrl('https://fonts.googleapis.com/css2?family=Inter:wght@100..900')[0]?.weights).toEqual([
      { weight: 100, style: 'normal' },
      { weight: 900, style: 'normal' },
    ]);
  });

  it('reads the legacy css syntax with pipes and italic suffixes', () => {
    expect(parseGoogleFontsUrl('https://fonts.googleapis.com/css?family=Open+Sans:400,700italic|Roboto')).toEqual([
      { name: 'Open Sans', origin: 'google', originId: 'Open Sans', weights: [{ weight: 400, style: 'normal' }, { weight: 700, style: 'italic' }] },
      { name: 'Roboto', origin: 'google', originId: 'Roboto', weights: [{ weight: 400, style: 'normal' }] },
    ]);
  });
});

describe('cleanFamilyName', () => {
  it('cleans next/font hashed names and drops their fallbacks', () => {
    expect(cleanFamilyName('__Inter_a1b2c3')).toBe('Inter');
    expect(cleanFamilyName('__Playfair_Display_9f8e7d')).toBe('Playfair Display');
    expect(cleanFamilyName('__Inter_Fallback_a1b2c3')).toBeNull();
    expect(cleanFamilyName('Brand Sans')).toBe('Brand Sans');
  });
});

describe('extractFonts', () => {
  it('assigns title and body from heading and body rules, resolving var() tokens', () => {
    const page = htmlPageOf('<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Lora:wght@600&family=Work+Sans:wght@400">');
    const css = cssOf(`:root { --font-heading: 'Lora', serif; } body { font: 16px/1.5 "Work Sans", sans-serif } h2 { font-family: var(--font-heading) }`);
    expect(extractFonts({ page, css }).map((f) => [f.type, f.name, f.origin])).toEqual([
      ['title', 'Lora', 'google'],
      ['body', 'Work Sans', 'google'],
    ]);
  });

  it('classifies @font-face families: self-hosted Google family → google, others → custom, gstatic → google', () => {
    const page = htmlPageOf('');
    const css = cssOf(`
      @font-face { font-family: "Brand Display"; src: url(/f/brand.woff2) format("woff2"); font-weight: 800; }
      @font-face { font-family: "Montserrat"; src: url(/f/montserrat.woff2); font-weight: 400; font-style: italic; }
      h1 { font-family: "Brand Display", sans-serif } body { font-family: Montserrat, sans-serif }`);
    expect(extractFonts({ page, css })).toEqual([
      { name: 'Brand Display', type: 'title', origin: 'custom', originId: null, weights: [{ weight: 800, style: 'normal' }] },
      { name: 'Montserrat', type: 'body', origin: 'google', originId: 'Montserrat', weights: [{ weight: 400, style: 'italic' }] },
    ]);
  });

  it('reports a system stack as origin system', () => {
    const css = cssOf(`body { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif; font-weight: 400 } h1 { font-weight: 700 }`);
    expect(extractFonts({ page: htmlPageOf(''), css })).toEqual([
      { name: 'system-ui', type: 'title', origin: 'system', originId: null, weights: [{ weight: 700, style: null }] },
      { name: 'system-ui', type: 'body', origin: 'system', originId: null, weights: [{ weight: 400, style: null }] },
    ]);
  });

  it('classifies used-but-unloaded families by name and skips icon fonts', () => {
    const css = cssOf(`@font-face { font-family: 'icomoon'; src: url(/i.woff) } h1 { font-family: 'Brand Serif', serif } body { font-family: 'Lato', Arial, sans-serif }`);
    expect(extractFonts({ page: htmlPageOf(''), css }).map((f) => [f.type, f.name, f.origin, f.originId])).toEqual([
      ['title', 'Brand Serif', 'custom', null],
      ['body', 'Lato', 'google', 'Lato'],
    ]);
    expect(extractFonts({ page: htmlPageOf(''), css: cssOf(`@font-face { font-family: 'FontAwesome'; src: url(/fa.woff) }`) })).toEqual([]);
  });

  it('without CSS rules, loaded families stand for body then title; with nothing loaded there are no fonts', () => {
    const page = htmlPageOf('<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter&family=Fraunces:wght@700">');
    expect(extractFonts({ page, css: [] }).map((f) => [f.type, f.name])).toEqual([['title', 'Fraunces'], ['body', 'Inter']]);
    expect(extractFonts({ page: htmlPageOf('<p>hi</p>'), css: [] })).toEqual([]);
  });

  it('reads Google Fonts @imports inside stylesheets', () => {
    const css = cssOf(`@import url('https://fonts.googleapis.com/css2?family=DM+Sans:wght@500'); body { font-family: 'DM Sans' }`);
    expect(extractFonts({ page: htmlPageOf(''), css })[1]).toMatchObject({ name: 'DM Sans', origin: 'google', weights: [{ weight: 500, style: 'normal' }] });
  });
});
