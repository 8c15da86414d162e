/**
 * Palettes of the labelled eval sites (eval/record: generated brand sites and control sites), built the way the
 * service builds them: each site is crawled with the real crawlBrand and SafeFetcher on loopback, the logo files
 * land in a real asset store, and the palette is built from the evidence the crawl kept. With `render`, every site
 * is also rendered in headless Chromium (the real BrowserRenderer) and the palette is built from the rendered
 * evidence, as a crawl that renders would keep it. Shared by `npm run eval` (suite.ts) and the palette tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalAssetStore } from '../../src/assets/local/local-asset-store.js';
import { crawlBrand, type BrandDraft } from '../../src/crawl/crawl-brand.js';
import { BrowserRenderer, findChromium } from '../../src/crawl/fetch/render/browser-renderer.js';
import { renderedPaletteEvidence } from '../../src/crawl/fields/palette-evidence/rendered-palette-evidence.js';
import type { Palette, PaletteEvidence } from '../../src/domain/palette.js';
import { buildPalette } from '../../src/palette/build-palette.js';
import { paletteLogos } from '../../src/palette/logo-colors.js';
import { rasterizeSvg } from '../../src/media/rasterize-svg.js';
import { SafeFetcher, USER_AGENT } from '../../src/platform/safe-fetcher.js';
import { allSites } from '../record/suite.js';
import { serveSites } from '../record/serve-sites.js';
import type { GeneratedSite } from '../record/site-generator.js';

const CRAWL_TIMEOUT_MS = 30_000;
const RENDER_TIMEOUT_MS = 60_000;
const CONCURRENT = 4;

export interface PaletteRun {
  site: GeneratedSite;
  draft: BrandDraft;
  evidence: PaletteEvidence;
  palette: Palette;
  /** Built from the Chromium render's evidence; null without Chromium or when the render failed. */
  rendered: { evidence: PaletteEvidence; palette: Palette } | null;
}

export interface PaletteRuns {
  runs: PaletteRun[];
  /** Sites whose crawl failed, with the reason. */
  failed: string[];
  /** Whether Chromium rendered the sites. */
  rendering: boolean;
}

const darkSites = new WeakSet<GeneratedSite>();

/**
 * Whether the site has a dark scheme that changes its page (canvas or body text). The generated brand sites carry
 * dark-mode token overrides as noise, but a later `html, body` rule of the same sheet overrides their dark body
 * background, so their page does not change: they have none. The copies made by `withDarkScheme` do.
 */
export function hasDarkScheme(site: GeneratedSite): boolean {
  return darkSites.has(site);
}

const DARK_CSS = [
  '\n@media (prefers-color-scheme: dark) { html, body { background-color: #0b0b0f; color: #e5e7eb; } a { color: #93c5fd; } }',
  '\n:root { --page-bg: #ffffff; --page-fg: #1f2937; }\nhtml, body { background-color: var(--page-bg); color: var(--page-fg); }\n@media (prefers-color-scheme: dark) { :root { --page-bg: #121212; --page-fg: #f5f5f5; } }',
];

/** A copy of a brand site (host `dark-<host>`) whose stylesheet ends with a dark scheme, one of two ways. */
export function withDarkScheme(site: GeneratedSite, variant: number): GeneratedSite {
  const css = site.files['/assets/site.css'];
  if (!css) throw new Error(`${site.host} has no stylesheet`);
  const host = `dark-${site.host}`;
  const copy: GeneratedSite = {
    ...site,
    host,
    truth: site.truth ? { ...site.truth, host } : null,
    files: {
      ...Object.fromEntries(Object.entries(site.files).map(([p, f]) => [p, typeof f.body === 'string' ? { ...f, body: f.body.replaceAll(site.host, host) } : f])),
      '/assets/site.css': { type: css.type, body: `${String(css.body)}${DARK_CSS[variant % DARK_CSS.length] ?? ''}` },
    },
  };
  darkSites.add(copy);
  return copy;
}

/** The eval sites of eval/record plus a dark-scheme copy of every fourth brand site. */
export async function paletteEvalSites(): Promise<GeneratedSite[]> {
  const sites = await allSites();
  const brands = sites.filter((s) => s.truth !== null);
  return [...sites, ...brands.filter((_, i) => i % 4 === 0).map((s, i) => withDarkScheme(s, i))];
}

export async function paletteRuns(options: { render: boolean; sites?: GeneratedSite[] }): Promise<PaletteRuns> {
  const sites = options.sites ?? (await paletteEvalSites());
  const served = await serveSites(sites);
  const fetcher = new SafeFetcher({ hostMap: served.hostMap });
  const folder = mkdtempSync(path.join(tmpdir(), 'brandbase-palette-eval-'));
  const assets = new LocalAssetStore({ dir: folder });
  const chromium = options.render ? findChromium(process.env['BRANDBASE_CHROMIUM_PATH']) : null;
  const renderer = chromium ? new BrowserRenderer({ executablePath: chromium, fetcher, userAgent: USER_AGENT }) : null;
  const runs: PaletteRun[] = [];
  const failed: string[] = [];
  try {
    for (let i = 0; i < sites.length; i += CONCURRENT) {
      const done = await Promise.all(sites.slice(i, i + CONCURRENT).map(async (site): Promise<PaletteRun | string> => {
        const outcome = await crawlBrand(site.host, { fetcher, assets }, { timeoutMs: CRAWL_TIMEOUT_MS });
        if (!outcome.ok) return `${site.host}: ${outcome.reason}`;
        if (!outcome.paletteEvidence) return `${site.host}: no palette evidence`;
        const logos = await paletteLogos(outcome.draft.logos, assets, async (svg) => rasterizeSvg(svg));
        const evidence = outcome.paletteEvidence;
        const palette = buildPalette({ brand: outcome.draft, evidence, logos });
        let rendered: PaletteRun['rendered'] = null;
        if (renderer) {
          const page = await renderer.render(`http://${site.host}/`, { timeoutMs: RENDER_TIMEOUT_MS });
          if (page?.paletteSamples) {
            const renderedEvidence = renderedPaletteEvidence(page.paletteSamples, evidence);
            rendered = { evidence: renderedEvidence, palette: buildPalette({ brand: outcome.draft, evidence: renderedEvidence, logos }) };
          }
        }
        return { site, draft: outcome.draft, evidence, palette, rendered };
      }));
      for (const d of done) if (typeof d === 'string') failed.push(d);
      else runs.push(d);
    }
  } finally {
    await renderer?.close();
    await served.close();
    rmSync(folder, { recursive: true, force: true });
  }
  return { runs, failed, rendering: renderer !== null };
}
