/**
 * Issue 13: CSS a site serves is parsed within bytes, rules and time per crawl (parse-css.ts), in pieces cut at
 * top-level rule boundaries. Inputs are generated; time is a clock the test drives, never the wall clock.
 */
import { describe, expect, it } from 'vitest';
import { createCrawlBudget } from '../../src/crawl/crawl-budget.js';
import { DEFAULT_CRAWL_LIMITS } from '../../src/crawl/crawl-limits.js';
import { collectStylesheets } from '../../src/crawl/fetch/stylesheets.js';
import { CssAllowance, DEFAULT_CSS_LIMITS, parseCss, parseCssInTurns, type CssLimits } from '../../src/crawl/page/parse-css.js';
import type { Fetcher } from '../../src/platform/fetcher.js';
import { htmlPageOf } from './html-page-of.js';

const UNBOUNDED: CssLimits = { maxSheetBytes: 1e9, maxTotalBytes: 1e9, maxRules: 1e9, parseTimeMs: 1e9 };
/** `count` rules whose text holds what a naive cut would trip on: braces in strings, comments and url(). */
function sheet(count: number, prefix = 'r'): string {
  const rules: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 50 === 0) rules.push(`@media (min-width: ${i}px) { .${prefix}${i} { color: #123456 } }`);
    else if (i % 7 === 0) rules.push(`.${prefix}${i}::after { content: "}{ ;" } /* } { */`);
    else if (i % 11 === 0) rules.push(`.${prefix}${i} { background: url(a}b${i}.png) }`);
    else rules.push(`.${prefix}${i} > a:hover { color: #${(i % 4096).toString(16).padStart(3, '0')}; margin: 0 auto }`);
  }
  return rules.join('\n');
}

describe('CSS bounds: pieces', () => {
  it('cuts a large sheet only where the parser is at the top level: every rule comes out whole, in order', async () => {
    const css = sheet(12_000);
    expect(css.length).toBeGreaterThan(500_000);
    const parsed = await parseCssInTurns(css, null, new CssAllowance(UNBOUNDED));
    expect(parsed.rules).toHaveLength(12_000);
    expect(parsed.rules.map((r) => r.selector.split(/[ :>]/)[0])).toEqual(Array.from({ length: 12_000 }, (_, i) => `.r${i}`));
    expect(parsed.rules[50]).toMatchObject({ media: '(min-width: 50px)', declarations: [{ property: 'color', value: '#123456' }] });
    expect(parsed.rules[7]?.declarations[0]?.value).toBe('"}{ ;"');
    expect(parsed.rules[11]?.declarations[0]?.value).toBe('url(a}b11.png)');
  });

  it('survives 1 MB of nested at-rules and of unclosed brackets (a partial result or none, never a throw)', () => {
    for (const css of ['@media screen {'.repeat(60_000), '.a { color: rgb('.repeat(60_000), '{'.repeat(1_000_000)]) {
      expect(() => parseCss(css, null)).not.toThrow();
    }
  });
});

