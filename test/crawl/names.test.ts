/**
 * Issue 16 part A: the name chooser weighs every source by agreement and cleans what it picks; descriptions are
 * the site's own words, never a lede, pitch, login prompt or fragment. Pages written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { extractIdentity } from '../../src/crawl/fields/identity.js';
import { cleanName } from '../../src/crawl/fields/names/clean-name.js';
import { cleanDescription, isFragment } from '../../src/crawl/fields/description/description-text.js';
import { pageKind } from '../../src/crawl/fields/description/page-kind.js';
import { readJsonLd } from '../../src/crawl/page/json-ld.js';
import type { WebManifest } from '../../src/crawl/fetch/manifest.js';
import { htmlPageOf } from './html-page-of.js';

function identityAt(url: string, html: string, manifest: WebManifest | null = null) {
  const page = htmlPageOf(html, url);
  return extractIdentity({ page, jsonLd: readJsonLd(page.$), manifest });
}

const manifest = (fields: Partial<WebManifest>): WebManifest => ({
  name: null, shortName: null, description: null, themeColor: null, backgroundColor: null, icons: [], ...fields,
});

describe('name: agreement between sources', () => {
  it('drops the legal suffix of a JSON-LD Corporation when the WebSite node and the manifest say the short name', () => {
    const html = `<script type="application/ld+json">{"@graph":[{"@type":"Corporation","name":"Example Holdings, Inc."},
      {"@type":"WebSite","name":"Example"}]}</script><title>Example — tools for makers</title>`;
    expect(identityAt('https://example.test/', html, manifest({ name: 'Example', shortName: 'Example' })).name).toBe('Example');
  });

  it('picks the publisher on article pages that name it only in microdata, twitter:site or a Publisher meta tag', () => {
    const headline = '<title>Storm closes the harbour for a fourth day running</title><meta property="og:type" content="article">';
    const microdata = `${headline}<article><div itemprop="publisher" itemscope itemtype="https://schema.org/Organization"><meta itemprop="name" content="Tidewatch"></div></article>`;
    expect(identityAt('https://tidewatch.test/', microdata).name).toBe('Tidewatch');
    expect(identityAt('https://tidewatch.test/', `${headline}<meta name="twitter:site" content="@Tidewatch">`).name).toBe('Tidewatch');
    expect(identityAt('https://tidewatch.test/', `${headline}<meta name="publisher" content="Tidewatch Media">`).name).toBe('Tidewatch');
    expect(identityAt('https://tidewatch.test/', `${headline}<meta name="publisher" content="Coastal Gazette">`).name).toBe('Coastal Gazette');
  });

  it('reads the copyright holder when nothing else names the brand', () => {
    const html = '<title>Storm closes the harbour for a fourth day running</title><footer><p>© 2012–2026 Tidewatch Ltd. All rights reserved.</p></footer>';
    expect(identityAt('https://tidewatch.test/', html).name).toBe('Tidewatch');
  });

  it('keeps accents and prefers the accented spelling when sources differ only by them', () => {
    expect(identityAt('https://cittanuova.test/', '<meta property="og:site_name" content="Città Nuova">').name).toBe('Città Nuova');
    const mixed = '<meta property="og:site_name" content="Citta Nuova"><meta name="application-name" content="Città Nuova"><title>Città Nuova</title>';
    expect(identityAt('https://cittanuova.test/', mixed).name).toBe('Città Nuova');
  });

  it('counts two spellings of one name as agreeing ("Volvo Car AB" and "Volvo Cars"), the domain deciding between them', () => {
    const html = '<script type="application/ld+json">{"@type":"Organization","name":"Volvo Car AB"}</script><title>Volvo Cars</title>';
    expect(identityAt('https://www.volvocars.test/', html).name).toBe('Volvo Cars');
  });

  it('ignores a copyright line without a holder', () => {
    expect(identityAt('https://tidewatch.test/', '<title>Home</title><footer><p>© 2024 All rights reserved.</p></footer>').name).toBeNull();
  });

  it('keeps a section word that is part of the brand (the domain says so)', () => {
    expect(identityAt('https://harbournews.test/', '<meta property="og:site_name" content="Harbour News">').name).toBe('Harbour News');
    expect(identityAt('https://harbour.test/', '<meta property="og:site_name" content="Harbour News">').name).toBe('Harbour');
  });
});

describe('cleanName', () => {
  const clean = (raw: string, label = 'example') => cleanName(raw, { label });
  it.each([
    ['Example, Inc.', 'Example'], ['Example Inc', 'Example'], ['Example LLC', 'Example'], ['Example Ltd', 'Example'],
    ['Example Pty Ltd', 'Example'], ['Beispiel GmbH', 'Beispiel'], ['Beispiel GmbH & Co. KG', 'Beispiel'], ['Beispiel AG', 'Beispiel'],
    ['Exemple S.A.', 'Exemple'], ['Exemple SAS', 'Exemple'], ['Esempio S.p.A.', 'Esempio'], ['Voorbeeld B.V.', 'Voorbeeld'],
    ['Voorbeeld N.V.', 'Voorbeeld'], ['Esimerkki Oy', 'Esimerkki'], ['Exempel AB', 'Exempel'], ['Eksempel ASA', 'Eksempel'],
    ['Rei K.K.', 'Rei'], ['Example Co., Ltd.', 'Example'], ['Příklad s.r.o.', 'Příklad'],
  ])('%s → %s', (raw, want) => {
    expect(clean(raw, want.toLowerCase())).toBe(want);
  });

  it('drops a domain suffix, a parenthetical and a section word the domain does not carry', () => {
    expect(clean('Example.com')).toBe('Example');
    expect(clean('Aktuálně.cz', 'aktualne')).toBe('Aktuálně');
    expect(clean('Example (formerly Sample)')).toBe('Example');
    expect(clean('Example Blog')).toBe('Example');
    expect(clean('Example Shop')).toBe('Example');
  });

  it('never strips accents or a name that is only a legal-looking word', () => {
    expect(clean('Città', 'citta')).toBe('Città');
    expect(clean('Société Générale', 'societegenerale')).toBe('Société Générale');
    expect(clean('AB', 'ab')).toBe('AB');
  });
});

describe('descriptions: the site’s own words', () => {
  const article = `<meta property="og:type" content="article"><link rel="canonical" href="https://tidewatch.test/2026/01/storm">
    <meta property="og:description" content="Storms kept the night ferry in port for eleven days, the longest run since records began.">`;

  it('never takes an article page’s lede; takes the WebSite description instead', () => {
    const html = `${article}<script type="application/ld+json">{"@type":"WebSite","name":"Tidewatch","description":"Independent news about shipping and coastal life."}</script>`;
    expect(identityAt('https://tidewatch.test/', html).description).toBe('Independent news about shipping and coastal life.');
  });

  it('says nothing on an article page that does not describe its site', () => {
    expect(identityAt('https://tidewatch.test/', article).description).toBeNull();
  });

  it('tells a home page from a content page', () => {
    const kind = (html: string) => {
      const page = htmlPageOf(html, 'https://tidewatch.test/');
      return pageKind(page, readJsonLd(page.$));
    };
    expect(kind('<meta property="og:type" content="website"><link rel="canonical" href="https://tidewatch.test/">')).toBe('home');
    expect(kind('<link rel="canonical" href="https://tidewatch.test/en/">')).toBe('home');
    expect(kind('<link rel="canonical" href="https://tidewatch.test/?lang=en">')).toBe('home');
    expect(kind('<meta property="og:type" content="video.other">')).toBe('content');
    expect(kind('<script type="application/ld+json">{"@type":"BlogPosting","headline":"x"}</script>')).toBe('content');
    expect(kind('<link rel="canonical" href="https://tidewatch.test/stories/storm">')).toBe('content');
    expect(kind('<article><h1>Storm</h1><p>Text</p></article>')).toBe('content');
    expect(kind('<article><h2>One</h2></article><article><h2>Two</h2></article>')).toBe('home');
  });

  it('drops an appended newsletter pitch, and refuses login prompts, privacy lines and fragments', () => {
    expect(cleanDescription('Tidewatch covers shipping and coastal life. Sign up for our newsletter to get it in your inbox!')).toBe('Tidewatch covers shipping and coastal life.');
    expect(cleanDescription('Please log in to continue to your account.')).toBeNull();
    expect(cleanDescription('Subscribe to our newsletter today.')).toBeNull();
    expect(cleanDescription('Ferry timetables')).toBeNull();
    expect(isFragment('[...] it’s natural to think that the harbour,...')).toBe(true);
    expect(isFragment('and then the harbour closed for the winter.')).toBe(true);
    expect(isFragment('Startup and technology news')).toBe(false);
  });

  it('prefers a footer line saying what the brand is over a home page meta description that is about something else', () => {
    const html = `<meta name="description" content="“The harbour will never be the same again” – Coastal Weekly">
      <footer><div class="footer-about"><p>Tidewatch is an independent newsroom covering shipping and coastal life.</p></div></footer>`;
    expect(identityAt('https://tidewatch.test/', html).description).toBe('Tidewatch is an independent newsroom covering shipping and coastal life.');
  });
});
