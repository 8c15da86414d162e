import { describe, expect, it } from 'vitest';
import { detectNsfw } from '../../src/crawl/nsfw.js';
import { htmlPageOf } from './html-page-of.js';

describe('detectNsfw', () => {
  it.each([
    '<meta name="rating" content="adult">',
    '<meta name="RATING" content="Mature">',
    '<meta name="rating" content="RTA-5042-1996-1400-1577-RTA">',
    '<meta http-equiv="pics-label" content=\'(pics-1.1 "http://www.rtalabel.org" l r (n 0) gen true for "x" rating "RTA-5042-1996-1400-1577-RTA")\'>',
  ])('flags explicit self-labels: %s', (head) => {
    expect(detectNsfw(htmlPageOf(`<head>${head}</head>`))).toBe(true);
  });

  it('does not flag pages that merely mention adult education or breast cancer research', () => {
    const html = `<title>Adult education centre</title><meta name="description" content="Adult education and breast cancer research fundraising.">
      <p>Adult learners welcome. Our breast cancer research walk is on Sunday. Sex education for teenagers, with parents' consent.</p>
      <meta name="rating" content="general">`;
    expect(detectNsfw(htmlPageOf(html))).toBe(false);
  });
});
