import { describe, expect, it } from 'vitest';
import { extractIdentity, nameFromTitle, truncateAtSentence } from '../../src/crawl/fields/identity.js';
import { readJsonLd } from '../../src/crawl/page/json-ld.js';
import type { WebManifest } from '../../src/crawl/fetch/manifest.js';
import { htmlPageOf } from './html-page-of.js';

function identityOf(html: string, manifest: WebManifest | null = null) {
  const page = htmlPageOf(html);
  return extractIdentity({ page, jsonLd: readJsonLd(page.$), manifest });
}

const manifest = (fields: Partial<WebManifest>): WebManifest => ({
  name: null, shortName: null, description: null, themeColor: null, backgroundColor: null, icons: [], ...fields,
});

describe('extractIdentity: name', () => {
  it('prefers the JSON-LD Organization name over og:site_name and the title when nothing else agrees', () => {
    const html = `<script type="application/ld+json">{"@type":"Organization","name":"Acme Rockets"}</script>
      <meta property="og:site_name" content="Acme Rockets Magazine"><title>Home | Rocket news</title>`;
    expect(identityOf(html).name).toBe('Acme Rockets');
  });

  it('takes the name most sources agree on: og:site_name "Acme Blog" and the title "Acme" outvote the Organization', () => {
    const html = `<script type="application/ld+json">{"@type":"Organization","name":"Acme Rockets"}</script>
      <meta property="og:site_name" content="Acme Blog"><title>Home | Acme</title>`;
    expect(identityOf(html).name).toBe('Acme');
  });

  it('falls back through og:site_name, application-name and the manifest', () => {
    expect(identityOf('<meta property="og:site_name" content=" Acme ">').name).toBe('Acme');
    expect(identityOf('<meta name="application-name" content="Acme Rockets">').name).toBe('Acme Rockets');
    expect(identityOf('<title>x</title>', manifest({ shortName: 'AcmeShort', name: 'Acme Long' })).name).toBe('AcmeShort');
  });

  it('picks the title segment that matches the domain label', () => {
    expect(nameFromTitle('The rocket company for coyotes | Acme', 'acme')).toBe('Acme');
    expect(nameFromTitle('Acme — The rocket company', 'acme')).toBe('Acme');
    expect(nameFromTitle('Rockets · Acme Corp', 'acme')).toBe('Acme');
    expect(nameFromTitle('Home', 'acme')).toBeNull();
    expect(nameFromTitle('Welcome to the best rocket shop on the whole internet', 'acme')).toBeNull();
    expect(nameFromTitle('Zenith', 'acme')).toBe('Zenith');
  });

  it('prefers a source resembling the domain over an earlier one that does not', () => {
    const html = `<script type="application/ld+json">{"@type":"Organization","name":"webpack"}</script>
      <meta property="og:site_name" content="Acme"><title>webpack 3 released | Acme</title>`;
    expect(identityOf(html).name).toBe('Acme');
    expect(identityOf('<meta name="og:site_name" content="Rocket Podcasts | Acme Studios">', null).name).toBe('Acme Studios');
  });

  it('reads the home-linked header logo alt text before falling back to the title', () => {
    const html = '<title>An article about rockets and other things</title><header><a href="/"><img src="/l.png" alt="acme_logotype_black"></a></header>';
    expect(identityOf(html).name).toBe('acme');
  });

  it('rejects generic placeholders as names', () => {
    expect(identityOf('<meta property="og:site_name" content="Home"><title>Home</title>').name).toBeNull();
  });
});

describe('extractIdentity: descriptions', () => {
  it('uses og:description, then meta description, then twitter:description, with whitespace cleaned', () => {
    expect(identityOf('<meta name="description" content="  Rockets   for\n everyone. ">').description).toBe('Rockets for everyone.');
    expect(identityOf('<meta name="twitter:description" content="Rockets from the twitter card.">').description).toBe('Rockets from the twitter card.');
    expect(identityOf('<meta name="description" content="Rockets from the meta tag."><meta property="og:description" content="Rockets from og, which wins.">').description).toBe('Rockets from og, which wins.');
  });

  it('cuts long descriptions at a sentence boundary under 300 characters', () => {
    const sentence = 'Acme builds rockets for every kind of coyote in the desert. ';
    const text = sentence.repeat(8).trim();
    const cut = truncateAtSentence(text, 300);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut.endsWith('desert.')).toBe(true);
    expect(truncateAtSentence('word '.repeat(100).trim(), 50)).toMatch(/…$/);
  });

  it('takes the longer JSON-LD description as longDescription only when it differs and is longer', () => {
    const long = 'Acme is a rocket company. It has been building rockets since 1949 for coyotes everywhere.';
    const html = `<meta name="description" content="Rockets for everyone."><script type="application/ld+json">{"@type":"Organization","name":"Acme","description":"${long}"}</script>`;
    expect(identityOf(html).longDescription).toBe(long);
    const same = `<meta name="description" content="${long}"><script type="application/ld+json">{"@type":"Organization","description":"${long}"}</script>`;
    expect(identityOf(same).longDescription).toBeNull();
    expect(identityOf('<meta name="description" content="Rockets for everyone.">', manifest({ description: 'A longer manifest description of rockets.' })).longDescription).toBe('A longer manifest description of rockets.');
  });
});
