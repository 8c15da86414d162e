import { describe, expect, it } from 'vitest';
import { createCrawlBudget } from '../../src/crawl/crawl-budget.js';
import { parseCss, splitSelectors } from '../../src/crawl/page/parse-css.js';
import { collectStylesheets, findStylesheetUrls } from '../../src/crawl/fetch/stylesheets.js';
import type { Fetcher, FetchOptions, FetchResult } from '../../src/platform/fetcher.js';
import { htmlPageOf } from './html-page-of.js';

/** A fetcher answering from a table, recording what was asked. */
function tableFetcher(files: Record<string, string>) {
  const asked: { url: string; options: FetchOptions | undefined }[] = [];
  const fetcher: Fetcher = {
    async fetch(url, options) {
      asked.push({ url, options });
      const body = files[url];
      const result: FetchResult = { url, status: body === undefined ? 404 : 200, headers: { 'content-type': 'text/css' }, body: Buffer.from(body ?? 'nope'), redirects: [] };
      return result;
    },
  };
  return { fetcher, asked };
}

describe('parseCss', () => {
  it('keeps rules, media context, @font-face and @import, and survives broken CSS', () => {
    const css = parseCss(`@import url("a.css"); @import 'b.css' screen;
      .a { color: red; color: blue !important; color: green }
      @media (min-width: 600px) { .b { background: #fff } }
      .broken { color: ; } }}} .c { color: #000 }
      @font-face { font-family: X; src: url(x.woff2) }`, null);
    expect(css.imports).toEqual(['a.css', 'b.css']);
    expect(css.rules.map((r) => [r.selector, r.media])).toContainEqual(['.b', '(min-width: 600px)']);
    expect(css.fontFaces).toHaveLength(1);
    expect(css.rules.find((r) => r.selector === '.a')?.declarations.find((d) => d.important)?.value).toBe('blue');
  });

  it('splitSelectors honours brackets and strings', () => {
    expect(splitSelectors('h1, .a:is(.b, .c), [data-x="1,2"]')).toEqual(['h1', '.a:is(.b, .c)', '[data-x="1,2"]']);
  });

  it('splitSelectors without brackets or quotes keeps empty inner parts and drops an empty last one, as the scan does', () => {
    expect(splitSelectors(' h1 ,\n.a > b,,  ')).toEqual(['h1', '.a > b', '']);
    expect(splitSelectors(',a')).toEqual(['', 'a']);
    expect(splitSelectors('')).toEqual([]);
    // An unbalanced closing bracket leaves the scan below depth 0, where commas no longer split.
    expect(splitSelectors('a), b')).toEqual(['a), b']);
  });
});

describe('collectStylesheets', () => {
  it('fetches same-site and CDN sheets plus one level of @import, never font providers or third parties', async () => {
    const page = htmlPageOf(`<style>body { color: #111 }</style>
      <link rel="stylesheet" href="/css/site.css"><link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/x/y.css">
      <link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter"><link rel="stylesheet" href="https://widgets.other.test/w.css">`);
    expect(findStylesheetUrls(page)).toEqual(['https://www.acme.test/css/site.css', 'https://cdn.jsdelivr.net/npm/x/y.css']);
    const { fetcher, asked } = tableFetcher({
      'https://www.acme.test/css/site.css': '@import "parts/tokens.css"; .btn { background: red }',
      'https://www.acme.test/css/parts/tokens.css': '@import "deeper.css"; :root { --brand: #00f }',
      'https://cdn.jsdelivr.net/npm/x/y.css': '.x { color: red }',
    });
    const budget = createCrawlBudget(5000);
    const sheets = await collectStylesheets(page, fetcher, budget);
    budget.dispose();
    expect(asked.map((a) => a.url).sort()).toEqual([
      'https://cdn.jsdelivr.net/npm/x/y.css',
      'https://www.acme.test/css/parts/tokens.css',
      'https://www.acme.test/css/site.css',
    ]);
    expect(asked.every((a) => a.options?.maxBytes === 1024 * 1024)).toBe(true);
    expect(sheets.map((s) => s.url)).toEqual([
      'https://www.acme.test/css/parts/tokens.css',
      null,
      'https://www.acme.test/css/site.css',
      'https://cdn.jsdelivr.net/npm/x/y.css',
    ]);
  });
});
