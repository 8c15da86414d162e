import { describe, expect, it } from 'vitest';
import { predictIndustries, MIN_SCORE } from '../../src/crawl/fields/industries/industry-classifier.js';
import { ruleIndustries } from '../../src/crawl/fields/industries/industry-rules.js';
import { sortIndustries, TAXONOMY, taxonomyEntry, toIndustry, withParent } from '../../src/crawl/fields/industries/taxonomy.js';
import { stem, tokenize } from '../../src/crawl/fields/industries/tokenize.js';
import { knownTokens, logLikelihoods, posteriors, trainNaiveBayes } from '../../src/crawl/fields/industries/naive-bayes.js';

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

  it('a top-level score is the sum of its sub-industries, so it is at least the best child', () => {
    const list = predictIndustries('Online courses, lessons, quizzes and certificates for learners and teachers; tutoring for students.');
    const top = list.find((i) => i.id === 'ind_education');
    const child = list.find((i) => i.parent?.[0]?.id === 'ind_education');
    expect(top && child && top.score >= child.score).toBe(true);
  });

  it('log-likelihoods are bit for bit the per-label sums of log((count + alpha) / (total + alpha * |V|)), length-capped', () => {
    const model = trainNaiveBayes(['a', 'b', 'c'], [
      { label: 'a', tokens: ['ship', 'parcel', 'ship_parcel', 'freight'], weight: 1 },
      { label: 'b', tokens: ['bank', 'loan', 'parcel'], weight: 2 },
      { label: 'c', tokens: ['course', 'lesson'], weight: 0.5 },
    ]);
    model.lengthCap = 3;
    const tokens = ['parcel', 'unknown', 'ship', 'loan', 'parcel', 'lesson'];
    const known = knownTokens(model, tokens);
    const scale = model.lengthCap / known.length;
    const expected = model.labels.map((_, i) => {
      const counts = model.counts[i] ?? {};
      const denominator = Math.log((model.totals[i] ?? 0) + model.alpha * model.vocabularySize);
      let sum = 0;
      for (const token of known) sum += Math.log((counts[token] ?? 0) + model.alpha) - denominator;
      return sum * scale;
    });
    expect(logLikelihoods(model, tokens)).toEqual(expected);
    expect(logLikelihoods(model, tokens)).toEqual(expected);
  });

  it('softmax with temperature: higher temperature, flatter posteriors', () => {
    const sharp = posteriors([0, -2], 0.5);
    const flat = posteriors([0, -2], 4);
    expect(sharp[0]).toBeGreaterThan(flat[0] ?? 1);
    expect((flat[0] ?? 0) + (flat[1] ?? 0)).toBeCloseTo(1, 10);
  });
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
