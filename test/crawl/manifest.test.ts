import { describe, expect, it } from 'vitest';
import { findManifestUrl, largestSize, parseManifest } from '../../src/crawl/fetch/manifest.js';
import { htmlPageOf } from './html-page-of.js';

describe('manifest', () => {
  it('finds the manifest link relative to <base href>', () => {
    const page = htmlPageOf('<head><base href="https://cdn.acme.test/app/"><link rel="manifest" href="site.webmanifest"></head>');
    expect(findManifestUrl(page)).toBe('https://cdn.acme.test/app/site.webmanifest');
  });

  it('parses names, colours and icons resolved against the manifest URL', () => {
    const text = `{"name":"Acme Rockets","short_name":"Acme","theme_color":"#ff5500","background_color":"#fff",
      "icons":[{"src":"icons/192.png","sizes":"192x192"},{"src":"/mono.svg","sizes":"any","purpose":"monochrome"},{"sizes":"1x1"}],}`;
    expect(parseManifest(text, 'https://acme.test/static/site.webmanifest')).toEqual({
      name: 'Acme Rockets',
      shortName: 'Acme',
      description: null,
      themeColor: '#ff5500',
      backgroundColor: '#fff',
      icons: [
        { url: 'https://acme.test/static/icons/192.png', size: 192, purpose: 'any' },
        { url: 'https://acme.test/mono.svg', size: 0, purpose: 'monochrome' },
      ],
    });
    expect(parseManifest('[1,2]', 'https://acme.test/m.json')).toBeNull();
  });

  it('reads the largest square side of a sizes list', () => {
    expect(largestSize('16x16 32x32 48X48')).toBe(48);
    expect(largestSize('any')).toBe(0);
    expect(largestSize(undefined)).toBe(0);
  });
});
