import { describe, expect, it } from 'vitest';
import { classifyProfileUrl, extractLinks } from '../../src/crawl/fields/links.js';
import { readJsonLd } from '../../src/crawl/page/json-ld.js';
import { htmlPageOf } from './html-page-of.js';

function linksOf(html: string) {
  const page = htmlPageOf(html);
  return extractLinks(page, readJsonLd(page.$));
}

describe('classifyProfileUrl', () => {
  it.each([
    ['https://twitter.com/intent/tweet?text=hi', null],
    ['https://twitter.com/share?url=x', null],
    ['https://twitter.com/hashtag/rockets', null],
    ['https://twitter.com/search?q=acme', null],
    ['https://twitter.com/acme/status/123', null],
    ['https://www.facebook.com/sharer/sharer.php?u=x', null],
    ['https://www.facebook.com/dialog/share', null],
    ['https://www.facebook.com/plugins/page.php', null],
    ['https://www.instagram.com/p/Cxyz/', null],
    ['https://www.instagram.com/reel/Cxyz/', null],
    ['https://www.youtube.com/watch?v=abc', null],
    ['https://www.youtube.com/embed/abc', null],
    ['https://www.youtube.com/shorts/abc', null],
    ['https://www.linkedin.com/in/wile-e-coyote', null],
    ['https://www.linkedin.com/shareArticle?url=x', null],
    ['https://example.com/acme', null],
  ])('rejects %s', (url, expected) => {
    expect(classifyProfileUrl(url)).toBe(expected);
  });

  it.each([
    ['http://Twitter.com/AcmeRockets/?ref=footer#top', 'twitter', 'https://twitter.com/AcmeRockets'],
    ['https://x.com/acme', 'twitter', 'https://x.com/acme'],
    ['https://www.facebook.com/acmerockets/', 'facebook', 'https://www.facebook.com/acmerockets'],
    ['https://instagram.com/acme.rockets', 'instagram', 'https://instagram.com/acme.rockets'],
    ['https://github.com/acme', 'github', 'https://github.com/acme'],
    ['https://www.youtube.com/@acme', 'youtube', 'https://www.youtube.com/@acme'],
    ['https://www.youtube.com/channel/UC123', 'youtube', 'https://www.youtube.com/channel/UC123'],
    ['https://uk.linkedin.com/company/acme/about/', 'linkedin', 'https://uk.linkedin.com/company/acme'],
    ['https://www.crunchbase.com/organization/acme', 'crunchbase', 'https://www.crunchbase.com/organization/acme'],
  ])('accepts %s as %s', (url, name, normalized) => {
    expect(classifyProfileUrl(url)?.profile).toMatchObject({ name, url: normalized });
  });
});

describe('extractLinks', () => {
  it('merges sameAs and anchors, one profile per network in spec order', () => {
    const html = `<script type="application/ld+json">{"@type":"Organization","name":"Acme","sameAs":["https://github.com/acme","https://x.com/acme"]}</script>
      <footer><a href="https://twitter.com/acme">X</a><a href="https://www.linkedin.com/company/acme">in</a></footer>
      <main><a href="https://twitter.com/intent/tweet?url=x">share</a><a href="https://twitter.com/someone_else">quote</a></main>`;
    expect(linksOf(html)).toEqual([
      { name: 'twitter', url: 'https://x.com/acme' },
      { name: 'github', url: 'https://github.com/acme' },
      { name: 'linkedin', url: 'https://www.linkedin.com/company/acme' },
    ]);
  });

  it('prefers the most cited profile and header/footer placement over body mentions', () => {
    const html = `<main><a href="https://github.com/partner">partner</a></main>
      <footer><a href="https://github.com/acme">GitHub</a></footer><header><a href="https://github.com/acme/">GitHub</a></header>`;
    expect(linksOf(html)).toEqual([{ name: 'github', url: 'https://github.com/acme' }]);
  });

  it('counts repository links as weak evidence of the org', () => {
    expect(linksOf('<a href="https://github.com/acme/rocket-sdk">sdk</a>')).toEqual([{ name: 'github', url: 'https://github.com/acme' }]);
  });
});

describe('brand-like profiles', () => {
  it('prefers the handle resembling the domain over an equally cited other account', async () => {
    const { extractLinks, brandLikeness } = await import('../../src/crawl/fields/links.js');
    const { htmlPageOf } = await import('./html-page-of.js');
    const page = htmlPageOf('<footer><a href="https://twitter.com/janedoe_dev">Jane</a><a href="https://x.com/AcmeHQ/">Acme</a></footer>');
    expect(extractLinks(page, [])).toEqual([{ name: 'twitter', url: 'https://x.com/AcmeHQ' }]);
    expect(brandLikeness('acmehq', 'acme')).toBe(1.5);
    expect(brandLikeness('company/other', 'acme')).toBe(1);
  });
});
