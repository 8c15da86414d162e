/**
 * Issue 13: HTML a hostile site serves is parsed within bounds (bounded-html.ts), partially, never refused and
 * never crashing. Every input is generated here; the assertions are on structure (depth, elements, attributes),
 * never on time.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HTML_LIMITS, parseBoundedHtml } from '../../src/crawl/page/bounded-html.js';
import { elementIndex, type HtmlNode } from '../../src/crawl/page/element-index.js';
import { parseHtmlPage } from '../../src/crawl/page/html-page.js';
import { crawlBrand } from '../../src/crawl/crawl-brand.js';
import type { Fetcher } from '../../src/platform/fetcher.js';
import { tempAssets } from '../helpers/temp-assets.js';

const MAX_PARSED_HTML_BYTES = DEFAULT_HTML_LIMITS.maxBytes;

const HEAD = '<!doctype html><html><head><title>Acme Rockets</title><meta name="description" content="Acme builds rockets."></head>';
const page = (html: string) => parseHtmlPage(Buffer.from(html, 'utf8'), 'https://acme.test/', 'text/html; charset=utf-8');
/** `unit` repeated until the page is `bytes` long. */
const filled = (unit: string, bytes = MAX_PARSED_HTML_BYTES) => HEAD + '<body>' + unit.repeat(Math.ceil((bytes - HEAD.length) / unit.length));

/** Deepest element nesting in the tree (an explicit stack: no recursion on hostile trees). */
function treeDepth(root: { children: readonly HtmlNode[] }): number {
  let deepest = 0;
  const stack: [HtmlNode, number][] = root.children.map((child) => [child, 1]);
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item;
    deepest = Math.max(deepest, depth);
    if ('children' in node) for (const child of node.children) stack.push([child, depth + 1]);
  }
  return deepest;
}

describe('HTML bounds: depth', () => {
  it('parses a 25,000-level nest up to the depth bound and keeps the head', () => {
    const nest = HEAD + '<body><header><img src="/logo.png" alt="Acme"></header>' + '<div>'.repeat(25_000) + 'deep' + '</div>'.repeat(25_000);
    const parsed = page(nest);
    expect(parsed.truncatedBy).toBe('depth');
    expect(treeDepth(parsed.$._root)).toBeLessThanOrEqual(DEFAULT_HTML_LIMITS.maxDepth);
    expect(elementIndex(parsed.$).byTag('div').length).toBe(DEFAULT_HTML_LIMITS.maxDepth - 2);
    expect(parsed.$('title').text()).toBe('Acme Rockets');
    expect(parsed.$('header img').attr('src')).toBe('/logo.png');
  });

  it('stops 2 MB of unclosed tags of any kind at the same depth (tables, formatting elements, foreign content)', () => {
    for (const unit of ['<div>', '<table><tr><td>', '<span>', '<svg><g>', '<i><u>']) {
      const parsed = parseBoundedHtml(filled(unit));
      expect(parsed.truncatedBy, unit).toBe('depth');
      expect(treeDepth(parsed.document), unit).toBeLessThanOrEqual(DEFAULT_HTML_LIMITS.maxDepth);
    }
  });

  it('takes a configured depth', () => {
    const parsed = parseHtmlPage(Buffer.from(HEAD + '<body>' + '<section>'.repeat(100)), 'https://acme.test/', 'text/html', { ...DEFAULT_HTML_LIMITS, maxDepth: 20 });
    expect(parsed.truncatedBy).toBe('depth');
    expect(treeDepth(parsed.$._root)).toBe(20);
  });
});

describe('HTML bounds: elements and tags', () => {
  it('parses a flat 2 MB page of 160,000 elements up to the element bound', () => {
    const parsed = page(filled('<p>lorem</p>\n'));
    expect(parsed.truncatedBy).toBe('elements');
    expect(elementIndex(parsed.$).all.length).toBe(DEFAULT_HTML_LIMITS.maxElements);
    expect(parsed.$('meta[name=description]').attr('content')).toBe('Acme builds rockets.');
  });

  it('counts the elements the parser makes on its own: 1,000 re-opened formatting elements are not 500,000', () => {
    const html = '<body>' + Array.from({ length: 1000 }, (_, i) => `<div><b id=b${i}></div>`).join('');
    const unbounded = parseBoundedHtml(html.slice(0, 6 + 22 * 100), { ...DEFAULT_HTML_LIMITS, maxDepth: 10_000 });
    expect(unbounded.elements).toBeGreaterThan(100 * 99 / 2);
    const parsed = parseBoundedHtml(html);
    expect(parsed.truncatedBy).toBe('elements');
    expect(parsed.elements).toBe(DEFAULT_HTML_LIMITS.maxElements);
  });

  it('stops a flood of end tags, each of which walks the open elements, at twice the element bound in tags', () => {
    const flood = '<body>' + '<span>'.repeat(400) + '</x>'.repeat(300_000);
    const parsed = parseBoundedHtml(flood);
    expect(parsed.truncatedBy).toBe('tags');
    expect(parsed.elements).toBe(403);
  });
});

describe('HTML bounds: attributes', () => {
  const attributes = (n: number) => Array.from({ length: n }, (_, i) => `a${i}`).join(' ');

  it('keeps the first attributes of a tag with 200,000 and parses on', () => {
    const parsed = page(`${HEAD}<body><div id="hero" ${attributes(200_000)}>x</div><footer>© Acme</footer>`);
    expect(parsed.truncatedBy).toBeNull();
    expect(Object.keys(parsed.$('#hero').attr() ?? {})).toHaveLength(DEFAULT_HTML_LIMITS.maxAttributes);
    expect(parsed.$('footer').text()).toBe('© Acme');
  });

  it('bounds attributes wherever the tokenizer reads them: end tags, tags inside SVG <title>', () => {
    for (const html of [`<body></div ${attributes(50_000)}><p>after</p>`, `<body><svg><title><div ${attributes(50_000)}>`]) {
      const parsed = parseBoundedHtml(html);
      expect(parsed.droppedAttributes).toBe(50_000 - DEFAULT_HTML_LIMITS.maxAttributes);
    }
  });
});

describe('HTML bounds: real pages are not affected', () => {
  const sites = new URL('../fixtures/sites/', import.meta.url);
  const pages = readdirSync(sites, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.html'));

  it.each(pages)('%s parses whole, exactly as cheerio parses it', (file) => {
    const html = readFileSync(new URL(file, sites), 'utf8');
    const parsed = page(html);
    expect(parsed.truncatedBy).toBeNull();
    expect(parsed.$.html()).toBe(load(html).html());
  });
});

describe('HTML bounds: a crawl of a hostile home page', () => {
  it('gives the record of what comes before the bound', async () => {
    const html = HEAD + '<body>' + '<div>'.repeat(200_000);
    const fetcher: Fetcher = {
      async fetch(url) {
        const home = new URL(url).pathname === '/';
        return { url, status: home ? 200 : 404, headers: { 'content-type': 'text/html' }, body: Buffer.from(home ? html : ''), redirects: [] };
      },
    };
    const outcome = await crawlBrand('acme.test', { fetcher, assets: tempAssets() });
    expect(outcome).toMatchObject({ ok: true, draft: { name: 'Acme Rockets', description: 'Acme builds rockets.' } });
  });
});
