/**
 * The palette's lazy rule (spec 2.8, section 3): a brand's palette is built on the first request that asks for it,
 * from the evidence its last crawl kept (no new render), stored, and read by later requests. `null` when there is
 * no evidence to build from (no crawl since palettes exist, or evidence of an unknown version), when the brand is
 * NSFW, or when the build does not finish within the budget (BRANDBASE_PALETTE_BUDGET_MS). A build that overruns
 * keeps running in the background and stores its palette, so a later request finds it; a crawl that replaces the
 * evidence drops the old palette (PaletteStore). Concurrent requests for one brand share one build.
 */
import type { Logger } from '../platform/logger.js';
import { PALETTE_EVIDENCE_VERSION, type Palette } from '../domain/palette.js';
import type { StoredBrand } from '../brands/brand-store.js';
import type { PaletteStore, StoredPalette } from './palette-store.js';
import { buildPalette } from './build-palette.js';
import { warmColorNames } from './color-names.js';
import { paletteLogos, type LogoFileReader, type SvgRasterizer } from './logo-colors.js';
import { rasterizeSvg } from '../media/rasterize-svg.js';

/** What the use cases ask for a palette (the port they see). */
export interface PaletteSource {
  /** The brand's palette, or null (spec 2.8's rules). */
  paletteOf(stored: StoredBrand): Promise<Palette | null>;
}

export interface PaletteServiceOptions {
  /** How long a request waits for a build, in milliseconds. */
  budgetMs: number;
  /**
   * Draws the logos' SVGs. The server hands it the SVG render pool (issue 33: never the API's thread); without it
   * they are drawn in this thread (tests, tools).
   */
  rasterizeSvg?: SvgRasterizer;
  logger?: Logger;
  now?: () => number;
}

export class PaletteService implements PaletteSource {
  private readonly building = new Map<string, Promise<Palette | null>>();
  private readonly now: () => number;

  constructor(
    private readonly store: Pick<PaletteStore, 'getStoredPalette' | 'savePalette'>,
    private readonly files: LogoFileReader,
    private readonly options: PaletteServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async paletteOf(stored: StoredBrand): Promise<Palette | null> {
    if (stored.brand.isNsfw) return null;
    const deadline = this.now() + this.options.budgetMs;
    const kept = await this.store.getStoredPalette(stored.brand.id);
    if (!kept || kept.evidence.version !== PALETTE_EVIDENCE_VERSION) return null;
    if (kept.palette) return kept.palette;
    return this.within(this.buildOnce(stored, kept), deadline);
  }

  /** Resolves when no build is running in this process (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.building.size > 0) await Promise.allSettled([...this.building.values()]);
  }

  private buildOnce(stored: StoredBrand, kept: StoredPalette): Promise<Palette | null> {
    const key = `${stored.brand.id}@${kept.observedAt.getTime()}`;
    let running = this.building.get(key);
    if (!running) {
      running = this.build(stored, kept)
        .catch((error: unknown) => {
          this.options.logger?.warn({ brandId: stored.brand.id, err: error instanceof Error ? error.message : String(error) }, 'palette build failed');
          return null;
        })
        .finally(() => this.building.delete(key));
      this.building.set(key, running);
    }
    return running;
  }

  private async build(stored: StoredBrand, kept: StoredPalette): Promise<Palette> {
    const logos = await paletteLogos(stored.brand.logos, this.files, this.options.rasterizeSvg ?? (async (svg) => rasterizeSvg(svg)));
    warmColorNames();
    const palette = buildPalette({ brand: stored.brand, evidence: kept.evidence, logos });
    await this.store.savePalette(stored.brand.id, palette, kept.observedAt, new Date(this.now()));
    return palette;
  }

  /** The build's palette, or null when `deadline` passes first (the build goes on and stores its result). */
  private async within(build: Promise<Palette | null>, deadline: number): Promise<Palette | null> {
    const remaining = deadline - this.now();
    if (remaining <= 0) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), remaining);
    });
    try {
      return await Promise.race([build, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
