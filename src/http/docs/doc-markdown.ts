import GithubSlugger from 'github-slugger';
import markdownIt, { type MarkdownIt, type StateCore, type Token } from 'markdown-it';
import { resolveDocLink } from './doc-link.js';

/** What rendering one page needs to know: where it sits and which pages exist, to rewrite its links. */
export interface DocRenderContext {
  /** The page's path under docs/ (`errors.md`, `adr/0011-asset-keys-in-records.md`). */
  file: string;
  pages: ReadonlySet<string>;
  /** The path of the public URL (usually empty), so links work behind a path prefix. */
  basePath: string;
}

export interface RenderedDoc {
  /** The text of the first heading, or the file name. */
  title: string;
  html: string;
}

interface DocEnv extends DocRenderContext {
  slugger: GithubSlugger;
  title?: string;
}

function inlineText(inline: Token | undefined): string {
  return (inline?.children ?? []).map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('');
}

/**
 * Heading ids are GitHub's slugs, so an anchor that works in the repository browser (`security.md#hostile-clients`)
 * works on the served page too.
 */
function headingIds(state: StateCore, env: DocEnv): void {
  state.tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const text = inlineText(state.tokens[i + 1]);
    token.attrSet('id', env.slugger.slug(text));
    if (env.title === undefined && token.tag === 'h1') env.title = text;
  });
}

/**
 * `label (repository/path)`, or the path alone when it is the label: a link to a file the service does not serve
 * keeps what it says, not an anchor that leads nowhere.
 */
function repositoryPathTokens(state: StateCore, path: string, label: Token[]): Token[] {
  const code = new state.Token('code_inline', 'code', 0);
  code.content = path;
  const text = label.map((t) => t.content).join('');
  if (text === path || text === '') return [code];
  const open = new state.Token('text', '', 0);
  open.content = ' (';
  const close = new state.Token('text', '', 0);
  close.content = ')';
  return [...label, open, code, close];
}

function rewriteLinks(state: StateCore, inline: Token, env: DocEnv): void {
  const children = inline.children ?? [];
  const out: Token[] = [];
  let unserved: { path: string; labelStart: number } | null = null;
  for (const child of children) {
    if (child.type === 'link_open') {
      const link = resolveDocLink(String(child.attrGet('href') ?? ''), env.file, env.pages, env.basePath);
      if (link.kind === 'href') {
        child.attrSet('href', link.href);
        out.push(child);
      } else {
        unserved = { path: link.path, labelStart: out.length };
      }
      continue;
    }
    if (child.type === 'link_close' && unserved) {
      const label = out.splice(unserved.labelStart);
      out.push(...repositoryPathTokens(state, unserved.path, label));
      unserved = null;
      continue;
    }
    out.push(child);
  }
  inline.children = out;
}

function createRenderer(): MarkdownIt {
  // Raw HTML stays off: the docs are ours, but nothing in them needs it, and text is always escaped.
  const md = markdownIt({ html: false, linkify: false, typographer: false });
  md.core.ruler.push('brandbase_docs', (state) => {
    // renderDocMarkdown passes its DocEnv under `docs` (markdown-it types the env as an open record).
    const env = state.env.docs as DocEnv;
    headingIds(state, env);
    for (const token of state.tokens) if (token.type === 'inline') rewriteLinks(state, token, env);
  });
  return md;
}

const renderer = createRenderer();

/** Renders one docs page to HTML: GitHub heading ids, links rewritten to the served pages (doc-link.ts). */
export function renderDocMarkdown(source: string, context: DocRenderContext): RenderedDoc {
  const env: DocEnv = { ...context, slugger: new GithubSlugger() };
  const html = renderer.render(source, { docs: env });
  return { title: env.title ?? context.file.replace(/\.md$/, ''), html };
}

export function escapeHtml(text: string): string {
  return renderer.utils.escapeHtml(text);
}
