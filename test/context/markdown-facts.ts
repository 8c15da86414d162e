/**
 * Reads a context's Markdown back with markdown-it (a CommonMark parser): its headings, the text of each section as
 * a reader sees it (escapes resolved), the "Label: value" lines under each heading (a `**Label:**` paragraph followed
 * by a fenced block reads as `Label: ` and the block's lines joined by `, `), the fenced blocks, and whether any raw
 * HTML, image or non-autolink link got through. Used to check that JSON and Markdown carry the same facts.
 */
import MarkdownIt from 'markdown-it';

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

export interface MarkdownFacts {
  headings: { level: number; text: string }[];
  /** Rendered text lines (inline content, breaks split), with the heading path they sit under (`Brand > Voice`). */
  lines: { section: string; text: string }[];
  /** Tokens that would be markup a site's text must never produce. */
  unsafe: string[];
  /** Link targets (autolinks included). */
  links: string[];
  /** Fenced code blocks: the section, the label paragraph just before (without its colon), info string and lines. */
  fences: { section: string; label: string | null; info: string; lines: string[] }[];
  /** Every text outside fenced blocks, headings included, in order: what Brandbase wrote, not quoted. */
  unquoted: string[];
}

const md = new MarkdownIt('commonmark');

function inlineText(children: readonly Token[]): string[] {
  const lines: string[] = [''];
  for (const child of children) {
    if (child.type === 'softbreak' || child.type === 'hardbreak') lines.push('');
    else if (child.type === 'text' || child.type === 'code_inline') lines[lines.length - 1] += child.content;
  }
  return lines.map((l) => l.trim()).filter(Boolean);
}

export function markdownFacts(markdown: string): MarkdownFacts {
  const tokens = md.parse(markdown, {});
  const facts: MarkdownFacts = { headings: [], lines: [], unsafe: [], links: [], fences: [], unquoted: [] };
  const path: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.type === 'html_block') facts.unsafe.push(token.type);
    if (token.type === 'heading_open') {
      const level = Number(token.tag.slice(1));
      const text = inlineText((tokens[i + 1] as Token).children ?? []).join(' ');
      facts.headings.push({ level, text });
      facts.unquoted.push(text);
      path.length = Math.max(0, level - 2);
      if (level >= 2) path.push(text);
      i += 2;
      continue;
    }
    if (token.type === 'fence' || token.type === 'code_block') {
      const section = path.join(' > ');
      const contentLines = token.content.replace(/\n$/, '').split('\n');
      const last = facts.lines[facts.lines.length - 1];
      const label = last && last.section === section && /^[^:]+:$/.test(last.text) ? last.text.slice(0, -1) : null;
      facts.fences.push({ section, label, info: token.info.trim(), lines: contentLines });
      if (label !== null && last) last.text = `${label}: ${contentLines.join(', ')}`;
      else for (const text of contentLines) facts.lines.push({ section, text });
      continue;
    }
    if (token.type !== 'inline') continue;
    for (const child of token.children ?? []) {
      if (child.type === 'html_inline' || child.type === 'image') facts.unsafe.push(child.type);
      if (child.type === 'link_open') {
        facts.links.push(String(child.attrGet('href') ?? ''));
        if (child.markup !== 'autolink') facts.unsafe.push('link');
      }
    }
    for (const text of inlineText(token.children ?? [])) {
      facts.lines.push({ section: path.join(' > '), text });
      facts.unquoted.push(text);
    }
  }
  return facts;
}

/** The value of a `**Label:** value` line in a section, or undefined. */
export function labelled(facts: MarkdownFacts, section: string, label: string): string | undefined {
  const line = facts.lines.find((l) => l.section === section && l.text.startsWith(`${label}: `));
  return line?.text.slice(label.length + 2);
}
