import { describe, expect, it } from 'vitest';
import { extractFonts, roleRank } from '../../src/crawl/fields/fonts/fonts.js';
import { googleFamily } from '../../src/crawl/fields/fonts/google-font-families.js';
import { isFetchableStylesheet } from '../../src/crawl/fetch/stylesheets.js';
import { cssOf, htmlPageOf } from './html-page-of.js';

const fontsOf = (head: string, ...css: string[]) => extractFonts({ page: htmlPageOf(head), css: cssOf(...css) });
const summary = (head: string, ...css: string[]) => fontsOf(head, ...css).map((f) => `${f.type}=${f.name}/${f.origin}`);

describe('title and body roles from the static cascade', () => {
  it('ranks site-wide selectors over component and widget selectors', () => {
    expect(roleRank('body', 'body')).toBe(3);
    expect(roleRank('p', 'body')).toBe(2);
    expect(roleRank('.site-footer p', 'body')).toBe(1);
    expect(roleRank('h1', 'title')).toBe(3);
    expect(roleRank('.heading', 'title')).toBe(2);
    expect(roleRank('.card h2', 'title')).toBe(1);
    expect(roleRank('.nav a', 'title')).toBe(0);
  });

  it('a later footer or widget paragraph rule does not override the body font', () => {
    const css = 'body { font-family: "Karla", sans-serif } h1 { font-family: "Lora", serif } .site-footer p { font-family: Arial } .chat-widget p { font-family: "Helvetica Neue" }';
    expect(summary('<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Karla&family=Lora:wght@700">', css)).toEqual(['title=Lora/google', 'body=Karla/google']);
  });

  it('`inherit` in a later heading rule keeps the declared title font', () => {
    const css = 'body { font-family: Inter } h1, h2 { font-family: "Playfair Display" } .card h2 { font-family: inherit }';
    expect(summary('', css)).toEqual(['title=Playfair Display/google', 'body=Inter/google']);
  });

  it('a system stack (also in the font shorthand) is system-ui with origin system', () => {
    const css = 'body { font: 16px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif } h1 { font-family: "Sora" }';
    expect(summary('', css)).toEqual(['title=Sora/google', 'body=system-ui/system']);
  });

  it('follows var() font tokens on html', () => {
    const css = ':root { --font-heading: "Merriweather", serif; --font-body: "Source Serif 4", serif } html { font-family: var(--font-body) } h1, h2, h3 { font-family: var(--font-heading) }';
    expect(summary('', css)).toEqual(['title=Merriweather/google', 'body=Source Serif 4/google']);
  });
});

describe('origins', () => {
  it('an Adobe Fonts kit family is custom, with weights from the kit CSS', () => {
    const kit = cssOf('@font-face { font-family: "proxima-nova"; src: url("https://use.typekit.net/af/abc/000/l?fvd=n7") format("woff2"); font-weight: 700; font-style: normal; }')[0];
    const site = cssOf('body { font-family: "Open Sans" } h1 { font-family: proxima-nova, sans-serif }')[0];
    const fonts = extractFonts({ page: htmlPageOf('<link rel="stylesheet" href="https://use.typekit.net/abc1234.css"><link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Open+Sans:400,600">'), css: [kit!, site!] });
    expect(fonts[0]).toEqual({ name: 'proxima-nova', type: 'title', origin: 'custom', originId: null, weights: [{ weight: 700, style: 'normal' }] });
    expect(fonts[1]).toMatchObject({ name: 'Open Sans', origin: 'google', weights: [{ weight: 400, style: 'normal' }, { weight: 600, style: 'normal' }] });
  });

  it('fetches Typekit kit CSS but never other font-provider CSS', () => {
    expect(isFetchableStylesheet('https://use.typekit.net/abc1234.css', 'acme.test')).toBe(true);
    expect(isFetchableStylesheet('https://fonts.googleapis.com/css2?family=Inter', 'acme.test')).toBe(false);
    expect(isFetchableStylesheet('https://p.typekit.net/p.css?s=1', 'acme.test')).toBe(false);
  });

  it('a self-hosted Google family is google with its Google name as originId', () => {
    const fonts = fontsOf('', '@font-face { font-family: "inter"; src: url(/fonts/inter.woff2); font-weight: 400 700 } body { font-family: inter }');
    expect(fonts[1]).toMatchObject({ name: 'Inter', origin: 'google', originId: 'Inter', weights: [{ weight: 400, style: 'normal' }, { weight: 700, style: 'normal' }] });
  });

  it('knows the complete Google Fonts list (generated), including renamed families', () => {
    expect(googleFamily('bricolage grotesque')).toBe('Bricolage Grotesque');
    expect(googleFamily('Source Sans Pro')).toBe('Source Sans Pro');
    expect(googleFamily('Source Sans 3')).toBe('Source Sans 3');
    expect(googleFamily('Helvetica Neue')).toBeNull();
  });
});

describe('icon fonts', () => {
  it('a family whose files live in an icon folder is never the title or body font', () => {
    const css = `@font-face { font-family: newspaper; src: url('/wp-content/themes/Newspaper/images/icons/newspaper.woff?23') format('woff') }
      @font-face { font-family: "Roboto"; src: url(/fonts/roboto.woff2) }`;
    expect(summary('', css)).toEqual(['title=Roboto/google', 'body=Roboto/google']);
  });
});
