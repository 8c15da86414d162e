import { describe, expect, it } from 'vitest';
import { createCrawlBudget } from '../../../src/crawl/crawl-budget.js';
import { renderIfNeeded, renderReason } from '../../../src/crawl/fetch/render/render-if-needed.js';
import type { PageRenderer } from '../../../src/crawl/fetch/render/page-renderer.js';
import { htmlPageOf } from '../html-page-of.js';

const richPage = `<header><a href="/"><img src="/logo.svg" alt="Acme"></a></header><main>${'<p>Acme makes tools for teams that build things every day.</p>'.repeat(10)}</main>`;

describe('renderReason', () => {
  it('an empty hydration root needs rendering', () => {
    expect(renderReason(htmlPageOf('<div id="__next"></div><script src="/app.js"></script>'))).toBe('empty-hydration-root');
    expect(renderReason(htmlPageOf('<div id="root">  </div>'))).toBe('empty-hydration-root');
  });

  it('thin text with scripts, or a noscript notice, needs rendering', () => {
    expect(renderReason(htmlPageOf('<p>Loading…</p><script src="/bundle.js"></script>'))).toBe('thin-text');
    expect(renderReason(htmlPageOf('<noscript>Please enable JavaScript to use this site.</noscript><p>Hi</p>'))).toBe('noscript-notice');
  });

  it('a text-rich page without any logo candidate needs rendering; a normal page does not', () => {
    expect(renderReason(htmlPageOf(`<main>${'<p>Plenty of words about the company and its products here.</p>'.repeat(12)}</main>`))).toBe('no-logo-candidate');
    expect(renderReason(htmlPageOf(richPage))).toBeNull();
  });
});

describe('renderIfNeeded', () => {
  const fake = (html: string | null): PageRenderer & { calls: number } => {
    const r = { calls: 0, render: async () => { r.calls += 1; return html === null ? null : { html, url: 'https://www.acme.test/' }; } };
    return r;
  };

  it('uses the rendered DOM when the static page is a shell', async () => {
    const renderer = fake(richPage);
    const page = await renderIfNeeded(htmlPageOf('<div id="root"></div>'), renderer, createCrawlBudget(20_000));
    expect(renderer.calls).toBe(1);
    expect(page.$('img').attr('src')).toBe('/logo.svg');
  });

  it('keeps the static page when rendering is not needed, not available, or fails', async () => {
    const renderer = fake(richPage);
    const rich = htmlPageOf(richPage);
    expect(await renderIfNeeded(rich, renderer, createCrawlBudget(20_000))).toBe(rich);
    expect(renderer.calls).toBe(0);
    const shell = htmlPageOf('<div id="root"></div>');
    expect(await renderIfNeeded(shell, undefined, createCrawlBudget(20_000))).toBe(shell);
    expect(await renderIfNeeded(shell, fake(null), createCrawlBudget(20_000))).toBe(shell);
  });

  it('does not start a render without time left for the assets', async () => {
    const renderer = fake(richPage);
    await renderIfNeeded(htmlPageOf('<div id="root"></div>'), renderer, createCrawlBudget(3_000));
    expect(renderer.calls).toBe(0);
  });
});
