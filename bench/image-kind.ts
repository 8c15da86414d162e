/**
 * Image-kind cost per listed banner or picture (docs/images.md): decoding the file to the 160 px classification
 * raster (sharp, shrink-on-load for JPEG), the hand features and the boosted trees, on generated files of typical
 * banner and picture sizes. Prints the median and the 90th percentile of ROUNDS runs per file; a crawl classifies at
 * most 9 files (3 banners, 6 pictures), concurrently on sharp's threads.
 * Run alone: `node --import tsx bench/image-kind.ts`; or call `benchImageKind()` (npm run bench).
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { classificationRaster } from '../src/media/classification-raster.js';
import { imageFeatures } from '../src/media/image-features.js';
import { classifyImageKind } from '../src/media/image-kind.js';

const ROUNDS = 30;

/** Smooth gradient plus deterministic grain: a photograph's cost profile (every pixel differs). */
async function grainy(width: number, height: number, format: 'jpeg' | 'webp' | 'png'): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  let seed = 11;
  for (let i = 0; i < width * height; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const n = (seed % 31) - 15;
    data[i * 3] = Math.max(0, Math.min(255, ((i % width) * 200) / width + n));
    data[i * 3 + 1] = Math.max(0, Math.min(255, 120 + n));
    data[i * 3 + 2] = Math.max(0, Math.min(255, (Math.floor(i / width) * 200) / height + n));
  }
  return sharp(data, { raw: { width, height, channels: 3 } })[format]().toBuffer();
}

export interface ImageKindBenchRow {
  file: string;
  kb: number;
  medianMs: number;
  p90Ms: number;
}

export async function benchImageKind(): Promise<ImageKindBenchRow[]> {
  const files: [string, Buffer][] = [
    ['banner 1600×900 JPEG', await grainy(1600, 900, 'jpeg')],
    ['photo 4000×3000 JPEG', await grainy(4000, 3000, 'jpeg')],
    ['picture 1200×800 WebP', await grainy(1200, 800, 'webp')],
    ['picture 800×600 PNG', await grainy(800, 600, 'png')],
  ];
  const rows: ImageKindBenchRow[] = [];
  for (const [file, bytes] of files) {
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      classifyImageKind(imageFeatures(await classificationRaster(bytes)));
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const at = (q: number): number => Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0) * 10) / 10;
    rows.push({ file, kb: Math.round(bytes.length / 1024), medianMs: at(0.5), p90Ms: at(0.9) });
  }
  return rows;
}

if (process.argv[1]?.endsWith('image-kind.ts')) console.table(await benchImageKind());
