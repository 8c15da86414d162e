import { describe, expect, it } from 'vitest';
import { findPictureCandidates, rankPictures, type PictureCandidate } from '../../src/crawl/fields/images/pictures.js';
import type { IngestedImage } from '../../src/media/ingest-image.js';
import { htmlPageOf } from './html-page-of.js';

let counter = 0;
function image(width: number, height: number, over: Partial<IngestedImage> = {}): IngestedImage {
  counter += 1;
  const sha256 = counter.toString(16).padStart(64, '0');
  return {
    original: { src: `${sha256}.jpeg`, format: 'jpeg', width, height, size: 1000, background: null },
    sourceFormat: 'jpeg', width, height, transparentEdges: false, theme: null, dominantColors: [], sha256,
    assetKey: `${sha256}.jpeg`, uniform: false, dhash: counter.toString(16).padStart(16, 'f'), ...over,
  };
}
const candidate = (url: string, score = 50, alt = 'A photo'): PictureCandidate => ({ url, alt, score });

describe('findPictureCandidates', () => {
  it('takes content images with lazy/srcset resolution and skips header, logos, walls, icons, svg, tiny and data: images', () => {
    const page = htmlPageOf(`<header><img src="/logo.png" alt="Acme"></header>
      <main><section class="hero"><img src="/hero.jpg" alt="Our team on the factory floor" width="1600" height="900"></section>
      <img src="data:image/gif;base64,R0lG" data-src="/lazy.jpg" alt="Lazy loaded photo of a store">
      <picture><source srcset="/p-800.webp 800w, /p-1600.webp 1600w"><img src="/p.jpg" alt="Product shot of the Acme kettle"></picture>
      <img src="/icons/arrow.png" alt=""><img src="/diagram.svg" alt="Diagram"><img src="/thumb.jpg" width="50" height="50">
      <ul class="clients"><li><img src="/c1.png" alt="Globex"></li><li><img src="/c2.png" alt="Initech"></li><li><img src="/c3.png" alt="Umbrella"></li></ul></main>
      <footer><img src="/footer-photo.jpg" alt="Our office in Lisbon at night"></footer>`);
    const urls = findPictureCandidates([page], 'Acme').map((c) => new URL(c.url).pathname);
    expect(urls.slice(0, 3)).toEqual(['/hero.jpg', '/lazy.jpg', '/p-1600.webp']);
    expect(urls).toContain('/footer-photo.jpg');
    expect(urls).not.toEqual(expect.arrayContaining(['/logo.png']));
    for (const skipped of ['/logo.png', '/icons/arrow.png', '/diagram.svg', '/thumb.jpg', '/c1.png']) expect(urls).not.toContain(skipped);
    expect(urls.indexOf('/footer-photo.jpg')).toBe(urls.length - 1);
  });

  it('an image shown on several crawled pages scores higher', () => {
    const home = htmlPageOf('<main><img src="/a.jpg" alt="Photo of the store front"><img src="/b.jpg" alt="Photo of the store front"></main>');
    const about = htmlPageOf('<main><img src="/b.jpg" alt="Photo of the store front"></main>', 'https://www.acme.test/about');
    expect(findPictureCandidates([home, about], 'Acme')[0]?.url).toBe('https://www.acme.test/b.jpg');
  });
});

describe('rankPictures', () => {
  it('drops placeholders, tiny, extreme-aspect and already-listed files, collapses near-duplicates, ranks by score', () => {
    const big = image(1600, 1000, { dhash: '00000000000000ff' });
    const twin = image(800, 500, { dhash: '00000000000000fe' });
    const other = image(900, 900, { dhash: 'ffffffff00000000' });
    const blank = image(400, 300, { uniform: true });
    const small = image(90, 90);
    const strip = image(1200, 100);
    const logo = image(400, 400);
    const pictures = rankPictures(
      [candidate('https://acme.test/twin.jpg', 60), candidate('https://acme.test/big.jpg', 50), candidate('https://acme.test/other.jpg', 40),
        candidate('https://acme.test/blank.png'), candidate('https://acme.test/small.jpg'), candidate('https://acme.test/strip.jpg'), candidate('https://acme.test/logo.png')]
        .map((c, i) => ({ candidate: c, image: [twin, big, other, blank, small, strip, logo][i] ?? null })),
      new Set([logo.sha256]),
    );
    expect(pictures.map((p) => p.pictureMetadata?.sourceUrl)).toEqual(['https://acme.test/twin.jpg', 'https://acme.test/other.jpg']);
    expect(pictures.map((p) => p.pictureMetadata?.rank)).toEqual([1, 2]);
    expect(pictures[0]).toMatchObject({ type: 'picture', tags: [], pictureMetadata: { naturalWidth: 800, naturalHeight: 500, alt: 'A photo', imageCategory: null, categoryConfidence: null } });
  });
});
