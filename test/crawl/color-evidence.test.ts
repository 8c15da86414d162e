import { describe, expect, it } from 'vitest';
import { cssEvidence, gradientStops, platformHints } from '../../src/crawl/fields/colors/color-evidence.js';
import { extractColors } from '../../src/crawl/fields/colors/colors.js';
import { parseCssColor } from '../../src/domain/color-math.js';
import { cssOf, htmlPageOf } from './html-page-of.js';

const colorsOf = (head: string, css: string, logoColors: { hex: string; share: number }[] = []) =>
  extractColors({ page: htmlPageOf(head), css: cssOf(css), manifest: null, logoColors });

describe('CSS Color 4/5 parsing', () => {
  it.each([
    ['color(display-p3 1 0 0)', '#ff0000'],
    ['hwb(194 0% 0%)', '#00c3ff'],
    ['lab(52.2345% 40.1645 59.9971)', '#c65d06'],
    ['lch(52.2% 72.2 56.2)', '#c65d06'],
    ['#635bffcc', '#635bff'],
    ['rgb(99 91 255 / 80%)', '#635bff'],
    ['color-mix(in srgb, red 50%, blue)', '#800080'],
    ['color-mix(in oklab, #635bff 80%, white)', '#7c81ff'],
    ['light-dark(#635bff, #000000)', '#635bff'],
  ])('%s → %s', (value, hex) => {
    expect(parseCssColor(value)).toBe(hex);
  });

  it('a mostly transparent mix is not a colour', () => {
    expect(parseCssColor('color-mix(in srgb, #635bff, transparent 60%)')).toBeNull();
  });
});

describe('colour evidence', () => {
  it('a white theme-color describes browser chrome: a surface, never the accent', () => {
    const hints = platformHints(htmlPageOf('<meta name="theme-color" content="#ffffff"><link rel="mask-icon" href="/m.svg" color="#e50914">'), null);
    expect(hints).toContainEqual({ hex: '#ffffff', weight: 1, source: 'surface' });
    expect(hints).toContainEqual({ hex: '#e50914', weight: 4, source: 'platform' });
  });

  it('skips status, state, widget and dark-scheme rules', () => {
    const obs = cssEvidence(cssOf(`.alert-error, .badge-danger { background: #dc2626 }
      .btn-primary:hover { background: #1e40af } .chat-widget-launcher { background-color: #0084ff }
      .cookie-banner .btn { background: #16a34a } @media (prefers-color-scheme: dark) { .btn-primary { background: #a5b4fc } }`));
    expect(obs).toEqual([]);
  });

  it('weighs primary CTAs over generic buttons over secondary ones', () => {
    const obs = cssEvidence(cssOf('.btn-primary { background: #635bff } .button { background: #00a699 } .btn-secondary { background: #f59e0b }'));
    expect(obs.map((o) => [o.hex, o.weight])).toEqual([['#635bff', 3], ['#00a699', 2], ['#f59e0b', 0.5]]);
  });

  it('ignores framework tokens left at their defaults and keeps customised ones at low weight', () => {
    const obs = cssEvidence(cssOf(':root { --bs-primary: #0d6efd; --bs-secondary: #6c757d } html { --bs-link-color: #e50914 }'));
    expect(obs).toEqual([]);
    const custom = cssEvidence(cssOf(':root { --bs-primary: #e50914 }'));
    expect(custom).toEqual([{ hex: '#e50914', weight: 1, source: 'token', brandToken: true }]);
  });

  it('reads gradient stops, weighting hero and CTA gradients more', () => {
    expect(gradientStops('linear-gradient(135deg, #635bff 0%, rgb(0 0 0 / 0) 60%, oklch(0.7 0.15 200) 100%)')).toEqual(['#635bff', '#00b9c3']);
    const obs = cssEvidence(cssOf('.hero { background: linear-gradient(to right, #ff5a5f, #ffffff) } .card { background-image: radial-gradient(circle, #00a699, #fff) }'));
    expect(obs).toEqual([
      { hex: '#ff5a5f', weight: 1.5, source: 'gradient' },
      { hex: '#00a699', weight: 0.5, source: 'gradient' },
    ]);
  });

  it('link colours count, capped per stylesheet; neutral text colours do not', () => {
    const obs = cssEvidence(cssOf('a { color: #e50914 } .link { color: #e50914 } footer a { color: #e50914 } p { color: #333 }'));
    expect(obs.reduce((sum, o) => sum + o.weight, 0)).toBeLessThanOrEqual(2);
    expect(obs.every((o) => o.source === 'link')).toBe(true);
  });
});

describe('CMS and header evidence', () => {
  it('ignores WordPress palette utilities and the core palette left at its defaults', () => {
    const obs = cssEvidence(cssOf(`:root { --wp--preset--color--luminous-vivid-orange: #ff6900 }
      .has-luminous-vivid-orange-background-color { background-color: var(--wp--preset--color--luminous-vivid-orange) }
      .wp-block-button .has-vivid-red-background-color { background-color: #cf2e2e }`));
    expect(obs).toEqual([]);
  });

  it('a chromatic header background is brand evidence, a neutral one a surface', () => {
    expect(cssEvidence(cssOf('.site-header { background: #e50914 }'))).toEqual([{ hex: '#e50914', weight: 1.5, source: 'chrome' }]);
    expect(cssEvidence(cssOf('.site-header { background: #ffffff }'))).toEqual([{ hex: '#ffffff', weight: 1, source: 'surface' }]);
    expect(colorsOf('', 'header { background-color: #e50914 } body { background: #fff }')[0]).toMatchObject({ hex: '#e50914', type: 'accent' });
  });
});

describe('accent rules', () => {
  it('a monochrome brand stays monochrome despite a secondary button, blue links and a chat widget', () => {
    const colors = colorsOf('<meta name="theme-color" content="#000000">', `:root { --brand: #000000 }
      .btn-primary { background: #000 } .btn-secondary { background: #f59e0b } a { color: #2563eb } .chat-launcher { background: #0084ff }`);
    expect(colors.some((c) => c.type === 'accent')).toBe(false);
    expect(colors[0]).toMatchObject({ hex: '#000000', type: 'dark' });
  });

  it('a link-only colour is listed as brand but never becomes the accent', () => {
    const colors = colorsOf('', 'a { color: #e50914 } .link { color: #e50914 } body { background: #fff }');
    expect(colors.find((c) => c.hex === '#e50914')?.type).toBe('brand');
  });

  it('a recurring primary CTA colour or a hero gradient is enough for the accent', () => {
    expect(colorsOf('', '.btn-primary { background: #e50914 }')[0]).toMatchObject({ hex: '#e50914', type: 'accent' });
    expect(colorsOf('', '.hero { background: linear-gradient(90deg, #e50914, #111) }')[0]).toMatchObject({ hex: '#e50914', type: 'accent' });
  });

  it('logo pixels alone make the accent (inline SVG logo, neutral CSS)', () => {
    const colors = colorsOf('', '.btn-primary { background: #111827 } body { background: #fff }', [{ hex: '#00ccbc', share: 0.7 }]);
    expect(colors[0]).toMatchObject({ hex: '#00ccbc', type: 'accent' });
  });

  it('brightness is the spec formula on every colour', () => {
    for (const c of colorsOf('<meta name="theme-color" content="#ffe01b">', 'body { background: #0f172a }')) {
      const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(c.hex.slice(i, i + 2), 16)) as [number, number, number];
      expect(c.brightness).toBeCloseTo(0.2126 * r + 0.7152 * g + 0.0722 * b, 2);
    }
  });
});
