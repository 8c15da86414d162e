import { describe, expect, it } from 'vitest';
import type { Color } from '../../src/domain/brand.js';
import { emptyCssCounts, PALETTE_EVIDENCE_VERSION, type PaletteEvidence, type PaletteLogo } from '../../src/domain/palette.js';
import { contrastRatio, legibleText, relativeLuminance, wcagLevel } from '../../src/domain/wcag.js';
import { buildPalette } from '../../src/palette/build-palette.js';
import { colorName } from '../../src/palette/color-names.js';
import { parseGradient } from '../../src/palette/gradient-parse.js';

function evidence(overrides: Partial<PaletteEvidence> = {}): PaletteEvidence {
  return { version: PALETTE_EVIDENCE_VERSION, source: 'css', css: {}, elements: [], tokens: [], gradients: [], pairs: [], themes: {}, signals: [], ...overrides };
}

const accent = (hex: string): Color => ({ hex, type: 'accent', brightness: 0 });

describe('WCAG contrast', () => {
  it('follows the WCAG 2.x definition', () => {
    expect(relativeLuminance('#ffffff')).toBe(1);
    expect(relativeLuminance('#000000')).toBe(0);
    expect(contrastRatio('#ffffff', '#000000')).toBe(21);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.4784, 3);
    expect(wcagLevel(7)).toBe('AAA');
    expect(wcagLevel(4.5)).toBe('AA');
    expect(wcagLevel(4.49)).toBe('AA-large');
    expect(wcagLevel(2.99)).toBe('fail');
    expect(legibleText('#635bff')).toBe('#ffffff');
    expect(legibleText('#ffe01b')).toBe('#000000');
  });
});

describe('gradient reading', () => {
  it('reads type, angle and stops', () => {
    expect(parseGradient('linear-gradient(135deg, #635bff 0%, rgb(17 24 39) 100%)')).toEqual({ type: 'linear', angle: 135, stops: [{ hex: '#635bff', position: 0 }, { hex: '#111827', position: 1 }] });
    expect(parseGradient('linear-gradient(to right, red, blue 40%)')).toEqual({ type: 'linear', angle: 90, stops: [{ hex: '#ff0000', position: null }, { hex: '#0000ff', position: 0.4 }] });
    expect(parseGradient('linear-gradient(red, transparent)')).toEqual({ type: 'linear', angle: 180, stops: [{ hex: '#ff0000', position: null }] });
    expect(parseGradient('repeating-radial-gradient(circle at center, #fff 0, #000 10px)')).toEqual({ type: 'radial', angle: null, stops: [{ hex: '#ffffff', position: null }, { hex: '#000000', position: null }] });
    expect(parseGradient('conic-gradient(from 0.25turn, red, blue)')?.angle).toBe(90);
    expect(parseGradient('url(x.png)')).toBeNull();
  });
});

describe('colour names', () => {
  it('names a HEX from the package list, the same every time', () => {
    expect(colorName('#000000')).toBe(colorName('#000000'));
    expect(typeof colorName('#635bff')).toBe('string');
    expect(colorName('#ffffff')).toMatch(/white/i);
    expect(colorName('not a colour')).toBeNull();
  });
});

