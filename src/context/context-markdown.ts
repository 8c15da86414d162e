/**
 * The Markdown form of a brand context (`Accept: text/markdown`, docs/context.md): the same facts as the JSON, as
 * CommonMark a language model can read in a prompt. Site text is hostile: every text taken from a page is escaped
 * (ASCII punctuation backslash-escaped, CommonMark 2.4), so it renders as the text the site states and can never
 * open a link, an image, HTML or a heading. A field the site does not state is written as such.
 */
import type { BrandContext } from '../domain/brand-context.js';

export const NOT_STATED = '*Not stated on the site.*';

/** Backslash-escapes every character CommonMark could read as markup (any ASCII punctuation may be escaped). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+\-.!|~&"'=:;,/?@$%^]/g, '\\$&');
}

const field = (label: string, value: string | null): string => `**${label}:** ${value === null ? NOT_STATED : escapeMarkdown(value)}`;
const list = (label: string, values: readonly string[]): string => `**${label}:** ${values.length === 0 ? NOT_STATED : values.map(escapeMarkdown).join(', ')}`;

export function contextMarkdown(context: BrandContext): string {
  const { meta, identity, positioning, brand, links } = context;
  const title = escapeMarkdown(meta.canonical_name ?? meta.domain);
  const lines: string[] = [
    `# ${title}`,
    '',
    `**Domain:** ${escapeMarkdown(meta.domain)}  `,
    `**Resolved at:** ${escapeMarkdown(meta.resolved_at)}  `,
    `**Pages read at:** ${escapeMarkdown(meta.observed_at)}`,
    '',
    '## Identity',
    '',
    `${field('Tagline', identity.tagline)}  `,
    `${field('Mission', identity.mission)}  `,
    `${field('Description', identity.description)}  `,
    list('Tags', identity.tags),
    '',
    '## Positioning',
    '',
    field('Value proposition', positioning.value_proposition),
    '',
    '### Target audience',
    '',
    ...bullets(positioning.target_audience.map((a) => `**${escapeMarkdown(a.segment)}**${a.description ? `: ${escapeMarkdown(a.description)}` : ''}`)),
    '',
    '### Products and services',
    '',
    ...bullets(positioning.products_and_services.map((p) => `**${escapeMarkdown(p.name)}** (${p.type})${p.description ? `: ${escapeMarkdown(p.description)}` : ''}`)),
    '',
    '## Brand',
    '',
    '### Voice',
    '',
    `${field('Summary', brand.voice.summary)}  `,
    `${list('Attributes', brand.voice.attributes)}  `,
    list('Avoid', brand.voice.avoid),
    '',
    '### Style',
    '',
    `${field('Summary', brand.style.summary)}  `,
    list('Attributes', brand.style.attributes),
    '',
    '## Links',
    '',
    `- Brand record: <${links.brand}>`,
    ...links.logos.map((l) => `- Logo (${l.type}${l.theme ? `, ${l.theme}` : ''}, ${l.format}): <${l.url}>`),
    `- Colors: ${links.colors.length === 0 ? NOT_STATED : links.colors.map((c) => `\`${c.hex}\` (${c.type})`).join(', ')}`,
    '',
    '## Sources',
    '',
    ...bullets(meta.sources.map((s) => `\`${s.field}\`: \`${s.page.replace(/`/g, '%60')}\``)),
    '',
  ];
  return lines.join('\n');
}

function bullets(items: readonly string[]): string[] {
  return items.length === 0 ? [NOT_STATED] : items.map((item) => `- ${item}`);
}
