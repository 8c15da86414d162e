import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { API_REFERENCE_PATH } from '../doc-urls.js';
import { pageUrlPath } from './doc-link.js';
import { escapeHtml, renderDocMarkdown } from './doc-markdown.js';

/** One served page: its path under docs/ (`errors.md`), its served path and the whole HTML document. */
export interface DocPage {
  file: string;
  urlPath: string;
  title: string;
  html: string;
}

const STYLE = [
  'body{font:16px/1.55 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:0 1rem 4rem;color:#1d1d1f}',
  'nav{padding:1rem 0;border-bottom:1px solid #ddd;margin-bottom:1rem}nav a{margin-right:1rem}',
  'table{border-collapse:collapse;display:block;overflow-x:auto}th,td{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top}',
  'code{background:#f4f4f5;padding:0 .2rem;border-radius:3px}pre{background:#f4f4f5;padding:.75rem;overflow-x:auto}pre code{padding:0}',
].join('');

function layout(basePath: string, title: string, body: string): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · Brandbase</title><style>${STYLE}</style></head><body>`,
    `<nav><a href="${basePath}/docs">Documentation</a><a href="${basePath}${API_REFERENCE_PATH}">API reference</a>`,
    `<a href="${basePath}/openapi.json">OpenAPI document</a></nav><main>${body}</main></body></html>`,
  ].join('');
}

function listOf(pages: DocPage[]): string {
  return `<ul>${pages.map((p) => `<li><a href="${p.urlPath}">${escapeHtml(p.title)}</a></li>`).join('')}</ul>`;
}

async function markdownFiles(dir: string, prefix: string): Promise<string[]> {
  try {
    const names = await readdir(path.join(dir, prefix));
    return names.filter((n) => n.endsWith('.md')).sort().map((n) => `${prefix}${n}`);
  } catch (error) {
    // A deployment without docs/ serves an empty index rather than failing every docs request.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * The documentation pages, rendered once: every docs/*.md at `/docs/{name}`, every ADR at `/docs/adr/{name}`, an
 * index at `/docs` and the ADR list at `/docs/adr`. Links between pages are rewritten to these URLs (doc-link.ts).
 */
export class DocsSite {
  private constructor(
    private readonly pages: ReadonlyMap<string, DocPage>,
    readonly index: string,
    readonly adrIndex: string,
  ) {}

  /** A page by its name under docs/ without `.md` (`errors`, `adr/0011-asset-keys-in-records`). */
  page(name: string): DocPage | undefined {
    return this.pages.get(`${name}.md`);
  }

  static async load(dir: string, basePath: string): Promise<DocsSite> {
    const files = [...(await markdownFiles(dir, '')), ...(await markdownFiles(dir, 'adr/'))];
    const known = new Set(files);
    const pages = new Map<string, DocPage>();
    for (const file of files) {
      const { title, html } = renderDocMarkdown(await readFile(path.join(dir, file), 'utf8'), { file, pages: known, basePath });
      pages.set(file, { file, urlPath: pageUrlPath(basePath, file), title, html: layout(basePath, title, html) });
    }
    const all = [...pages.values()];
    const guides = all.filter((p) => !p.file.startsWith('adr/'));
    const adrs = all.filter((p) => p.file.startsWith('adr/'));
    const index = layout(basePath, 'Documentation', [
      '<h1 id="brandbase-documentation">Brandbase documentation</h1>',
      `<p>The HTTP API: <a href="${basePath}${API_REFERENCE_PATH}">interactive reference</a> and <a href="${basePath}/openapi.json">OpenAPI document</a>.</p>`,
      `<h2 id="guides">Guides</h2>${listOf(guides)}`,
      `<h2 id="decisions">Decisions</h2><p><a href="${basePath}/docs/adr">Architecture decision records</a> (${adrs.length})</p>`,
    ].join(''));
    const adrIndex = layout(basePath, 'Architecture decision records', `<h1 id="architecture-decision-records">Architecture decision records</h1>${listOf(adrs)}`);
    return new DocsSite(pages, index, adrIndex);
  }
}
