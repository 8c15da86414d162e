/**
 * Server-rendered HTML for the dashboard and the brand pages (issue 23). Every interpolated value is escaped unless
 * it is itself an `Html` value built here, so a brand name, a key name or an email address taken from the store can
 * never become markup (site text is hostile: docs/security.md).
 */

/** A fragment of HTML that is already safe to send. Build it only with `html` or `raw`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** What a template slot accepts: nested fragments and arrays of them are kept, anything else is escaped text. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map((v: HtmlValue) => render(v)).join('');
  return escapeText(String(value));
}

/** Tagged template: `html\`<p>${name}</p>\`` escapes `name`; `null`, `undefined` and `false` render nothing. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** Marks trusted markup (our own constants: CSS, inline SVG we generated). Never pass stored or request text. */
export function raw(markup: string): Html {
  return new Html(markup);
}

/**
 * Headers for every page: no framing (clickjacking), no sniffing, no referrer leaking a path, and a content policy
 * that allows only the service's own resources (`data:` images for inline previews). Pages work without scripts;
 * where a page adds one it is served from the service itself ('self').
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** Shared look of every page: readable without scripts, no horizontal overflow from 320 px up, AA contrast. */
const BASE_STYLE = [
  ':root{color-scheme:light;--fg:#1d1d1f;--muted:#52525b;--line:#d4d4d8;--accent:#1d4ed8;--bg:#fff;--soft:#f4f4f5}',
  '*{box-sizing:border-box}body{font:16px/1.5 system-ui,sans-serif;margin:0;color:var(--fg);background:var(--bg)}',
  'a{color:var(--accent)}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}',
  '.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:9}',
  'header.top{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;padding:.75rem 1rem;border-bottom:1px solid var(--line)}',
  'header.top .brand{font-weight:700;color:var(--fg);text-decoration:none}header.top nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}',
  'main{max-width:72rem;margin:0 auto;padding:1rem}h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.2rem;margin:1.75rem 0 .5rem}',
  'table{border-collapse:collapse;width:100%;display:block;overflow-x:auto}th,td{border-bottom:1px solid var(--line);padding:.4rem .5rem;text-align:left;vertical-align:top}',
  'code{background:var(--soft);padding:0 .2rem;border-radius:3px;overflow-wrap:anywhere}',
  'button,.button{font:inherit;padding:.4rem .8rem;border:1px solid var(--accent);background:var(--accent);color:#fff;border-radius:4px;cursor:pointer;text-decoration:none;display:inline-block}',
  'button.secondary{background:#fff;color:var(--accent)}button.danger{background:#b91c1c;border-color:#b91c1c}',
  'input,select,textarea{font:inherit;padding:.35rem .5rem;border:1px solid #71717a;border-radius:4px;max-width:100%}',
  'label{display:block;margin:.5rem 0 .2rem;font-weight:600}.muted{color:var(--muted)}.notice{background:#ecfdf5;border:1px solid #047857;padding:.5rem .75rem;border-radius:4px}',
  '.error{background:#fef2f2;border:1px solid #b91c1c;padding:.5rem .75rem;border-radius:4px}',
  'img,svg{max-width:100%;height:auto}',
].join('');

export interface PageOptions {
  /** The document title (escaped), shown as "title · Brandbase". */
  title: string;
  /** Links in the top bar (already built). */
  nav?: Html;
  /** Page-specific CSS (a constant of ours, never request text). */
  style?: string;
  body: Html;
}

/** The whole document: one `<h1>` is the body's job; the layout adds a skip link, the top bar and `<main>`. */
export function page(options: PageOptions): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${options.title} · Brandbase</title><style>${raw(BASE_STYLE + (options.style ?? ''))}</style></head><body><a class="skip" href="#main">Skip to content</a><header class="top"><a class="brand" href="/brands">Brandbase</a><nav aria-label="Main">${options.nav ?? ''}</nav></header><main id="main">${options.body}</main></body></html>`.value;
}
