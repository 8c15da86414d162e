/**
 * The port the crawler renders JavaScript-built pages through (browser-renderer.ts implements it with
 * headless Chromium). Kept as an interface so the crawl runs, and is tested, without a browser.
 */
import type { RenderedPaletteSamples } from '../../../domain/palette.js';

export interface RenderOptions {
  /** Hard cap for the whole render, including launch of the page and consent dismissal. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The static page had no logo candidate: wait for a header mark to appear (settle-page.ts). */
  awaitMark?: boolean;
  /**
   * Only the palette samples are wanted (the palette's background render, ADR 0023): the DOM is not serialised and
   * `html` is empty.
   */
  paletteOnly?: boolean;
}

export interface RenderedPage {
  /** The DOM after scripts ran, serialised. */
  html: string;
  /** The URL the page ended on. */
  url: string;
  /** Computed colours in the light and dark schemes (palette-samples.ts), when they could be read. */
  paletteSamples?: RenderedPaletteSamples;
}

export interface PageRenderer {
  /** null when rendering failed or ran out of time: the static page is used instead. */
  render(url: string, options: RenderOptions): Promise<RenderedPage | null>;
}
