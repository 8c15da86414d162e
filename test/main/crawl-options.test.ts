/** Every crawl bound of docs/security.md is a setting: the environment reaches the limits a crawl runs with. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { DEFAULT_CRAWL_LIMITS } from '../../src/crawl/crawl-limits.js';
import { parseHtmlPage } from '../../src/crawl/page/html-page.js';
import { crawlLimitsFor } from '../../src/main/crawl-options.js';

describe('crawl limits from configuration', () => {
  it('defaults to the documented bounds', () => {
    expect(crawlLimitsFor(loadConfig({}))).toEqual(DEFAULT_CRAWL_LIMITS);
  });

  it('takes every bound from its setting', () => {
    const limits = crawlLimitsFor(
      loadConfig({
        BRANDBASE_HTML_MAX_DEPTH: '64',
        BRANDBASE_HTML_MAX_ELEMENTS: '1000',
        BRANDBASE_HTML_MAX_ATTRIBUTES: '16',
        BRANDBASE_HTML_MAX_BYTES: '65536',
        BRANDBASE_HTML_MAX_DOWNLOAD_BYTES: '131072',
        BRANDBASE_IMAGE_MAX_BYTES: '262144',
        BRANDBASE_IMAGE_MAX_PIXELS: '1000000',
      }),
    );
    expect(limits.html).toEqual({ maxDepth: 64, maxElements: 1000, maxAttributes: 16, maxBytes: 65536, maxDownloadBytes: 131072 });
    expect(limits.images).toMatchObject({ maxBytes: 262144, maxPixels: 1_000_000 });
  });

  it('parses only the first BRANDBASE_HTML_MAX_BYTES of a page', () => {
    const html = `<html><head><title>Kept</title></head><body><p>${'a'.repeat(5000)}</p><p id="late">Dropped</p></body></html>`;
    const limits = { ...DEFAULT_CRAWL_LIMITS.html, maxBytes: 2048 };
    const page = parseHtmlPage(Buffer.from(html), 'https://acme.test/', 'text/html; charset=utf-8', limits);
    expect(page.$('title').text()).toBe('Kept');
    expect(page.$('#late').length).toBe(0);
    expect(parseHtmlPage(Buffer.from(html), 'https://acme.test/', 'text/html; charset=utf-8').$('#late').length).toBe(1);
  });
});
