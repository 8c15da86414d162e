import { describe, expect, it } from 'vitest';
import { cssPaletteEvidence } from '../../src/crawl/fields/palette-evidence/css-palette-evidence.js';
import { renderedPaletteEvidence } from '../../src/crawl/fields/palette-evidence/rendered-palette-evidence.js';
import { gradientFunctions } from '../../src/crawl/fields/palette-evidence/gradient-functions.js';
import type { RenderedSchemeSamples } from '../../src/domain/palette.js';
import { cssOf, htmlPageOf } from './html-page-of.js';

const page = htmlPageOf('<!doctype html><html><head><meta name="theme-color" content="#635bff"></head><body><a href="/">x</a></body></html>');

function evidenceOf(...css: string[]) {
  return cssPaletteEvidence({ page, css: cssOf(...css), manifest: null });
}

describe('palette evidence from the parsed CSS', () => {
  it('counts colour declarations per property class, through variables', () => {
    const e = evidenceOf(':root { --brand: #635bff; }', '.btn { background: var(--brand); color: #fff; border: 1px solid #635bff; } a { color: #635BFF; } svg { fill: #635bff }');
    expect(e.source).toBe('css');
    expect(e.css['#635bff']).toEqual({ background: 1, text: 1, border: 1, other: 1 });
    expect(e.tokens).toEqual([{ name: '--brand', hex: '#635bff' }]);
    expect(e.pairs).toEqual([{ element: 'button', theme: 'light', background: '#635bff', text: '#ffffff', count: 1 }]);
    expect(e.elements).toEqual([]);
    expect(e.signals.some((s) => s.source === 'platform' && s.hex === '#635bff')).toBe(true);
  });

  it('keeps gradients as written, marking hero ones', () => {
    const e = evidenceOf('.hero { background-image: linear-gradient(135deg, #635bff 0%, rgb(0 0 0) 100%), url(x.png); } .card { background: radial-gradient(circle, red, blue); }');
    expect(e.gradients).toEqual([
      { css: 'linear-gradient(135deg, #635bff 0%, rgb(0 0 0) 100%)', count: 1, prominent: true },
      { css: 'radial-gradient(circle, red, blue)', count: 1, prominent: false },
    ]);
  });

  it('reads the light canvas, and a dark one only when the dark scheme changes it in the cascade', () => {
    const light = 'html, body { background-color: #ffffff; color: #111827; }';
    expect(evidenceOf(light).themes).toEqual({ light: { background: '#ffffff', text: '#111827' } });
    expect(evidenceOf(light, '@media (prefers-color-scheme: dark) { body { background: #0b0b0f; color: #eeeeee; } }').themes.dark).toEqual({ background: '#0b0b0f', text: '#eeeeee' });
    // A later unconditional rule wins over the earlier dark one, as in the cascade: no dark scheme shows.
    expect(evidenceOf('@media (prefers-color-scheme: dark) { body { background: #0b0b0f; } }', light).themes.dark).toBeUndefined();
    // Variables the dark scheme redefines.
    const vars = ':root { --bg: #fff; --fg: #222; } body { background: var(--bg); color: var(--fg); } @media (prefers-color-scheme: dark) { :root { --bg: #121212; --fg: #f5f5f5; } }';
    expect(evidenceOf(vars).themes).toEqual({ light: { background: '#ffffff', text: '#222222' }, dark: { background: '#121212', text: '#f5f5f5' } });
    // A class toggle is not a colour scheme the visitor's preference selects.
    expect(evidenceOf(light, 'html.dark { background: #000; color: #fff; }').themes.dark).toBeUndefined();
    expect(evidenceOf('.btn { color: red; }').themes).toEqual({});
  });

  it('keeps bounded evidence from a hostile stylesheet: the 400 most used colours, plain short token names', () => {
    const rules = Array.from({ length: 1000 }, (_, i) => `.c${i} { color: #${(i * 7919).toString(16).padStart(6, '0').slice(-6)}; }`).join('\n');
    const e = evidenceOf(`${rules}\n.a { color: #635bff } .b { color: #635bff }`, `:root { --${'x'.repeat(200)}: #123456; --brand: #635bff; }`);
    expect(Object.keys(e.css)).toHaveLength(400);
    expect(e.css['#635bff']?.text).toBe(2);
    expect(e.tokens).toEqual([{ name: '--brand', hex: '#635bff' }]);
  });

  it('finds each gradient function with nested parentheses', () => {
    expect(gradientFunctions('linear-gradient(rgb(1, 2, 3), color-mix(in srgb, red 50%, blue)) , repeating-conic-gradient(from 90deg, red, blue)')).toEqual([
      'linear-gradient(rgb(1, 2, 3), color-mix(in srgb, red 50%, blue))',
      'repeating-conic-gradient(from 90deg, red, blue)',
    ]);
  });
});

