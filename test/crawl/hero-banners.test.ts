import { describe, expect, it } from 'vitest';
import { bannerImages, findHeroBannerUrls } from '../../src/crawl/fields/images/images.js';
import type { IngestedImage } from '../../src/media/ingest-image.js';
import { cssOf, htmlPageOf } from './html-page-of.js';

function image(width: number, height: number, sha: string, dhash: string): IngestedImage {
  return {
    original: { src: `${sha}.jpeg`, format: 'jpeg', width, height, size: 1, background: null },
    sourceFormat: 'jpeg', width, height, transparentEdges: false, theme: null, dominantColors: [], sha256: sha, assetKey: `${sha}.jpeg`, uniform: false, dhash,
  };
}

describe('findHeroBannerUrls', () => {
  it('reads hero backgrounds from stylesheets and inline styles, video posters and hero images, never SVG', () => {
    const page = htmlPageOf(`<main><section class="hero"><video poster="/poster.jpg"></video><img src="/hero-shot.png"><img src="/deco.svg"></section></main>`);
    expect(findHeroBannerUrls(page, cssOf('.hero{background:#000 url(/bg.jpg) center/cover}')).map((u) => new URL(u).pathname)).toEqual(['/bg.jpg', '/poster.jpg']);
    const inline = htmlPageOf('<div class="masthead" style="background-image:url(/m.jpg)"></div>');
    expect(findHeroBannerUrls(inline)).toEqual(['https://www.acme.test/m.jpg']);
  });

  it('ignores cookie banners', () => {
    expect(findHeroBannerUrls(htmlPageOf('<div class="cookie-banner" style="background-image:url(/c.jpg)"></div>'))).toEqual([]);
  });
});

describe('bannerImages', () => {
  it('hero images must be wide; declared og images are kept as they are; near-duplicates and logos are dropped', () => {
    const og = image(1200, 1200, 'a', '0000000000000000');
    const wideHero = image(1600, 600, 'b', 'ffff000000000000');
    const narrowHero = image(800, 800, 'c', '00ff00ff00ff00ff');
    const sameAsOg = image(1600, 600, 'd', '0000000000000001');
    const logo = image(1600, 600, 'e', 'f0f0f0f0f0f0f0f0');
    const banners = bannerImages(
      [{ image: og, hero: false }, { image: wideHero, hero: true }, { image: narrowHero, hero: true }, { image: sameAsOg, hero: true }, { image: logo, hero: true }],
      new Set(['e']),
    );
    expect(banners.map((b) => b.formats[0]?.src)).toEqual([og.original.src, wideHero.original.src]);
  });
});
