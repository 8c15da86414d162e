/**
 * Image-kind features and model (docs/images.md) on a handful of images: generated ones with known properties and
 * one real, openly licensed screenshot (test/fixtures/images/README.md). The labelled real set is scored by
 * `npm run eval`, not here.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { applyVerdict, withImageKinds } from '../../src/crawl/fields/images/image-kinds.js';
import type { Image } from '../../src/domain/brand.js';
import { classificationRaster } from '../../src/media/classification-raster.js';
import { imageFeatures } from '../../src/media/image-features.js';
import { classifyImageKind, IMAGE_KIND_MODEL } from '../../src/media/image-kind.js';

const SCREENSHOT = new URL('../fixtures/images/gimp-help-menu.png', import.meta.url);
const PHOTO = new URL('../fixtures/images/gimp-help-photo.jpg', import.meta.url);

/** Deterministic pseudo-random grain over a smooth gradient: photographic texture without a photograph. */
async function grainyGradient(width = 400, height = 300): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < width * height; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const n = (seed % 41) - 20;
    const x = i % width;
    data[i * 3] = Math.max(0, Math.min(255, 90 + (x * 120) / width + n));
    data[i * 3 + 1] = Math.max(0, Math.min(255, 140 + n));
    data[i * 3 + 2] = Math.max(0, Math.min(255, 60 + ((i / width) * 100) / height + n));
  }
  return sharp(data, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

async function flat(): Promise<Buffer> {
  return sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366cc' } }).png().toBuffer();
}

/** A 12 px checker tiled over the whole image. */
async function checker(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320"><defs><pattern id="p" width="24" height="24" patternUnits="userSpaceOnUse"><rect width="12" height="12" fill="#222"/><rect x="12" y="12" width="12" height="12" fill="#222"/></pattern></defs><rect width="480" height="320" fill="#eee"/><rect width="480" height="320" fill="url(#p)"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function featuresOf(bytes: Buffer) {
  return imageFeatures(await classificationRaster(bytes));
}

function picture(src: string): Image {
  return {
    formats: [{ src, format: 'png', width: 200, height: 200, size: 1, background: null }],
    tags: [],
    type: 'picture',
    pictureMetadata: { score: 1, rank: 1, naturalWidth: 200, naturalHeight: 200, alt: '', sourceUrl: 'https://acme.com/a.png', imageCategory: null, categoryConfidence: null },
  };
}

describe('image features', () => {
  it('a flat image is all flat region with one colour; grain gives many colours and gentle gradients', async () => {
    const plain = await featuresOf(await flat());
    expect(plain.flatShare).toBeGreaterThan(0.99);
    expect(plain.topColorsShare).toBeGreaterThan(0.99);
    expect(plain.periodicity).toBe(0);
    const grainy = await featuresOf(await grainyGradient());
    expect(grainy.colorCount).toBeGreaterThan(plain.colorCount + 0.3);
    expect(grainy.flatShare).toBeLessThan(0.2);
    expect(grainy.grain).toBeGreaterThan(plain.grain + 0.2);
    expect(grainy.stillShare).toBeLessThan(plain.stillShare - 0.5);
  });

  it('a tiled checker repeats itself; the sample keeps its aspect within 160 px', async () => {
    const raster = await classificationRaster(await checker());
    expect([raster.width, raster.height]).toEqual([160, 107]);
    expect(imageFeatures(raster).periodicity).toBeGreaterThan(0.8);
  });
});

describe('image-kind model', () => {
  it('ships thresholds of at least 0.6 for the tags it assigns, and never tags what it cannot', () => {
    for (const t of Object.values(IMAGE_KIND_MODEL.tagThresholds)) expect(t).toBeGreaterThanOrEqual(0.6);
  });

  it('tags a real dialog screenshot as a screenshot picture; a banner may not carry that tag', async () => {
    const verdict = classifyImageKind(await featuresOf(await readFile(SCREENSHOT)));
    expect(verdict.tags).toEqual(['screenshot']);
    expect(verdict.category).toBe('screenshot');
    const tagged = applyVerdict(picture('a.png'), verdict);
    expect(tagged.tags).toEqual(['screenshot']);
    expect(tagged.pictureMetadata).toMatchObject({ imageCategory: 'screenshot', categoryConfidence: verdict.confidence });
    expect(applyVerdict({ ...picture('a.png'), type: 'banner', pictureMetadata: undefined }, verdict).tags).toEqual([]);
  });

  it('a real photograph is categorised photographic, with its probability as confidence, and is no screenshot', async () => {
    const verdict = classifyImageKind(await featuresOf(await readFile(PHOTO)));
    expect(verdict.category).toBe('photographic');
    expect(verdict.confidence).toBeCloseTo(verdict.probabilities.photographic, 2);
    expect(verdict.tags).not.toContain('screenshot');
  });

  it('a grainy gradient and a flat colour are not screenshots', async () => {
    for (const bytes of [await grainyGradient(), await flat()]) expect(classifyImageKind(await featuresOf(bytes)).tags).not.toContain('screenshot');
  });

  it('withImageKinds reads the staged bytes; an SVG or a missing file stays untagged', async () => {
    const files = new Map([['shot.png', await readFile(SCREENSHOT)]]);
    const assets = { get: async (key: string) => (files.has(key) ? { bytes: files.get(key) as Buffer, contentType: 'image/png' } : null) };
    const svg: Image = { ...picture('x.svg'), formats: [{ src: 'x.svg', format: 'svg', width: 10, height: 10, size: 1, background: null }] };
    const [shot, missing, vector] = await withImageKinds([picture('shot.png'), picture('gone.png'), svg], assets, new AbortController().signal);
    expect(shot?.tags).toEqual(['screenshot']);
    expect(missing?.tags).toEqual([]);
    expect(vector?.pictureMetadata?.imageCategory).toBeNull();
  });
});
