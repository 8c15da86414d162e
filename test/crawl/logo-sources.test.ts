import { describe, expect, it } from 'vitest';
import { findIconCandidates, findMarkCandidates, imageSource, isPlaceholderUrl, largestSrcsetEntry } from '../../src/crawl/fields/logos/logo-candidates.js';
import { readJsonLd } from '../../src/crawl/page/json-ld.js';
import { cssOf, htmlPageOf } from './html-page-of.js';

function marksOf(html: string, css: string[] = []) {
  const page = htmlPageOf(html);
  const sheets = cssOf(...css);
  return findMarkCandidates({ page, jsonLd: readJsonLd(page.$), brandName: 'Acme', cssRules: sheets.flatMap((s) => s.rules), sheets });
}

describe('icon sources beyond link rel=icon', () => {
  it('reads fluid-icon and Windows tile images', () => {
    const page = htmlPageOf(`<head><link rel="fluid-icon" href="/fluid.png"><meta name="msapplication-TileImage" content="/tile.png">
      <meta name="msapplication-square310x310logo" content="/tile-310.png"></head>`);
    expect(findIconCandidates(page, null).map((c) => [c.kind, new URL(c.url).pathname, c.declaredSize])).toEqual([
      ['tile', '/tile-310.png', 310],
      ['tile', '/tile.png', 144],
      ['fluid-icon', '/fluid.png', 0],
    ]);
  });
});

describe('srcset and lazy-load resolution', () => {
  it('picks the largest srcset entry by w or x descriptor', () => {
    expect(largestSrcsetEntry('/a.png 1x, /b.png 2x')).toBe('/b.png');
    expect(largestSrcsetEntry('/s.png 320w, /l.png 1280w, /m.png 640w')).toBe('/l.png');
    expect(largestSrcsetEntry(undefined)).toBeUndefined();
  });

  it('skips a data: placeholder src for data-src', () => {
    const page = htmlPageOf('<img src="data:image/gif;base64,R0lG" data-src="/real.svg"><img src="/plain.png" data-src="/other.png">');
    const [lazy, plain] = page.$('img').toArray();
    expect(lazy && imageSource(lazy)).toBe('/real.svg');
    expect(plain && imageSource(plain)).toBe('/plain.png');
  });
});

describe('colour-scheme variants', () => {
  it('<picture> with a prefers-color-scheme: dark source gives a light variant next to the dark default', () => {
    const marks = marksOf(`<header><a href="/"><picture><source srcset="/logo-dark-mode.svg" media="(prefers-color-scheme: dark)">
      <img src="/logo.svg" alt="Acme"></picture></a></header>`);
    expect(marks.map((m) => [new URL(m.url ?? '').pathname, m.scheme, m.themeHint])).toEqual([
      ['/logo.svg', 'light', 'dark'],
      ['/logo-dark-mode.svg', 'dark', 'light'],
    ]);
  });

  it('Tailwind dark:hidden / dark:block pairs are light- and dark-scheme variants', () => {
    const marks = marksOf(`<header><a href="/"><img class="dark:hidden" src="/a.svg" alt="Acme"><img class="hidden dark:block" src="/b.svg" alt="Acme"></a></header>`);
    expect(marks.map((m) => [new URL(m.url ?? '').pathname, m.scheme])).toEqual([['/a.svg', 'light'], ['/b.svg', 'dark']]);
  });
});

describe('CSS background logos', () => {
  it('finds a logo painted as background-image on a home link, resolved against the stylesheet', () => {
    const marks = marksOf('<header><a href="/" class="navbar-brand">Acme</a></header>', ['.navbar-brand{background:url(img/logo.svg) no-repeat;width:120px;height:30px}']);
    expect(marks[0]).toMatchObject({ url: 'https://www.acme.test/img/logo.svg', crop: null, scheme: null });
  });

  it('carries the sprite box when the rule positions the image with pixel offsets', () => {
    const marks = marksOf('<header><a href="/" class="site-logo">Acme</a></header>', ['.site-logo{background:url(/sprite.png) 0 -64px no-repeat;width:200px;height:40px}']);
    expect(marks[0]?.crop).toEqual({ left: 0, top: 64, width: 200, height: 40 });
  });

  it('a dark-scheme rule gives the light variant', () => {
    const marks = marksOf('<header><a href="/" class="logo">Acme</a></header>', ['.logo{background-image:url(/l.svg)}', '@media (prefers-color-scheme: dark){.logo{background-image:url(/d.svg)}}']);
    expect(marks.map((m) => [new URL(m.url ?? '').pathname, m.scheme])).toEqual([['/l.svg', null], ['/d.svg', 'dark']]);
  });

  it('reads inline style backgrounds too', () => {
    expect(marksOf('<header><a href="/" class="brand" style="background-image:url(/inline.png)"></a></header>')[0]?.url).toBe('https://www.acme.test/inline.png');
  });
});

describe('exclusions', () => {
  it('never takes default avatars or placeholder files', () => {
    expect(isPlaceholderUrl('https://acme.test/img/default-avatar.png')).toBe(true);
    expect(isPlaceholderUrl('https://www.gravatar.com/avatar/abc?s=80&d=mp')).toBe(true);
    expect(isPlaceholderUrl('https://acme.test/img/acme-logo.svg')).toBe(false);
    const marks = marksOf(`<header><a href="/"><img src="/logo.svg" alt="Acme"></a><a href="/account" class="user"><img class="logo" src="/img/placeholder-logo.png" alt="Acme"></a></header>`);
    expect(marks.map((m) => new URL(m.url ?? '').pathname)).toEqual(['/logo.svg']);
  });

  it('skips payment badges, partner badges and social-network glyphs even in the header', () => {
    const marks = marksOf(`<header><a href="/"><img src="/logo.svg" alt="Acme"></a>
      <div class="payment-methods"><img class="logo" src="/visa.svg" alt="Acme"></div>
      <a href="https://twitter.com/acme"><img class="logo" src="/x.svg" alt="Acme on X"></a>
      <img class="partner-badge logo" src="/badge.png" alt="Acme"></header>`);
    expect(marks.map((m) => new URL(m.url ?? '').pathname)).toEqual(['/logo.svg']);
  });
});
