import { describe, expect, it } from 'vitest';
import type { IconCandidate, MarkCandidate } from '../../src/crawl/fields/logos/logo-candidates.js';
import { chooseIcon, chooseLogos, markType, type IngestedIcon, type IngestedMark } from '../../src/crawl/fields/logos/logos.js';
import type { ImageFormat } from '../../src/domain/brand.js';
import type { IngestedImage } from '../../src/media/ingest-image.js';

let counter = 0;
function image(format: ImageFormat, width: number | null, height: number | null, theme: IngestedImage['theme'] = null): IngestedImage {
  counter += 1;
  const sha256 = counter.toString(16).padStart(64, '0');
  return {
    original: { src: `${sha256}.${format}`, format, width, height, size: 100 + counter, background: null },
    sourceFormat: format,
    width,
    height,
    transparentEdges: false,
    theme,
    dominantColors: [{ hex: '#123456', share: 1 }],
    sha256,
    assetKey: `${sha256}.${format}`,
    uniform: false,
    dhash: '0'.repeat(16),
  };
}

const icon = (kind: IconCandidate['kind'], img: IngestedImage): IngestedIcon => ({ candidate: { kind, url: img.original.src, declaredSize: 0 }, image: img });
const mark = (img: IngestedImage, themeHint: MarkCandidate['themeHint'] = null): IngestedMark => ({
  candidate: { kind: 'header', url: img.original.src, svg: null, score: 100, themeHint },
  image: img,
});

describe('markType', () => {
  it('wide → logo, square-ish → symbol, tall or unknown → other', () => {
    expect(markType(image('svg', 160, 40))).toBe('logo');
    expect(markType(image('png', 100, 90))).toBe('symbol');
    expect(markType(image('png', 40, 120))).toBe('other');
    expect(markType(image('svg', null, null))).toBe('other');
  });
});

describe('chooseIcon', () => {
  it('prefers the largest square raster ≥ 64 px, then an SVG, then the largest small raster', () => {
    const png32 = image('png', 32, 32);
    const png180 = image('png', 180, 180);
    const png512 = image('png', 512, 512);
    const svg = image('svg', 24, 24);
    const wide = image('png', 600, 300);
    expect(chooseIcon([icon('icon', png32), icon('apple-touch-icon', png180), icon('manifest-icon', png512), icon('icon', svg)])).toBe(png512);
    expect(chooseIcon([icon('icon', png32), icon('icon', svg), icon('icon', wide)])).toBe(svg);
    expect(chooseIcon([icon('icon', png32)])).toBe(png32);
    expect(chooseIcon([icon('mask-icon', image('svg', 16, 16))])).toBeNull();
  });
});

describe('chooseLogos', () => {
  it('lists the wide header logo, a square symbol and the icon, each once', () => {
    const wordmark = image('svg', 132, 24, 'dark');
    const square = image('svg', 40, 40);
    const appIcon = image('png', 192, 192);
    const { logos, logoColors, hashes } = chooseLogos([icon('manifest-icon', appIcon)], [mark(wordmark), mark(square)]);
    expect(logos.map((l) => l.type)).toEqual(['logo', 'symbol', 'icon']);
    expect(logos[0]).toEqual({ theme: 'dark', formats: [wordmark.original], tags: [], type: 'logo' });
    expect(logoColors).toEqual([{ hex: '#123456', share: 1 }]);
    expect(hashes.size).toBe(3);
  });

  it('uses the mask-icon as symbol next to a wide logo, and a file-name hint when pixels are ambiguous', () => {
    const wordmark = image('svg', 200, 50, null);
    const pin = image('svg', 16, 16, 'dark');
    const { logos } = chooseLogos([icon('mask-icon', pin)], [mark(wordmark, 'light')]);
    expect(logos.map((l) => [l.type, l.theme])).toEqual([['logo', 'light'], ['symbol', 'dark']]);
  });

  it('does not list the same file twice and emits nothing without candidates', () => {
    const same = image('png', 128, 128);
    expect(chooseLogos([icon('icon', same)], [mark(same)]).logos.map((l) => l.type)).toEqual(['symbol']);
    expect(chooseLogos([], [])).toEqual({ logos: [], logoColors: [], hashes: new Set(), images: [] });
  });
});

describe('chooseLogos: scheme variants and placeholders', () => {
  const schemed = (img: IngestedImage, scheme: 'dark' | 'light', themeHint: MarkCandidate['themeHint'] = null): IngestedMark => ({
    candidate: { kind: 'header', url: img.original.src, svg: null, score: 100, themeHint, scheme },
    image: img,
  });

  it('keeps the light-scheme logo as primary and its dark-scheme twin as a second logo of the same type', () => {
    const onLight = image('svg', 160, 40, 'dark');
    const onDark = image('svg', 160, 40, 'light');
    const { logos } = chooseLogos([], [schemed(onDark, 'dark'), schemed(onLight, 'light')]);
    expect(logos.map((l) => [l.type, l.theme])).toEqual([['logo', 'dark'], ['logo', 'light']]);
  });

  it('falls back to the scheme hint when the pixels are ambiguous', () => {
    const { logos } = chooseLogos([], [schemed(image('svg', 160, 40, null), 'light', 'dark'), schemed(image('svg', 160, 40, null), 'dark', 'light')]);
    expect(logos.map((l) => l.theme)).toEqual(['dark', 'light']);
  });
});
