/**
 * Where SVG documents are turned into pixels (issue 33: no customer can stall another). A site's SVG can ask for
 * minutes of filter work that no timeout inside the process can stop (librsvg and resvg run to the end once
 * called), so on the API's request path every SVG is rasterized through this port by the bounded pool beside it
 * (`svg-render-pool.ts`: worker processes killed at a time and memory limit, a bounded queue). Places that already
 * run in an isolated crawl worker use the in-process renderer.
 */
import { rasterizeSvg } from '../media/rasterize-svg.js';
import type { RgbaRaster } from '../media/rgba-raster.js';
import { rasterizeSvgTo, type RasterFormat } from './render-variant.js';
import type { VariantGeometry } from './variant-geometry.js';

export interface SvgRenderer {
  /** A CDN variant: the (sanitized) SVG drawn at the geometry and encoded (render-variant.ts `rasterizeSvgTo`). */
  variant(svg: string, geometry: VariantGeometry, format: RasterFormat): Promise<Buffer>;
  /** The SVG's pixels at its declared size, by resvg (media/rasterize-svg.ts): the palette's logo colours. */
  raster(svg: string): Promise<RgbaRaster>;
  close(): Promise<void>;
}

/**
 * Why a render did not happen: `busy` (the pool's queue is full), `timeout` and `memory` (the worker was killed
 * at a limit), `crashed` (the worker died), `closed` (shutting down). A document that cannot be drawn rejects
 * with an ordinary Error instead.
 */
export type SvgRenderFailure = 'busy' | 'timeout' | 'memory' | 'crashed' | 'closed';

export class SvgRenderUnavailable extends Error {
  constructor(readonly reason: SvgRenderFailure) {
    super(`SVG render unavailable: ${reason}`);
    this.name = 'SvgRenderUnavailable';
  }
}

/** In this process, unbounded: only for code that already runs in an isolated worker (crawl workers, ADR 0014). */
export const inProcessSvgRenderer: SvgRenderer = {
  variant: rasterizeSvgTo,
  raster: async (svg) => rasterizeSvg(svg),
  close: async () => undefined,
};