describe('palette evidence from rendered samples', () => {
  const scheme = (canvas: [string, string], extra: Partial<RenderedSchemeSamples> = {}): RenderedSchemeSamples => ({
    samples: [
      { element: 'body', background: canvas[0], effectiveBackground: canvas[0], color: canvas[1], border: null, gradient: null, label: '' },
      { element: 'button', background: 'rgb(99, 91, 255)', effectiveBackground: 'rgb(99, 91, 255)', color: 'rgb(255, 255, 255)', border: null, gradient: null, label: '  Get   started now, it is free and it takes one minute  ' },
      { element: 'button', background: 'color(srgb 0.388235 0.356863 1)', effectiveBackground: 'rgb(99, 91, 255)', color: 'rgb(255, 255, 255)', border: null, gradient: 'linear-gradient(90deg, rgb(99, 91, 255), rgb(0, 0, 0))', label: 'Sign up' },
      { element: 'button', background: 'rgb(99, 91, 255)', effectiveBackground: 'rgb(99, 91, 255)', color: 'rgb(255, 255, 255)', border: 'rgba(0, 0, 0, 0)', gradient: null, label: 'Third' },
    ],
    gradients: [],
    vars: [['--brand', '#635bff'], ['--not a name', '#000'], ['--space', '4px']],
    canvas: { background: canvas[0], color: canvas[1] },
    ...extra,
  });
  const fromCss = evidenceOf('.x { color: red; }');

  it('counts element colours with at most two labels of at most 40 characters, and pairs as painted', () => {
    const e = renderedPaletteEvidence({ light: scheme(['rgb(255, 255, 255)', 'rgb(17, 24, 39)']), dark: null }, fromCss);
    expect(e.source).toBe('rendered');
    const button = e.elements.find((x) => x.element === 'button' && x.property === 'background');
    expect(button?.count).toBe(3);
    expect(button?.examples).toEqual(['Get started now, it is free and it takes', 'Sign up']);
    expect(e.pairs.find((p) => p.element === 'button')).toEqual({ element: 'button', theme: 'light', background: '#635bff', text: '#ffffff', count: 3 });
    expect(e.tokens).toEqual([{ name: '--brand', hex: '#635bff' }]);
    expect(e.gradients).toEqual([{ css: 'linear-gradient(90deg, rgb(99, 91, 255), rgb(0, 0, 0))', count: 1, prominent: true }]);
    expect(e.css).toBe(fromCss.css);
    expect(e.themes).toEqual({ light: { background: '#ffffff', text: '#111827' } });
  });

  it('keeps the dark rendering only when its canvas differs', () => {
    const same = renderedPaletteEvidence({ light: scheme(['rgb(255, 255, 255)', 'rgb(0, 0, 0)']), dark: scheme(['rgb(255, 255, 255)', 'rgb(0, 0, 0)']) }, fromCss);
    expect(same.themes.dark).toBeUndefined();
    expect(same.elements.every((x) => x.theme === 'light')).toBe(true);
    const dark = renderedPaletteEvidence({ light: scheme(['rgb(255, 255, 255)', 'rgb(0, 0, 0)']), dark: scheme(['rgb(18, 18, 18)', 'rgb(245, 245, 245)']) }, fromCss);
    expect(dark.themes.dark).toEqual({ background: '#121212', text: '#f5f5f5' });
    expect(dark.pairs.some((p) => p.theme === 'dark' && p.element === 'body' && p.background === '#121212')).toBe(true);
  });
});
