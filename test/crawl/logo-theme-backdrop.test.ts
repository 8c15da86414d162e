/**
 * Logo theme (spec 2.3, issue 16): the backdrop the page shows the mark on decides, the mark's own lightness only
 * when the backdrop is unknown. Real files (SVG marks rasterised and measured by ingestImage) on backdrops found
 * by the page's own rules (findMarkCandidates → logo-backdrop.ts), chosen by chooseLogos as a crawl does.
 */
import { describe, expect, it } from 'vitest';
import { findMarkCandidates } from '../../src/crawl/fields/logos/logo-candidates.js';
import { chooseLogos } from '../../src/crawl/fields/logos/logos.js';
import { readJsonLd } from '../../src/crawl/page/json-ld.js';
import { ingestImage, type IngestedImage } from '../../src/media/ingest-image.js';
import { markLightness, themeOnBackdrop } from '../../src/media/logo-theme.js';
import { tempAssets } from '../helpers/temp-assets.js';
import { cssOf, htmlPageOf } from './html-page-of.js';

const WORDMARK = 'M4 8h40v24H4zM52 8h40v24H52zM100 8h40v24h-40z';
const solid = (fill: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><path fill="${fill}" d="${WORDMARK}"/></svg>`;
const GRADIENT = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#ff5f6d"/><stop offset="1" stop-color="#7b2ff7"/></linearGradient></defs><path fill="url(#g)" d="${WORDMARK}"/></svg>`;

const MARKS = {
  coral: solid('#ff7f50'),
  red: solid('#e53935'),
  green: solid('#4caf50'),
  black: solid('#000000'),
  white: solid('#ffffff'),
  gradient: GRADIENT,
} as const;
type MarkName = keyof typeof MARKS;

async function ingest(svg: string): Promise<IngestedImage> {
  const result = await ingestImage(Buffer.from(svg), tempAssets());
  if (!result.ok) throw new Error(result.reason);
  return result.image;
}

/** The theme a crawl gives `mark` shown in a header painted by `css` (no rule: an unknown backdrop). */
async function themeInHeader(mark: MarkName, css: string): Promise<string | null> {
  const page = htmlPageOf('<html><body><div class="wrap"><header class="site-header"><a href="/"><img src="/logo.svg" alt="Acme logo"></a></header></div><main><p>Acme makes things.</p></main></body></html>');
  const sheets = cssOf(css);
  const [candidate] = findMarkCandidates({ page, jsonLd: readJsonLd(page.$), brandName: 'Acme', cssRules: sheets.flatMap((s) => s.rules), sheets });
  if (!candidate) throw new Error('no mark candidate');
  const { logos } = chooseLogos([], [{ candidate, image: await ingest(MARKS[mark]) }]);
  return logos[0]?.theme ?? null;
}

const LIGHT_HEADER = '.site-header{background:#ffffff;border-bottom:1px solid #eee}';
const DARK_HEADER = '.site-header{background-color:#101828}';
/** Painted on an outer wrapper, not the header itself: the walk goes up the ancestors. */
const LIGHT_WRAPPER = '.wrap{background:#fafafa}';

describe('logo theme from the backdrop the page shows the mark on', () => {
  it.each(['coral', 'red', 'green', 'gradient'] as const)('a %s mark on a white header is dark, on a dark header light', async (mark) => {
    expect(await themeInHeader(mark, LIGHT_HEADER)).toBe('dark');
    expect(await themeInHeader(mark, LIGHT_WRAPPER)).toBe('dark');
    expect(await themeInHeader(mark, DARK_HEADER)).toBe('light');
  });

  it('reads backdrops painted with a root token or a legacy bgcolor attribute', async () => {
    expect(await themeInHeader('coral', ':root{--surface:#ffffff;--ink:#0b1020}.site-header{background:var(--surface)}')).toBe('dark');
    expect(await themeInHeader('coral', ':root{--ink:#0b1020}.site-header{background-color:var(--ink)}')).toBe('light');
    const page = htmlPageOf('<table bgcolor="#000033"><tr><td><a href="/"><img src="/logo.svg" alt="Acme logo"></a></td></tr></table><p>Acme</p>');
    const [candidate] = findMarkCandidates({ page, jsonLd: [], brandName: 'Acme', cssRules: [], sheets: [] });
    if (!candidate) throw new Error('no mark candidate');
    expect(chooseLogos([], [{ candidate, image: await ingest(MARKS.green) }]).logos[0]?.theme).toBe('light');
  });

  it('a black mark is dark on a light backdrop; a white mark is light on a dark one', async () => {
    expect(await themeInHeader('black', LIGHT_HEADER)).toBe('dark');
    expect(await themeInHeader('white', DARK_HEADER)).toBe('light');
  });

  it('a backdrop the mark would vanish on is not believed: the pixels decide', async () => {
    // A black mark on a "dark" header or a white one on a "white" header: the colour found is not what is behind it.
    expect(await themeInHeader('black', DARK_HEADER)).toBe('dark');
    expect(await themeInHeader('white', LIGHT_HEADER)).toBe('light');
  });

  it('an unknown backdrop leaves the theme to the mark’s own lightness', async () => {
    expect(await themeInHeader('black', '')).toBe('dark');
    expect(await themeInHeader('white', '')).toBe('light');
    // Coral and green contrast clearly more with black than with white; the red and the gradient are ambiguous.
    expect(await themeInHeader('coral', '')).toBe('light');
    expect(await themeInHeader('green', '')).toBe('light');
    expect(await themeInHeader('red', '')).toBeNull();
    expect(await themeInHeader('gradient', '')).toBeNull();
    // A mid-tone backdrop is as good as unknown.
    expect(await themeInHeader('coral', '.site-header{background:#808080}')).toBe('light');
  });

  it('a dark-scheme variant is not judged against the default scheme’s backdrop', async () => {
    const page = htmlPageOf('<header class="site-header"><a href="/"><picture><source media="(prefers-color-scheme: dark)" srcset="/logo-dark.svg"><img src="/logo.svg" alt="Acme"></picture></a></header>');
    const sheets = cssOf(LIGHT_HEADER);
    const candidates = findMarkCandidates({ page, jsonLd: [], brandName: 'Acme', cssRules: sheets.flatMap((s) => s.rules), sheets });
    const images = { '/logo.svg': await ingest(MARKS.coral), '/logo-dark.svg': await ingest(solid('#ffa07a')) };
    const marks = candidates.map((candidate) => ({ candidate, image: images[new URL(candidate.url ?? '').pathname as keyof typeof images] }));
    const { logos } = chooseLogos([], marks);
    expect(logos.map((l) => l.theme)).toEqual(['dark', 'light']);
  });
});

describe('logo theme of an opaque file: its own plate is the backdrop', () => {
  const plated = (plate: string, fill: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><rect width="160" height="40" fill="${plate}"/><path fill="${fill}" d="${WORDMARK}"/></svg>`;

  it('a coral mark on a white plate is dark, on a black plate light, whatever the page paints', async () => {
    expect((await ingest(plated('#ffffff', '#ff7f50'))).theme).toBe('dark');
    expect((await ingest(plated('#000000', '#ff7f50'))).theme).toBe('light');
    expect(await themeInHeaderOf(plated('#ffffff', '#ff7f50'), DARK_HEADER)).toBe('dark');
  });

  async function themeInHeaderOf(svg: string, css: string): Promise<string | null> {
    const page = htmlPageOf('<header class="site-header"><a href="/"><img src="/logo.svg" alt="Acme"></a></header>');
    const sheets = cssOf(css);
    const [candidate] = findMarkCandidates({ page, jsonLd: [], brandName: 'Acme', cssRules: sheets.flatMap((s) => s.rules), sheets });
    if (!candidate) throw new Error('no mark candidate');
    return chooseLogos([], [{ candidate, image: await ingest(svg) }]).logos[0]?.theme ?? null;
  }
});

describe('themeOnBackdrop', () => {
  it('needs a light or dark backdrop the mark stands out from', () => {
    expect(themeOnBackdrop(0.37, 1)).toBe('dark');
    expect(themeOnBackdrop(0.37, 0)).toBe('light');
    expect(themeOnBackdrop(0.37, 0.25)).toBeNull();
    expect(themeOnBackdrop(0.95, 1)).toBeNull();
    expect(themeOnBackdrop(0.005, 0.01)).toBeNull();
  });

  it('reads the mark on transparency without a plate', async () => {
    const image = await ingest(MARKS.coral);
    expect(image.lightness).toMatchObject({ plate: null });
    expect(image.lightness?.mark).toBeCloseTo(0.37, 1);
    expect(markLightness({ width: 1, height: 1, data: new Uint8Array([0, 0, 0, 0]) })).toBeNull();
  });
});
