import { describe, expect, it } from 'vitest';
import { findOrganization, parseLenientJson, readJsonLd } from '../../src/crawl/page/json-ld.js';
import { htmlPageOf } from './html-page-of.js';

describe('parseLenientJson', () => {
  it.each([
    ['plain', '{"a": 1}'],
    ['CDATA wrapper', '<![CDATA[{"a": 1}]]>'],
    ['JS comments', '// header\n{"a": /* inline */ 1}'],
    ['trailing comma', '{"a": 1,}'],
    ['stray closing brace', '{"a": 1}}'],
    ['raw newline in a string', '{"a": 1, "b": "line\nbreak"}'],
  ])('recovers %s', (_, text) => {
    expect(parseLenientJson(text)).toMatchObject({ a: 1 });
  });

  it('keeps // inside strings', () => {
    expect(parseLenientJson('{"url": "https://acme.test/"}')).toEqual({ url: 'https://acme.test/' });
  });

  it('gives up on hopeless input', () => {
    expect(parseLenientJson('not json at all')).toBeUndefined();
  });
});

describe('readJsonLd', () => {
  it('flattens @graph and nested typed nodes, and finds the organization', () => {
    const page = htmlPageOf(`
      <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
        {"@type":"WebSite","name":"Acme site","publisher":{"@type":"Organization","name":"Acme","url":"https://acme.test"}},
        {"@type":"Organization","name":"Partner Co"}]}</script>
      <script type="application/ld+json">[{"@type":"BreadcrumbList"}]</script>`);
    const nodes = readJsonLd(page.$);
    expect(nodes.map((n) => n['@type'])).toEqual(['WebSite', 'Organization', 'Organization', 'BreadcrumbList']);
    expect(findOrganization(nodes, 'acme')?.['name']).toBe('Acme');
  });

  it('findOrganization prefers the label match, then more properties, then the first of equals', () => {
    const a = { '@type': 'Organization', name: 'First', x: 1 };
    const b = { '@type': 'Corporation', name: 'Second', y: 2 };
    const bigger = { '@type': 'Organization', name: 'Bigger', y: 1, z: 2 };
    const named = { '@type': 'Brand', name: 'Acme' };
    expect(findOrganization([a, b], 'zzz')).toBe(a);
    expect(findOrganization([a, bigger, b], 'zzz')).toBe(bigger);
    expect(findOrganization([a, bigger, named, { '@type': 'WebSite', name: 'Acme', q: 1, r: 2, s: 3 }], 'acme')).toBe(named);
    expect(findOrganization([], 'acme')).toBeNull();
  });
});
