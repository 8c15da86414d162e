/**
 * Traceability of a context profile: every text it returns must be found on the page its `sources` entry names.
 * A page's text is what a reader of the page gets: the text of every element (entities decoded, whitespace
 * condensed), the `content` of its meta tags and every string of its JSON-LD blocks.
 */
import { load } from 'cheerio';
import type { ContextProfile, ContextSource } from '../../src/domain/brand-context.js';

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();

export function pageTexts(html: string): string[] {
  const $ = load(html);
  const texts: string[] = [];
  $('*').each((_, el) => {
    texts.push(clean($(el).text()));
  });
  $('meta[content]').each((_, el) => {
    texts.push(clean($(el).attr('content') ?? ''));
  });
  $('script[type="application/ld+json"]').each((_, el) => {
    const strings = (value: unknown): void => {
      if (typeof value === 'string') texts.push(clean(value));
      else if (Array.isArray(value)) value.forEach(strings);
      else if (value && typeof value === 'object') Object.values(value).forEach(strings);
    };
    try {
      strings(JSON.parse($(el).text()));
    } catch {
      // A broken block states nothing a profile may quote.
    }
  });
  return texts;
}

/** The value at a source's field path (`positioning.target_audience[1].segment`). */
export function valueAt(profile: ContextProfile, field: string): unknown {
  let value: unknown = profile;
  for (const part of field.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== '')) {
    value = (value as Record<string, unknown> | undefined)?.[part];
  }
  return value;
}

/** Every non-null text of a profile with its field path (what `sources` must cover). */
export function profileTexts(profile: ContextProfile): { field: string; text: string }[] {
  const out: { field: string; text: string }[] = [];
  const walk = (value: unknown, field: string): void => {
    if (typeof value === 'string') out.push({ field, text: value });
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${field}[${i}]`));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (k !== 'type') walk(v, field ? `${field}.${k}` : k);
  };
  walk({ identity: profile.identity, positioning: profile.positioning, brand: profile.brand }, '');
  return out;
}

/** The sources whose text is not on the page they name (empty when the profile is traceable). */
export function untraceable(profile: ContextProfile, pages: Map<string, string>): { source: ContextSource; text: unknown }[] {
  const bad: { source: ContextSource; text: unknown }[] = [];
  for (const source of profile.sources) {
    const text = valueAt(profile, source.field);
    const html = pages.get(source.page);
    if (typeof text !== 'string' || !html || !pageTexts(html).some((t) => t.includes(text))) bad.push({ source, text });
  }
  return bad;
}
