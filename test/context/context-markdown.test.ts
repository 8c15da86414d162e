/**
 * The Markdown form of a context, read back with markdown-it (CommonMark): the expected structure, the same facts
 * as the JSON (each text field's line, each list item), and hostile site text rendered as text (no HTML, image or
 * link can come from a page).
 */
import { describe, expect, it } from 'vitest';
import { contextMarkdown } from '../../src/context/context-markdown.js';
import type { BrandContext } from '../../src/domain/brand-context.js';
import { labelled, markdownFacts } from './markdown-facts.js';

const NOT_STATED = 'Not stated on the site.';

function context(overrides: Partial<BrandContext['identity']> = {}): BrandContext {
  return {
    meta: { domain: 'acme.test', canonical_name: 'Acme *Corp*', resolved_at: '2026-11-28T10:00:00.000Z', observed_at: '2026-11-28T09:00:00.000Z', sources: [{ field: 'identity.tagline', page: '/' }] },
    identity: { tagline: 'Rockets & <b>roadrunners</b>', mission: null, description: '# Not a heading [click](https://evil.test) ![x](https://evil.test/p.png) <script>alert(1)</script>', tags: ['a_b', '1. first'], ...overrides },
    positioning: {
      value_proposition: '- not a list item | not | a table',
      target_audience: [{ segment: 'coyotes', description: 'Built for coyotes who `chase` things.' }],
      products_and_services: [{ name: 'Anvil *Pro*', type: 'product', description: null }, { name: 'Repairs', type: 'service', description: 'We fix &amp; mend.' }],
    },
    brand: { voice: { summary: null, attributes: [], avoid: [] }, style: { summary: 'Our style is [loud].', attributes: ['loud'] } },
    links: { brand: 'http://brandbase.test/v2/brands/domain/acme.test', logos: [{ type: 'logo', theme: 'light', format: 'svg', url: 'http://brandbase.test/assets/abc.svg' }], colors: [{ hex: '#ff0000', type: 'brand' }] },
  };
}

describe('context Markdown', () => {
  const ctx = context();
  const facts = markdownFacts(contextMarkdown(ctx));

  it('has one title and the sections in order', () => {
    expect(facts.headings).toEqual([
      { level: 1, text: 'Acme *Corp*' },
      { level: 2, text: 'Identity' },
      { level: 2, text: 'Positioning' },
      { level: 3, text: 'Target audience' },
      { level: 3, text: 'Products and services' },
      { level: 2, text: 'Brand' },
      { level: 3, text: 'Voice' },
      { level: 3, text: 'Style' },
      { level: 2, text: 'Links' },
      { level: 2, text: 'Sources' },
    ]);
  });

  it('carries every text field as the JSON states it, and says so where the site states nothing', () => {
    expect(labelled(facts, 'Identity', 'Tagline')).toBe(ctx.identity.tagline);
    expect(labelled(facts, 'Identity', 'Mission')).toBe(NOT_STATED);
    expect(labelled(facts, 'Identity', 'Description')).toBe(ctx.identity.description);
    expect(labelled(facts, 'Identity', 'Tags')).toBe('a_b, 1. first');
    expect(labelled(facts, 'Positioning', 'Value proposition')).toBe(ctx.positioning.value_proposition);
    expect(facts.lines.filter((l) => l.section === 'Positioning > Target audience').map((l) => l.text)).toEqual(['coyotes: Built for coyotes who `chase` things.']);
    expect(facts.lines.filter((l) => l.section === 'Positioning > Products and services').map((l) => l.text)).toEqual(['Anvil *Pro* (product)', 'Repairs (service): We fix &amp; mend.']);
    expect(labelled(facts, 'Brand > Voice', 'Summary')).toBe(NOT_STATED);
    expect(labelled(facts, 'Brand > Voice', 'Attributes')).toBe(NOT_STATED);
    expect(labelled(facts, 'Brand > Style', 'Summary')).toBe('Our style is [loud].');
    expect(labelled(facts, 'Brand > Style', 'Attributes')).toBe('loud');
  });

  it('links only to the brand record and the logo files, as autolinks; colours and sources listed', () => {
    expect(facts.links).toEqual([ctx.links.brand, 'http://brandbase.test/assets/abc.svg']);
    expect(facts.lines.find((l) => l.section === 'Links' && l.text.startsWith('Colors:'))?.text).toBe('Colors: #ff0000 (brand)');
    expect(facts.lines.filter((l) => l.section === 'Sources').map((l) => l.text)).toEqual(['identity.tagline: /']);
  });

  it('never lets site text become HTML, an image, a link, a heading or a list', () => {
    expect(facts.unsafe).toEqual([]);
    expect(facts.headings.filter((h) => h.text.includes('Not a heading'))).toEqual([]);
  });
});
