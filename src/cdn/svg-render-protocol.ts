/** Messages between the SVG render pool (svg-render-pool.ts) and its worker processes (main/svg-render-worker.ts). */
import type { RasterFormat } from './render-variant.js';
import type { VariantGeometry } from './variant-geometry.js';

export type ToSvgWorker =
  | { type: 'variant'; id: number; svg: string; geometry: VariantGeometry; format: RasterFormat }
  | { type: 'raster'; id: number; svg: string };

export type FromSvgWorker =
  | { type: 'ready' }
  | { type: 'variant-done'; id: number; bytes: Uint8Array }
  | { type: 'raster-done'; id: number; data: Uint8Array; width: number; height: number }
  | { type: 'failed'; id: number; message: string };
