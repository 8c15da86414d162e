import { describe, expect, it } from 'vitest';
import { industryText, predictIndustries, MIN_SCORE } from '../../src/crawl/fields/industries/industry-classifier.js';
import { htmlPageOf } from './html-page-of.js';
import { ruleIndustries } from '../../src/crawl/fields/industries/industry-rules.js';
import { sortIndustries, TAXONOMY, taxonomyEntry, toIndustry, withParent } from '../../src/crawl/fields/industries/taxonomy.js';
import { stem, tokenize } from '../../src/crawl/fields/industries/tokenize.js';

describe('industry taxonomy data', () => {
  it('has unique ids and slugs, an emoji and a name on every entry, and parents that are top-level', () => {
    expect(new Set(TAXONOMY.map((e) => e.id)).size).toBe(TAXONOMY.length);
    expect(new Set(TAXONOMY.map((e) => e.slug)).size).toBe(TAXONOMY.length);
    for (const e of TAXONOMY) {
      expect(e.name.length).toBeGreaterThan(1);
      expect(e.emoji.length).toBeGreaterThan(0);
      if (e.parent) expect(taxonomyEntry(e.parent)?.parent).toBeNull();
    }
    expect(TAXONOMY.filter((e) => e.parent === null).length).toBeGreaterThanOrEqual(15);
  });

  it('shows a sub-industry with its parent as a one-entry list and a top-level one with null', () => {
    expect(toIndustry('ind_logistics', 0.5)).toEqual({
      id: 'ind_logistics', slug: 'logistics', name: 'Shipping & Logistics', emoji: '📦', score: 0.5,
      parent: [{ id: 'ind_transport', slug: 'transportation', name: 'Transportation & Logistics', emoji: '🚚' }],
    });
    expect(toIndustry('ind_transport', 0.5)?.parent).toBeNull();
    expect(withParent('ind_logistics', 1).map((i) => i.id)).toEqual(['ind_logistics', 'ind_transport']);
  });

  it('sorts by descending score, one entry per id', () => {
    const list = sortIndustries([toIndustry('ind_software', 0.3)!, toIndustry('ind_payments', 0.9)!, toIndustry('ind_software', 0.6)!]);
    expect(list.map((i) => [i.id, i.score])).toEqual([['ind_payments', 0.9], ['ind_software', 0.6]]);
  });
});

describe('industry classifier', () => {
  it('tokenizes with stop words, plural stems and bigrams', () => {
    expect(tokenize('We ship parcels and freight')).toEqual(['ship', 'parcel', 'ship_parcel', 'freight']);
    expect(stem('companies')).toBe('company');
    expect(stem('news')).toBe('news');
    expect(stem('saas')).toBe('saas');
  });

  it('predicts a sub-industry with its parent, sorted, scores calibrated below 1', () => {
    const list = predictIndustries('Ship parcels worldwide with express delivery, tracking, freight forwarding and customs clearance for your supply chain.');
    expect(list[0]).toMatchObject({ slug: 'logistics', parent: [{ slug: 'transportation' }] });
    expect(list.map((i) => i.id)).toContain('ind_transport');
    for (const i of list) {
      expect(i.score).toBeLessThan(1);
      expect(i.score).toBeGreaterThanOrEqual(MIN_SCORE);
    }
    expect([...list].sort((a, b) => b.score - a.score)).toEqual(list);
  });

  it('says nothing about a page with too little text', () => {
    expect(predictIndustries('Welcome! Log in.')).toEqual([]);
  });

  it('a top-level score is the sum of its leaves, so it is at least its listed sub-industry', () => {
    const texts = [
      'Low fares airline: book cheap flights to over 200 destinations across Europe.',
      'Ship parcels worldwide with express delivery, tracking, freight forwarding and customs clearance for your supply chain.',
      'Retail bank offering current accounts, savings, mortgages, personal loans and credit cards to households and small businesses.',
    ];
    let listedSubs = 0;
    for (const text of texts) {
      const list = predictIndustries(text);
      for (const child of list.filter((i) => i.parent !== null)) {
        listedSubs += 1;
        const top = list.find((i) => i.id === child.parent?.[0]?.id);
        expect(top && top.score >= child.score, text).toBe(true);
      }
    }
    expect(listedSubs).toBeGreaterThan(0);
  });

  it('reads an article page for its publisher, not for the article', () => {
    const html = `<html><head><title>New chips from a chip maker | Daily Tech</title><meta property="og:type" content="article">
      <meta name="description" content="The chip maker unveiled semiconductors, processors and wafers."></head>
      <body><h1>Chip maker unveils processors</h1><p>The semiconductor company announced new processors and memory chips for data centers today, with wafers made in its own fabs.</p></body></html>`;
    expect(industryText(htmlPageOf(html), [], [])).toBe('');
    const publisher = [{ '@type': 'NewsMediaOrganization', name: 'Daily Tech', description: 'Technology news and reviews.' }];
    expect(industryText(htmlPageOf(html), publisher, [])).toContain('Technology news and reviews.');
    expect(industryText(htmlPageOf(html), publisher, [])).not.toContain('processors');
    expect(industryText(htmlPageOf(html.replace('content="article"', 'content="website"')), [], [])).toContain('processors');
  });

  it('reads the self-description first, and the whole page only when that says too little', () => {
    const self = 'DHL | International express shipping, parcel delivery and supply chain logistics.';
    const whole = `${self}\nNew: smarter search, available since 2024.\nWe support adult education programmes and sponsor a charity run for breast cancer research every spring.`;
    expect(predictIndustries(whole, self)).toEqual(predictIndustries(self));
    expect(predictIndustries(whole, self).map((i) => i.id)).toEqual(['ind_logistics', 'ind_transport']);
    const logistics = 'Ship parcels worldwide with express delivery, tracking, freight forwarding and customs clearance for your supply chain.';
    expect(predictIndustries(logistics, 'Acme | Home')).toEqual(predictIndustries(logistics));
    expect(predictIndustries(logistics, 'Acme | Home').length).toBeGreaterThan(0);
  });

  // The model's loader, abstention rule and calibration: industry-model.test.ts.
});

describe('content rules set industries with score 1', () => {
  it('a schema.org business type sets the sub-industry and its parent', () => {
    const list = ruleIndustries([{ '@type': 'Restaurant', name: 'Acme Diner' }], 'acme', false);
    expect(list.map((i) => [i.slug, i.score])).toEqual([['restaurants', 1], ['food-beverage', 1]]);
  });

  it('an adult self-rating sets the adult industry; a plain Organization sets nothing', () => {
    expect(ruleIndustries([], 'acme', true).map((i) => i.slug)).toEqual(['adult-content', 'adult']);
    expect(ruleIndustries([{ '@type': 'Organization', name: 'Acme' }], 'acme', false)).toEqual([]);
  });
});
