import { describe, expect, it } from 'vitest';
import { tempAssets } from '../helpers/temp-assets.js';
import { crawlBrand } from '../../src/crawl/crawl-brand.js';
import { FetchError, type Fetcher, type FetchResult } from '../../src/platform/fetcher.js';

const HOME = `<!doctype html><html><head><title>Acme | Rockets</title>
  <link rel="icon" href="/a.png"><link rel="apple-touch-icon" href="/b.png"><link rel="manifest" href="/m.json">
  <link rel="stylesheet" href="/1.css"><link rel="stylesheet" href="/2.css"><meta property="og:image" content="/og.png"></head>
  <body><header><a href="/"><img src="/logo.svg" alt="Acme"></a></header></body></html>`;

function homeResult(url: string): FetchResult {
  return { url, status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from(HOME), redirects: [] };
}

describe('crawlBrand budget and failures (stub fetcher)', () => {
  it('returns the draft within the budget when sub-resources hang, with at most 4 requests in flight', async () => {
    let active = 0;
    let peak = 0;
    const fetcher: Fetcher = {
      async fetch(url) {
        if (url === 'https://acme.test/') return homeResult(url);
        active += 1;
        peak = Math.max(peak, active);
        return new Promise<never>(() => undefined);
      },
    };
    // The sub-resources never answer and this fetcher has no deadline of its own: only the crawl's budget can end
    // the crawl, so that it ends at all is the check (no clock; without the budget it would hang to the timeout).
    const outcome = await crawlBrand('acme.test', { fetcher, assets: tempAssets() }, { timeoutMs: 400 });
    expect(outcome).toMatchObject({ ok: true, domain: 'acme.test', draft: { name: 'Acme', logos: [], images: [] } });
    expect(peak).toBeLessThanOrEqual(4);
  });

  it('falls back to http:// when https cannot connect', async () => {
    const asked: string[] = [];
    const fetcher: Fetcher = {
      async fetch(url) {
        asked.push(url);
        if (url.startsWith('https://acme.test/')) throw new FetchError('network', 'connection refused', url);
        if (url === 'http://acme.test/') return homeResult(url);
        return { url, status: 404, headers: {}, body: Buffer.alloc(0), redirects: [] };
      },
    };
    const outcome = await crawlBrand('acme.test', { fetcher, assets: tempAssets() });
    expect(outcome.ok).toBe(true);
    expect(asked.slice(0, 2)).toEqual(['https://acme.test/', 'http://acme.test/']);
  });

  it.each([
    ['blocked_address', 'blocked'],
    ['invalid_url', 'blocked'],
    ['dns_failure', 'dns_failure'],
    ['too_many_redirects', 'too_many_redirects'],
    ['robots_unreachable', 'unreachable'],
    ['network', 'unreachable'],
    ['timeout', 'timeout'],
    ['too_large', 'too_large'],
    ['robots_disallowed', 'robots_disallowed'],
  ] as const)('maps FetchError %s to %s', async (code, reason) => {
    const fetcher: Fetcher = {
      async fetch(url) {
        throw new FetchError(code, 'no', url);
      },
    };
    expect(await crawlBrand('acme.test', { fetcher, assets: tempAssets() })).toMatchObject({ ok: false, reason });
  });

  it('fails with http_error on non-2xx and not_html on other content', async () => {
    const answer = (status: number, type: string, body: string): Fetcher => ({
      async fetch(url) {
        const headers: Record<string, string> = type ? { 'content-type': type } : {};
        return { url, status, headers, body: Buffer.from(body), redirects: [] };
      },
    });
    const assets = tempAssets();
    expect(await crawlBrand('acme.test', { fetcher: answer(503, 'text/html', 'down'), assets })).toMatchObject({ ok: false, reason: 'http_error' });
    expect(await crawlBrand('acme.test', { fetcher: answer(200, 'application/pdf', '%PDF'), assets })).toMatchObject({ ok: false, reason: 'not_html' });
    expect(await crawlBrand('acme.test', { fetcher: answer(200, '', '{"json": true}'), assets })).toMatchObject({ ok: false, reason: 'not_html' });
    expect(await crawlBrand('acme.test', { fetcher: answer(200, '', '<!doctype html><title>Acme</title>'), assets })).toMatchObject({ ok: true });
  });
});
