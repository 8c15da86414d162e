import { describe, expect, it } from 'vitest';
import { backdropTheme } from '../../src/crawl/fields/logos/logo-backdrop.js';
import { cssOf, htmlPageOf } from './html-page-of.js';

function themeOf(html: string, css = ''): 'dark' | 'light' | null {
  const page = htmlPageOf(html);
  const el = page.$('img').get(0);
  if (!el) throw new Error('no img');
  return backdropTheme(page, el, cssOf(css).flatMap((s) => s.rules));
}

describe('backdropTheme', () => {
  it('a dark header background (inline or rule, shorthand or longhand) means a light mark', () => {
    expect(themeOf('<header style="background-color:#101828"><a href="/"><img src="/l.svg"></a></header>')).toBe('light');
    expect(themeOf('<header class="top"><a href="/"><img src="/l.svg"></a></header>', '.top{background:#0b0b12 url(/bg.png) no-repeat}')).toBe('light');
  });

  it('a white header means a dark mark; a mid-tone one decides nothing', () => {
    expect(themeOf('<header class="top"><img src="/l.svg"></header>', '.top{background-color:white}')).toBe('dark');
    expect(themeOf('<header style="background:#888888"><img src="/l.svg"></header>')).toBeNull();
  });

  it('no declared background anywhere: unknown, not assumed white', () => {
    expect(themeOf('<header><img src="/l.svg"></header>')).toBeNull();
    expect(themeOf('<header class="top"><img src="/l.svg"></header>', '@media (min-width: 1px){.top{background:#000}}')).toBeNull();
  });
});
