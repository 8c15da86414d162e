/**
 * The documentation served by the service (routes/docs-route.ts): docs/*.md rendered with markdown-it, GitHub
 * heading ids, links between pages rewritten to the served URLs, links to repository files shown as their path.
 * Whether every link leads somewhere is links.test.ts; this is how pages are rendered and served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDocMarkdown } from '../../src/http/docs/doc-markdown.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';

const PAGES = new Set(['errors.md', 'billing.md', 'security.md', 'adr/0011-asset-keys-in-records.md']);
const render = (source: string, file = 'errors.md', basePath = '') => renderDocMarkdown(source, { file, pages: PAGES, basePath }).html;

describe('rendering a docs page', () => {
  it('gives headings GitHub ids, duplicates numbered, and takes the first h1 as the title', () => {
    const page = renderDocMarkdown('# Error codes\n\n## Hostile clients\n\n## `x-bf-error` values\n\n## Hostile clients\n', { file: 'errors.md', pages: PAGES, basePath: '' });
    expect(page.title).toBe('Error codes');
    expect(page.html).toContain('<h2 id="hostile-clients">');
    expect(page.html).toContain('<h2 id="x-bf-error-values">');
    expect(page.html).toContain('<h2 id="hostile-clients-1">');
  });

  it('rewrites links between pages to the served URLs, from any folder and behind a path prefix', () => {
    expect(render('[pay](billing.md#payments)')).toContain('<a href="/docs/billing#payments">pay</a>');
    expect(render('[errors](../errors.md#crawl-failures)', 'adr/0011-asset-keys-in-records.md')).toContain('<a href="/docs/errors#crawl-failures">');
    expect(render('[ADR 0011](adr/0011-asset-keys-in-records.md)')).toContain('<a href="/docs/adr/0011-asset-keys-in-records">');
    expect(render('[decisions](adr/)')).toContain('<a href="/docs/adr">');
    expect(render('[errors](docs/errors.md)', 'billing.md')).toContain('<a href="/docs/errors">');
    expect(render('[here](#hostile-clients)')).toContain('<a href="#hostile-clients">');
    expect(render('[offer](/v2/agents/access)', 'billing.md', '/brandbase')).toContain('<a href="/brandbase/v2/agents/access">');
    expect(render('[pay](billing.md#payments)', 'errors.md', '/brandbase')).toContain('<a href="/brandbase/docs/billing#payments">');
  });

  it('shows a link to a file the service does not serve as its repository path, not as a link', () => {
    const html = render('See [the fetcher](../src/platform/safe-fetcher.ts) and [`src/http/app.ts`](../src/http/app.ts).');
    expect(html).not.toContain('<a');
    expect(html).toContain('the fetcher (<code>src/platform/safe-fetcher.ts</code>)');
    expect(html).toContain('<code>src/http/app.ts</code>.');
    expect(html.match(/src\/http\/app\.ts/g)).toHaveLength(1);
    expect(render('[the map](../../shared/ARCHITECTURE.md)')).toContain('the map (<code>shared/ARCHITECTURE.md</code>)');
    expect(render('[gone](no-such-page.md)')).toContain('gone (<code>docs/no-such-page.md</code>)');
  });

  it('keeps raw HTML off and refuses script URLs', () => {
    const html = render('<script>alert(1)</script>\n\n[x](javascript:alert(1))\n\n<img src=x onerror=alert(1)>');
    expect(html).not.toMatch(/<script|<img|href="javascript/);
    expect(html).toContain('&lt;script&gt;');
  });
});

describe('serving the docs', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.close());

  it('serves each page as HTML with its anchors, a CSP that allows no script, and HEAD', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/docs/errors' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('<h2 id="crawl-failures">');
    expect(res.body).toContain('<title>Error codes · Brandbase</title>');
    const head = await stack.app.inject({ method: 'HEAD', url: '/docs/errors' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('the index links every page and the API reference; ADRs have their own list', async () => {
    const index = (await stack.app.inject({ method: 'GET', url: '/docs' })).body;
    for (const page of ['errors', 'billing', 'identifiers', 'configuration', 'security', 'spec-decisions', 'extraction', 'performance', 'architecture']) {
      expect(index).toContain(`href="/docs/${page}"`);
    }
    expect(index).toContain('href="/docs/api"');
    expect(index).toContain('href="/docs/adr"');
    const adrs = (await stack.app.inject({ method: 'GET', url: '/docs/adr' })).body;
    expect(adrs).toContain('href="/docs/adr/0011-asset-keys-in-records"');
    expect((await stack.app.inject({ method: 'GET', url: '/docs/adr/0011-asset-keys-in-records' })).statusCode).toBe(200);
  });

  it('an unknown page, or a path that tries to leave docs/, is the registry 404', async () => {
    for (const url of ['/docs/nope', '/docs/..%2Fpackage.json', '/docs/adr/..%2F..%2Fpackage.json', '/docs/errors.md']) {
      const res = await stack.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: 'Not Found' });
    }
  });
});
