import { describe, expect, it } from 'vitest';
import { findAboutPageUrls } from '../../src/crawl/fetch/about-pages.js';
import { aboutText, cleanDescription, extractDescription, extractIdentity } from '../../src/crawl/fields/identity.js';
import { htmlPageOf } from './html-page-of.js';

describe('cleanDescription', () => {
  it.each([
    'We use cookies to improve your experience. Accept all cookies or manage settings.',
    'This site uses cookies. By continuing you consent to our cookie policy.',
    'Home',
    'Skip to main content',
    'Home Products Pricing Blog Contact',
    'Please enable JavaScript to use this site.',
    'Short.',
  ])('rejects %s', (text) => {
    expect(cleanDescription(text)).toBeNull();
  });

  it('removes a leading breadcrumb and keeps real prose', () => {
    expect(cleanDescription('Home | Acme builds rockets for coyotes.')).toBe('Acme builds rockets for coyotes.');
    expect(cleanDescription('Cookie-free analytics for privacy-minded teams.')).toBe('Cookie-free analytics for privacy-minded teams.');
  });
});

describe('descriptions', () => {
  it('skips a cookie-text meta description and falls back to the lead paragraph, not the banner', () => {
    const html = `<meta name="description" content="We use cookies to improve your experience.">
      <div class="cookie-banner"><p>We use cookies to make this site work. Accept all cookies or manage settings here.</p></div>
      <nav><p>Home Products Pricing Blog Contact Careers Press Partners</p></nav>
      <main><p>Acme builds reusable rockets and launch services for small satellite operators.</p></main>`;
    expect(extractDescription(htmlPageOf(html))).toBe('Acme builds reusable rockets and launch services for small satellite operators.');
  });

  it('takes the long description from the about page when JSON-LD has none', () => {
    const home = htmlPageOf('<meta name="description" content="Rockets for everyone.">');
    const about = htmlPageOf('<main><h1>About</h1><p>Acme was founded in 1949 to build rockets that coyotes can actually afford and repair.</p><p>© 2026 Acme</p></main>', 'https://www.acme.test/about');
    expect(aboutText(about)).toBe('Acme was founded in 1949 to build rockets that coyotes can actually afford and repair.');
    expect(extractIdentity({ page: home, jsonLd: [], manifest: null, aboutPages: [about] }).longDescription).toBe(aboutText(about));
  });
});

describe('findAboutPageUrls', () => {
  it('finds one about and one contact page on the brand’s own domain', () => {
    const page = htmlPageOf(`<nav><a href="/pricing">Pricing</a><a href="/company/about-us">About us</a><a href="/about-us#team">Team</a>
      <a href="https://careers.other.test/about">Careers</a><a href="/contact">Contact</a><a href="/impressum">Impressum</a></nav>`);
    expect(findAboutPageUrls(page)).toEqual(['https://www.acme.test/company/about-us', 'https://www.acme.test/contact']);
  });

  it('finds nothing on a page without such links', () => {
    expect(findAboutPageUrls(htmlPageOf('<a href="/">Home</a><a href="/blog">Blog</a>'))).toEqual([]);
  });
});
