import { describe, expect, it } from 'vitest';
import { svgMarkTag } from '../../src/crawl/fields/logos/logo-tags.js';

const svg = (inner: string, viewBox = '0 0 200 40') => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}">${inner}</svg>`;

describe('svgMarkTag', () => {
  it('text only, 4+ letters → wordmark; 1–3 letters → lettermark only when they are the initials of the name', () => {
    expect(svgMarkTag(svg('<text x="0" y="30">Northwind</text>'), 'logo')).toBe('wordmark');
    expect(svgMarkTag(svg('<text x="0" y="30">IBM</text>'), 'symbol', 'International Business Machines')).toBe('lettermark');
    expect(svgMarkTag(svg('<text x="0" y="30">Ory</text>'), 'logo', 'Ory')).toBe('wordmark');
    expect(svgMarkTag(svg('<text x="0" y="30">IBM</text>'), 'symbol')).toBeNull();
    expect(svgMarkTag(svg('<text x="0" y="30">XQ</text>'), 'symbol', 'Acme Tools')).toBeNull();
  });

  it('finds text wherever the element starts (attributes, self-closing, line breaks), and only real elements', () => {
    expect(svgMarkTag(svg('<text\n  x="0">Northwind</text>'), 'logo')).toBe('wordmark');
    expect(svgMarkTag(svg('<g><text>North<tspan>wind</tspan></text></g>'), 'logo')).toBe('wordmark');
    expect(svgMarkTag(svg('<text/><path d="M0 0h20v20z"/>'), 'logo')).toBeNull();
    expect(svgMarkTag(svg('<!-- <text>Northwind</text> --><path d="M0 0h20v20z"/>'), 'logo')).toBeNull();
    expect(svgMarkTag(svg('<textPath>Northwind</textPath>'), 'logo')).toBeNull();
    expect(svgMarkTag(svg('<path d="M0 0h20v20z"/>'), 'logo')).toBeNull();
  });

  it('text plus a shape → combination; a full-canvas background plate is not a shape', () => {
    expect(svgMarkTag(svg('<path d="M0 0h20v20z"/><text x="30" y="30">Acme</text>'), 'logo')).toBe('combination');
    expect(svgMarkTag(svg('<rect width="200" height="40" fill="#000"/><text x="0" y="30">Acme</text>'), 'logo')).toBe('wordmark');
    expect(svgMarkTag(svg('<rect width="100%" height="100%"/><text>Acme</text>'), 'logo')).toBe('wordmark');
  });

  it('outlined paths only (no text) stay untagged: a symbol cannot be told from outlined letters', () => {
    expect(svgMarkTag(svg('<path d="M0 0h20v20z"/>'), 'logo')).toBeNull();
  });

  it('only on images that are mainly a logo (logo/symbol entries), never on icons', () => {
    expect(svgMarkTag(svg('<text>Acme</text>'), 'icon')).toBeNull();
    expect(svgMarkTag(svg('<text>Acme</text>'), 'other')).toBeNull();
  });

  it('a single letter next to a shape is not confidently a combination', () => {
    expect(svgMarkTag(svg('<circle r="10"/><text>A</text>'), 'symbol')).toBeNull();
  });
});
