/**
 * Palette evidence from a render of a brand's home page, made after a crawl that did not render (ADR 0023): the
 * same computed-style samples a rendering crawl keeps (render/palette-samples.ts, light and `prefers-color-scheme:
 * dark`), combined with the CSS evidence that crawl kept (declaration counts and brand-colour signals), exactly as
 * the crawl combines them (rendered-palette-evidence.ts). The renderer is the crawl's (air-gapped, every request
 * through the safe fetcher and its host map, ADR 0007).
 */
import { renderedPaletteEvidence } from '../crawl/fields/palette-evidence/rendered-palette-evidence.js';
import type { PageRenderer } from '../crawl/fetch/render/page-renderer.js';
import type { PaletteEvidence } from '../domain/palette.js';

/** A render given less than this is not started: the page would be read before it settled. */
const MIN_RENDER_MS = 1_000;

export interface RenderEvidenceOptions {
  /** The whole render, both home page addresses included. */
  timeoutMs: number;
  now?: () => number;
}

/**
 * The rendered evidence, or null when no render produced palette samples within `timeoutMs`. The bare domain's home
 * page is tried first, then its `www.` twin (the crawler's fallback, ADR 0024), within the same time.
 */
export async function renderPaletteEvidence(renderer: PageRenderer, domain: string, fromCss: PaletteEvidence, options: RenderEvidenceOptions): Promise<PaletteEvidence | null> {
  const now = options.now ?? (() => performance.now());
  const deadline = now() + options.timeoutMs;
  const hosts = domain.startsWith('www.') ? [domain] : [domain, `www.${domain}`];
  for (const host of hosts) {
    const remaining = Math.floor(deadline - now());
    if (remaining < MIN_RENDER_MS) break;
    // https: a host-mapped fixture host is fetched over plain HTTP at its mapped address whatever the scheme.
    const page = await renderer.render(`https://${host}/`, { timeoutMs: remaining, paletteOnly: true });
    if (page?.paletteSamples) return renderedPaletteEvidence(page.paletteSamples, fromCss);
  }
  return null;
}
