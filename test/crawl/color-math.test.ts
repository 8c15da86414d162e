import { describe, expect, it } from 'vitest';
import { brightness, chroma, deltaE, isNeutral, parseCssColor } from '../../src/domain/color-math.js';

describe('color math', () => {
  it('parses CSS colour syntaxes to lower-case #rrggbb', () => {
    expect(parseCssColor('#635BFF')).toBe('#635bff');
    expect(parseCssColor('#fff')).toBe('#ffffff');
    expect(parseCssColor('rgb(99 91 255)')).toBe('#635bff');
    expect(parseCssColor('rgba(99, 91, 255, 0.9)')).toBe('#635bff');
    expect(parseCssColor('hsl(240 100% 50%)')).toBe('#0000ff');
    expect(parseCssColor('oklch(0.6 0.2 270)')).toBe('#5471f5');
    expect(parseCssColor('rebeccapurple')).toBe('#663399');
  });

  it('refuses keywords without a fixed value and see-through colours', () => {
    for (const value of ['currentColor', 'inherit', 'var(--brand)', 'transparent', 'rgba(0,0,0,.1)', 'nonsense', '']) {
      expect(parseCssColor(value)).toBeNull();
    }
  });

  it('brightness is 0.2126 R + 0.7152 G + 0.0722 B on 8-bit values', () => {
    expect(brightness('#ffffff')).toBe(255);
    expect(brightness('#000000')).toBe(0);
    expect(brightness('#635bff')).toBeCloseTo(0.2126 * 99 + 0.7152 * 91 + 0.0722 * 255, 2);
    expect(brightness('#ff0000')).toBeCloseTo(54.21, 2);
  });

  it('OKLab distance and chroma', () => {
    expect(deltaE('#635bff', '#635bff')).toBe(0);
    expect(deltaE('#635bff', '#645cff')).toBeLessThan(0.04);
    expect(deltaE('#000000', '#ffffff')).toBeCloseTo(1, 2);
    expect(isNeutral('#777777')).toBe(true);
    expect(chroma('#ff0000')).toBeGreaterThan(0.2);
  });
});
