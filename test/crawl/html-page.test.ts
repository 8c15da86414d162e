import { loadBuffer } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HTML_LIMITS } from '../../src/crawl/page/bounded-html.js';
import { parseHtmlPage } from '../../src/crawl/page/html-page.js';

const MAX_PARSED_HTML_BYTES = DEFAULT_HTML_LIMITS.maxBytes;

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** What cheerio's sniffing loader makes of the same bytes and Content-Type charset. */
function sniffed(body: Buffer, charset: string | undefined): string {
  return loadBuffer(body.subarray(0, MAX_PARSED_HTML_BYTES), { encoding: { transportLayerEncodingLabel: charset } }).html();
}

describe('parseHtmlPage decoding', () => {
  const bodies: Record<string, Buffer> = {
    plain: bytes('<title>Café – Zürich 東京 🙂</title><p>ok</p>'),
    'utf-8 BOM': bytes([0xef, 0xbb, 0xbf], '<title>Bom</title>'),
    'two BOMs': bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], '<p>x</p>'),
    'partial BOM': bytes([0xef, 0xbb], '<p>x</p>'),
    'utf-16le BOM': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<title>LE</title>', 'utf16le')]),
    'utf-16be BOM': bytes([0xfe, 0xff, 0x00, 0x3c, 0x00, 0x70, 0x00, 0x3e]),
    'utf-16 xml prefix': bytes([0x00, 0x3c, 0x00, 0x3f, 0x00, 0x78], '<p>x</p>'),
    'invalid sequences': bytes('<p>', [0xc0, 0x80, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0x80, 0xff], '</p>'),
    'truncated at the end': bytes('<p>a', [0xe2, 0x82]),
    'invalid prefix at the end': bytes('<p>a', [0xf0, 0x80]),
    'latin-1 bytes': bytes('<p>caf', [0xe9], ' na', [0xef], 've</p>'),
    'meta charset': bytes('<meta charset="iso-8859-1"><p>caf', [0xe9], '</p>'),
    'cut inside a character at the parse limit': bytes('<p>', 'a'.repeat(MAX_PARSED_HTML_BYTES - 4), '€€'),
  };

  for (const [name, body] of Object.entries(bodies)) {
    it(`gives the document the sniffing loader gives: ${name}`, () => {
      const charsets = body.length > 1e6 ? ['utf-8'] : ['utf-8', 'UTF8', 'utf8', 'iso-8859-1', 'windows-1252', 'utf-16', undefined];
      for (const charset of charsets) {
        const contentType = charset ? `text/html; charset=${charset}` : 'text/html';
        expect(parseHtmlPage(body, 'https://www.acme.test/', contentType).$.html(), `${charset}`).toBe(sniffed(body, charset));
      }
    });
  }

  it('reads <base href> as before: the first <base> with an href, resolved against the page', () => {
    const page = parseHtmlPage(bytes('<base target="_top"><base href="/en/"><base href="/fr/"><p>x</p>'), 'https://www.acme.test/a/b', 'text/html');
    expect(page.baseUrl).toBe('https://www.acme.test/en/');
  });
});
