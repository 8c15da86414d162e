import { describe, expect, it } from 'vitest';
import { backgroundColor, clusterObservations, extractColors } from '../../src/crawl/fields/colors/colors.js';
import type { WebManifest } from '../../src/crawl/fetch/manifest.js';
import { brightness } from '../../src/domain/color-math.js';
import { cssOf, htmlPageOf } from './html-page-of.js';

const noManifest: WebManifest | null = null;

describe('extractColors', () => {
  it('makes the declared brand token + CTA background the accent, surfaces dark/light', () => {
    const page = htmlPageOf('<meta name="theme-color" content="rgb(99, 91, 255)">');
    const css = cssOf(`:root { --brand-primary: oklch(0.5784 0.2346 278.29); --color-error: #ff0000; }
      body { background: #fff } .site-footer { background-color: #0a2540 } .btn-primary { background: var(--brand-primary) }`);
    const colors = extractColors({ page, css, manifest: noManifest, logoColors: [] });
    expect(colors[0]).toEqual({ hex: '#635bff', type: 'accent', brightness: brightness('#635bff') });
    expect(colors).toContainEqual({ hex: '#0a2540', type: 'dark', brightness: brightness('#0a2540') });
    expect(colors).toContainEqual({ hex: '#ffffff', type: 'light', brightness: 255 });
    expect(colors.map((c) => c.hex)).not.toContain('#ff0000');
  });

  it('never invents an accent for a monochrome site', () => {
    const page = htmlPageOf('<meta name="theme-color" content="#000000">');
    const css = cssOf(`:root { --brand: #111111 } html { background: white } .btn { background: #000 }`);
    const colors = extractColors({ page, css, manifest: noManifest, logoColors: [{ hex: '#000000', share: 1 }] });
    expect(colors.some((c) => c.type === 'accent')).toBe(false);
    expect(colors.map((c) => [c.hex, c.type])).toEqual([['#000000', 'dark'], ['#111111', 'dark'], ['#ffffff', 'light']]);
  });

  it('merges near duplicates (ΔE_OK < 0.04) and caps the list at 6', () => {
    const page = htmlPageOf('<link rel="mask-icon" href="/m.svg" color="#ff5a5f"><meta name="msapplication-TileColor" content="#ff5b60">');
    const css = cssOf(`:root { --brand-1: #00a699; --brand-2: #fc642d; --brand-3: #484848; --brand-4: #767676; --accent-5: #007a87; --primary-6: #ffb400; --primary-7: #8ce071 }`);
    const colors = extractColors({ page, css, manifest: noManifest, logoColors: [] });
    expect(colors.filter((c) => c.hex === '#ff5a5f' || c.hex === '#ff5b60')).toHaveLength(1);
    expect(colors.length).toBeLessThanOrEqual(6);
    expect(colors[0]).toMatchObject({ hex: '#ff5a5f', type: 'accent' });
  });

  it('uses manifest colours and logo pixels as evidence', () => {
    const manifest: WebManifest = { name: null, shortName: null, description: null, themeColor: '#1ed760', backgroundColor: '#121212', icons: [] };
    const colors = extractColors({ page: htmlPageOf(''), css: [], manifest, logoColors: [{ hex: '#1ed760', share: 0.8 }] });
    expect(colors).toEqual([
      { hex: '#1ed760', type: 'accent', brightness: brightness('#1ed760') },
      { hex: '#121212', type: 'dark', brightness: brightness('#121212') },
    ]);
  });

  it('reads shadcn-style bare HSL tokens', () => {
    const css = cssOf(`:root { --primary: 262.1 83.3% 57.8%; }`);
    expect(extractColors({ page: htmlPageOf(''), css, manifest: noManifest, logoColors: [] })[0]).toMatchObject({ hex: '#7c3aed', type: 'accent' });
  });
});

describe('colour helpers', () => {
  it('backgroundColor takes the colour layer of a shorthand and skips gradients', () => {
    expect(backgroundColor('#fff url(x.png) no-repeat')).toBeNull();
    expect(backgroundColor('rgb(10 20 30) none')).toBe('#0a141e');
    expect(backgroundColor('linear-gradient(#fff, #000)')).toBeNull();
    expect(backgroundColor('transparent')).toBeNull();
  });

  it('clusterObservations sums weights of the same colour across sources', () => {
    const clusters = clusterObservations([
      { hex: '#635bff', weight: 3, source: 'platform' },
      { hex: '#645cff', weight: 2, source: 'cta' },
      { hex: '#00ff00', weight: 4, source: 'token' },
    ]);
    expect(clusters[0]).toMatchObject({ hex: '#635bff', weight: 5 });
    expect(clusters[0]?.sources).toEqual(new Set(['platform', 'cta']));
  });
});