describe('buildPalette', () => {
  it('gives primary to the brand accent the evidence backs, and to nothing on a monochrome brand', () => {
    const e = evidence({ css: { '#635bff': { ...emptyCssCounts(), background: 3 }, '#111111': { ...emptyCssCounts(), text: 5 } }, signals: [{ hex: '#635bff', weight: 4, source: 'token' }] });
    const withAccent = buildPalette({ brand: { colors: [accent('#635bff')] }, evidence: e, logos: [] });
    expect(withAccent.colors[0]).toMatchObject({ hex: '#635bff', role: 'primary', rank: 1, context: 'both' });
    const mono = buildPalette({ brand: { colors: [{ hex: '#111111', type: 'dark', brightness: 17 }] }, evidence: e, logos: [] });
    expect(mono.colors.some((c) => c.role === 'primary')).toBe(false);
    // A neutral accent (a record from another rule) is not defended as the brand colour either.
    expect(buildPalette({ brand: { colors: [accent('#111111')] }, evidence: e, logos: [] }).colors.some((c) => c.role === 'primary')).toBe(false);
  });

  it('names no primary when the accent is seen only in a gradient or links', () => {
    const e = evidence({ signals: [{ hex: '#2c4987', weight: 1.5, source: 'gradient' }, { hex: '#2c4987', weight: 1, source: 'link' }] });
    expect(buildPalette({ brand: { colors: [accent('#2c4987')] }, evidence: e, logos: [] }).colors.some((c) => c.role === 'primary')).toBe(false);
    const logos: PaletteLogo[] = [{ asset: 'logo', type: 'logo', theme: null, format: 'svg', primary: true, colors: [{ hex: '#2c4987', coverage: 0.4 }] }];
    expect(buildPalette({ brand: { colors: [accent('#2c4987')] }, evidence: e, logos }).colors[0]).toMatchObject({ hex: '#2c4987', role: 'primary' });
  });

  it('is empty without evidence, and never changes the brand colours it reads', () => {
    const colors: Color[] = [accent('#635bff')];
    const frozen = JSON.stringify(colors);
    const p = buildPalette({ brand: { colors }, evidence: evidence(), logos: [] });
    expect(JSON.stringify(colors)).toBe(frozen);
    expect(p.onPairs).toEqual([]);
    expect(p.gradients).toEqual([]);
    expect(p.themes).toEqual({});
  });

  it('merges near-duplicates into variants (at most 8) and lists at most 5 tokens, brand-named first', () => {
    const near = ['#635bff', '#645bff', '#635cff', '#625bff', '#635bfe', '#645cff', '#625aff', '#635afe', '#645bfe', '#625bfe'];
    const css = Object.fromEntries(near.map((hex, i) => [hex, { ...emptyCssCounts(), background: 20 - i }]));
    const tokens = ['--a', '--b', '--c', '--d', '--e', '--brand-main'].map((name) => ({ name, hex: '#635bff' }));
    const p = buildPalette({ brand: { colors: [accent('#635bff')] }, evidence: evidence({ css, tokens }), logos: [] });
    expect(p.colors).toHaveLength(1);
    expect(p.colors[0]?.variants).toHaveLength(8);
    expect(p.colors[0]?.tokens).toEqual(['--brand-main', '--a', '--b', '--c', '--d']);
    expect(p.colors[0]?.usage.css.background).toBe(near.reduce((sum, _, i) => sum + 20 - i, 0));
  });

  it('keeps at most 4 gradients that use a brand colour, and lists their stops', () => {
    const gradients = [
      ...[0, 1, 2, 3, 4].map((i) => ({ css: `linear-gradient(${i * 10}deg, #635bff, #000000)`, count: 1, prominent: i === 4 })),
      { css: 'linear-gradient(#ffffff, #eeeeee)', count: 9, prominent: true },
    ];
    const p = buildPalette({ brand: { colors: [accent('#635bff')] }, evidence: evidence({ gradients, signals: [{ hex: '#635bff', weight: 3, source: 'token' }] }), logos: [] });
    expect(p.gradients).toHaveLength(4);
    expect(p.gradients[0]).toMatchObject({ rank: 1, angle: 40, css: 'linear-gradient(40deg, #635bff, #000000)' });
    const black = p.colors.find((c) => c.hex === '#000000');
    expect(black).toMatchObject({ rank: null, member: true, prevalence: null });
  });

  it('builds on-pairs, themes and onColor from rendered evidence', () => {
    const e = evidence({
      source: 'rendered',
      elements: [
        { theme: 'light', element: 'body', property: 'background', hex: '#ffffff', count: 1, examples: [] },
        { theme: 'light', element: 'button', property: 'background', hex: '#635bff', count: 4, examples: ['Sign up', 'Buy'] },
        { theme: 'light', element: 'button', property: 'text', hex: '#ffffff', count: 4, examples: ['Sign up'] },
      ],
      pairs: [
        { element: 'button', theme: 'light', background: '#635bff', text: '#ffffff', count: 4 },
        { element: 'body', theme: 'dark', background: '#121212', text: '#f5f5f5', count: 1 },
      ],
      themes: { light: { background: '#ffffff', text: '#111111' }, dark: { background: '#121212', text: '#f5f5f5' } },
    });
    const p = buildPalette({ brand: { colors: [accent('#635bff')] }, evidence: e, logos: [] });
    expect(p.onPairs[0]).toEqual({ element: 'button', theme: 'light', background: '#635bff', text: '#ffffff', contrast: Math.round(contrastRatio('#635bff', '#ffffff') * 100) / 100, wcag: 'AA', count: 4 });
    expect(p.colors.find((c) => c.hex === '#635bff')).toMatchObject({ onColor: '#ffffff', usage: { elements: [{ element: 'button', property: 'background', count: 4, examples: ['Sign up', 'Buy'] }] } });
    expect(p.themes.light).toMatchObject({ background: '#ffffff', text: '#111111', accent: '#635bff' });
    expect(p.themes.dark).toMatchObject({ background: '#121212', text: '#f5f5f5' });
    const listed = new Set(p.colors.map((c) => c.hex));
    for (const hex of ['#121212', '#f5f5f5', '#111111']) expect(listed.has(hex)).toBe(true);
  });

  it('lists logo colours with their coverage, each also a palette colour', () => {
    const logos: PaletteLogo[] = [{ asset: 'logo', type: 'logo', theme: 'light', format: 'svg', primary: true, colors: [{ hex: '#635bff', coverage: 0.7 }, { hex: '#0a2540', coverage: 0.3 }] }];
    const p = buildPalette({ brand: { colors: [accent('#635bff')] }, evidence: evidence(), logos });
    expect(p.logos[0]?.colors).toEqual([{ hex: '#635bff', coverage: 0.7 }, { hex: '#0a2540', coverage: 0.3 }]);
    expect(p.colors.find((c) => c.hex === '#0a2540')).toMatchObject({ context: 'identity' });
    expect(p.colors[0]).toMatchObject({ hex: '#635bff', role: 'primary' });
  });
});
