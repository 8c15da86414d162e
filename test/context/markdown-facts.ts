/**
 * Reads a context's Markdown back with markdown-it (a CommonMark parser): its headings, the text of each section as
 * a reader sees it (escapes resolved), the "Label: value" lines under each heading, and whether any raw HTML, image
 * or non-autolink link got through. Used to check that JSON and Markdown carry the same facts.
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
  const facts: MarkdownFacts = { headings: [], lines: [], unsafe: [], links: [] };
  const path: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.type === 'html_block') facts.unsafe.push(token.type);
    if (token.type === 'heading_open') {
      const level = Number(token.tag.slice(1));
      const text = inlineText((tokens[i + 1] as Token).children ?? []).join(' ');
      facts.headings.push({ level, text });
      path.length = Math.max(0, level - 2);
      if (level >= 2) path.push(text);
      i += 2;
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
    for (const text of inlineText(token.children ?? [])) facts.lines.push({ section: path.join(' > '), text });
  }
  return facts;
}

/** The value of a `**Label:** value` line in a section, or undefined. */
export function labelled(facts: MarkdownFacts, section: string, label: string): string | undefined {
  const line = facts.lines.find((l) => l.section === section && l.text.startsWith(`${label}: `));
  return line?.text.slice(label.length + 2);
}
