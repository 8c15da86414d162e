/**
 * Palette evidence read from a rendered page (ADR 0023): computed colours of buttons, links, headings, nav, header,
 * footer, body and html, gradients from `background-image`, the root's custom properties and the canvas, once as
 * rendered and once with `prefers-color-scheme: dark` emulated. Everything runs in Chromium's process as one string
 * script per scheme (the page's DOM types are not compiled here) and comes back bounded: at most 300 elements per
 * kind, 100 gradients, 300 custom properties, labels cut to 40 characters. Colours are returned as Chromium
 * serialises them and parsed on the Node side (culori), so oklab()/color() values are read like any other.
 * Best effort: a failure leaves the render without palette samples.
 */
import type { Page } from 'playwright-core';
import type { RenderedPaletteSamples, RenderedSchemeSamples } from '../../../domain/palette.js';

const SAMPLE_SCRIPT = `(() => {
  const MAX_PER_KIND = 300, MAX_GRADIENTS = 100, MAX_SCANNED = 3000, MAX_VARS = 300;
  const kinds = [
    ['button', 'button, [role="button"], input[type="submit"], input[type="button"], a[class*="btn" i], a[class*="button" i], a[class*="cta" i]'],
    ['link', 'a[href]'],
    ['heading', 'h1, h2, h3, h4, h5, h6'],
    ['nav', 'nav, [role="navigation"]'],
    ['header', 'header, [role="banner"]'],
    ['footer', 'footer, [role="contentinfo"]'],
    ['body', 'body'],
    ['html', 'html'],
  ];
  const clear = (c) => !c || c === 'transparent' || /^rgba\\(.*,\\s*0(\\.0+)?\\)$/.test(c) || /\\/\\s*0(\\.0+)?\\)$/.test(c);
  const effective = (el) => { for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (!clear(c)) return c; } return 'rgb(255, 255, 255)'; };
  const label = (el) => ((el.getAttribute && el.getAttribute('aria-label')) || el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
  const samples = [];
  const seen = new Set();
  for (const [element, selector] of kinds) {
    let n = 0;
    for (const el of document.querySelectorAll(selector)) {
      if (n >= MAX_PER_KIND) break;
      if (seen.has(el)) continue;
      seen.add(el);
      const cs = getComputedStyle(el);
      const page = element === 'body' || element === 'html';
      if (!page) { const r = el.getBoundingClientRect(); if (r.width === 0 || r.height === 0 || cs.visibility === 'hidden') continue; }
      n++;
      const bordered = (parseFloat(cs.borderTopWidth) || 0) > 0 && cs.borderTopStyle !== 'none';
      samples.push({ element, background: cs.backgroundColor, effectiveBackground: effective(el), color: cs.color,
        border: bordered ? cs.borderTopColor : null, gradient: cs.backgroundImage.includes('gradient(') ? cs.backgroundImage.slice(0, 2000) : null,
        label: page ? '' : label(el) });
    }
  }
  const gradients = [];
  let scanned = 0;
  for (const el of document.querySelectorAll('body *')) {
    if (++scanned > MAX_SCANNED || gradients.length >= MAX_GRADIENTS) break;
    const image = getComputedStyle(el).backgroundImage;
    if (!image || !image.includes('gradient(')) continue;
    const cls = typeof el.className === 'string' ? el.className : '';
    gradients.push({ css: image.slice(0, 2000), prominent: /hero|banner|cta|btn|button|header|masthead|jumbotron|splash/i.test(cls + ' ' + el.id + ' ' + el.tagName) });
  }
  const root = getComputedStyle(document.documentElement);
  const vars = [];
  for (let i = 0; i < root.length && vars.length < MAX_VARS; i++) {
    const name = root[i];
    if (name.startsWith('--')) vars.push([name.slice(0, 100), root.getPropertyValue(name).trim().slice(0, 200)]);
  }
  const body = document.body || document.documentElement;
  return { samples, gradients, vars, canvas: { background: effective(body), color: getComputedStyle(body).color } };
})()`;

/** Below this much of the render's cap left, no samples are read: the rendered HTML matters more. */
const MIN_MS = 300;
/** Kept back from the cap so the render itself still returns in time. */
const MARGIN_MS = 100;

/** The samples, or undefined when they cannot be read within `withinMs` (the rest of the render's cap). */
export async function collectPaletteSamples(page: Page, withinMs: number): Promise<RenderedPaletteSamples | undefined> {
  if (withinMs < MIN_MS) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), withinMs - MARGIN_MS);
  });
  try {
    return await Promise.race([bothSchemes(page), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function bothSchemes(page: Page): Promise<RenderedPaletteSamples | undefined> {
  try {
    const light = await page.evaluate<RenderedSchemeSamples>(SAMPLE_SCRIPT);
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await page.evaluate<RenderedSchemeSamples>(SAMPLE_SCRIPT).catch(() => null);
    await page.emulateMedia({ colorScheme: 'light' }).catch(() => undefined);
    return { light, dark };
  } catch {
    return undefined;
  }
}
