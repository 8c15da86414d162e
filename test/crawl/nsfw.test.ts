import { describe, expect, it } from 'vitest';
import { detectNsfw } from '../../src/crawl/fields/company/nsfw.js';
import { htmlPageOf } from './html-page-of.js';

describe('detectNsfw', () => {
  it.each([
    '<meta name="rating" content="adult">',
    '<meta name="RATING" content="Mature">',
    '<meta name="rating" content="RTA-5042-1996-1400-1577-RTA">',
    '<meta http-equiv="pics-label" content=\'(pics-1.1 "http://www.rtalabel.org" l r (n 0) gen true for "x" rating "RTA-5042-1996-1400-1577-RTA")\'>',
  ])('flags explicit self-labels: %s', (head) => {
    expect(detectNsfw(htmlPageOf(`<head>${head}</head>`))).toBe(true);
  });

  it('does not flag pages that merely mention adult education or breast cancer research', () => {
    const html = `<title>Adult education centre</title><meta name="description" content="Adult education and breast cancer research fundraising.">
      <p>Adult learners welcome. Our breast cancer research walk is on Sunday. Sex education for teenagers, with parents' consent.</p>
      <meta name="rating" content="general">`;
    expect(detectNsfw(htmlPageOf(html))).toBe(false);
  });
});

describe('detectNsfw: age gates, explicit self-descriptions and industries', () => {
  it('flags an age gate together with explicit terms in the site’s own title and description', () => {
    const html = `<title>HotCams — live sex cams and nude models</title><meta name="description" content="Free porn videos. 18+ only.">
      <div id="age-verification" role="dialog"><p>Are you 18 or older?</p></div>`;
    expect(detectNsfw(htmlPageOf(html))).toBe(true);
  });

  it('does not flag an age gate alone (a brewery) or explicit words without an age gate', () => {
    const brewery = '<title>Hops &amp; Barley Brewery</title><div class="age-gate" role="dialog">You must be 21 or older to enter.</div>';
    expect(detectNsfw(htmlPageOf(brewery))).toBe(false);
    const clinic = '<title>City Clinic — sexual health and breast cancer screening</title><meta name="description" content="Sexual health, adult vaccinations, sex education.">';
    expect(detectNsfw(htmlPageOf(clinic))).toBe(false);
    const review = '<title>Why the porn filter debate matters | Tech News</title>';
    expect(detectNsfw(htmlPageOf(review))).toBe(false);
  });

  it('a set adult industry flags the brand; a predicted one (score < 1) does not', () => {
    const adult = { id: 'ind_adult_content', slug: 'adult-content', name: 'Adult Content', emoji: '🔞', parent: null };
    expect(detectNsfw(htmlPageOf('<title>x</title>'), [{ ...adult, score: 1 }])).toBe(true);
    expect(detectNsfw(htmlPageOf('<title>x</title>'), [{ ...adult, score: 0.9 }])).toBe(false);
  });
});