describe('CSS bounds: per crawl', () => {
  it('keeps at most the rule bound, across sheets', () => {
    const allowance = new CssAllowance({ ...UNBOUNDED, maxRules: 1500 });
    const first = parseCss(sheet(1000, 'a'), null, allowance);
    const second = parseCss(sheet(1000, 'b'), null, allowance);
    const third = parseCss(sheet(10, 'c'), null, allowance);
    expect([first.rules.length, second.rules.length, third.rules.length]).toEqual([1000, 500, 0]);
    expect(allowance.exhaustedBy).toBe('rules');
  });

  it('parses at most the byte bound, in whole pieces, and nothing after it', () => {
    const allowance = new CssAllowance({ ...UNBOUNDED, maxTotalBytes: 300_000 });
    const big = sheet(8000);
    const first = parseCss(big, null, allowance);
    expect(first.rules.length).toBeGreaterThan(0);
    expect(first.rules.length).toBeLessThan(8000);
    expect(allowance.exhaustedBy).toBe('bytes');
    expect(parseCss('.late { color: red }', null, allowance).rules).toEqual([]);
  });

  it('cuts one sheet at its own byte bound', () => {
    const parsed = parseCss(sheet(8000), null, new CssAllowance({ ...UNBOUNDED, maxSheetBytes: 200_000 }));
    expect(parsed.rules.length).toBeGreaterThan(1000);
    expect(parsed.rules.length).toBeLessThan(8000);
  });

  it('stops parsing when the crawl has spent its CSS time (a clock the test drives: 4 ms a piece)', () => {
    let now = 0;
    const allowance = new CssAllowance({ ...UNBOUNDED, parseTimeMs: 20 }, () => (now += 4));
    const parsed = parseCss(sheet(8000), null, allowance);
    expect(allowance.exhaustedBy).toBe('time');
    // The clock is read before and after each piece: five pieces are parsed (4 to 20 ms spent), the sixth is not.
    expect([allowance.spentMs, now]).toEqual([20, 40]);
    expect(parsed.rules.length).toBeGreaterThan(0);
    expect(parsed.rules.length).toBeLessThan(8000);
  });

  it('counts parse time only: a crawl whose sheets download slowly still parses them', async () => {
    let now = 0;
    const allowance = new CssAllowance({ ...UNBOUNDED, parseTimeMs: 20 }, () => now);
    parseCss('.a { color: red }', null, allowance);
    now += 60_000; // a long download
    expect(parseCss('.b { color: blue }', null, allowance).rules).toHaveLength(1);
    expect(allowance.exhaustedBy).toBeNull();
  });

  it('collectStylesheets spends one allowance in document order: inline, linked, then imports', async () => {
    const files: Record<string, string> = {
      'https://www.acme.test/a.css': `@import "c.css"; ${sheet(300, 'a')}`,
      'https://www.acme.test/b.css': sheet(300, 'b'),
      'https://www.acme.test/c.css': sheet(300, 'c'),
    };
    const fetcher: Fetcher = {
      async fetch(url) {
        // The later sheet answers first: the order of parsing is the page's, not the network's.
        if (url.endsWith('a.css')) await new Promise((resolve) => setTimeout(resolve, 20));
        return { url, status: 200, headers: { 'content-type': 'text/css' }, body: Buffer.from(files[url] ?? ''), redirects: [] };
      },
    };
    const page = htmlPageOf(`<style>${sheet(300, 'i')}</style><link rel="stylesheet" href="/a.css"><link rel="stylesheet" href="/b.css">`);
    const budget = createCrawlBudget(5000, 4, Date.now, { ...DEFAULT_CRAWL_LIMITS, css: { ...DEFAULT_CSS_LIMITS, maxRules: 750 } });
    const sheets = await collectStylesheets(page, fetcher, budget);
    budget.dispose();
    expect(sheets.map((s) => [s.url, s.rules.length])).toEqual([
      ['https://www.acme.test/c.css', 0],
      [null, 300],
      ['https://www.acme.test/a.css', 300],
      ['https://www.acme.test/b.css', 150],
    ]);
  });

  it('downloads a linked sheet only up to the sheet bound', async () => {
    const asked: (number | undefined)[] = [];
    const fetcher: Fetcher = {
      async fetch(url, options) {
        asked.push(options?.maxBytes);
        return { url, status: 200, headers: { 'content-type': 'text/css' }, body: Buffer.from('.x { color: red }'), redirects: [] };
      },
    };
    const budget = createCrawlBudget(5000, 4, Date.now, { ...DEFAULT_CRAWL_LIMITS, css: { ...DEFAULT_CSS_LIMITS, maxSheetBytes: 4096 } });
    await collectStylesheets(htmlPageOf('<link rel="stylesheet" href="/a.css">'), fetcher, budget);
    budget.dispose();
    expect(asked).toEqual([4096]);
  });
});
