/**
 * The shipped industry model (ADR 0025): the loader, the abstention rule, and calibration on a held-out sample of
 * FinanceDatabase summaries shipped in test/fixtures/industries/ (MIT, attributed in the file; the test split of
 * eval/industries/financedatabase.ts, never trained or calibrated on).
 */
import { describe, expect, it } from 'vitest';
import { answerOf, fallbackOf, homePageModel, industryModel, industryScores, predictIndustries, type ClassifierScores } from '../../src/crawl/fields/industries/industry-classifier.js';
import modelFile from '../../src/crawl/fields/industries/industry-model.json' with { type: 'json' };
import { knownFeatures, leafLogits, loadIndustryModel, softmax, temperatureFor, type IndustryModelFile, type IndustryScores } from '../../src/crawl/fields/industries/industry-model.js';
import { taxonomyEntry, TAXONOMY } from '../../src/crawl/fields/industries/taxonomy.js';
import { reliability } from '../../eval/industries/calibration.js';
import { readSample, scoreSet } from '../../eval/industries/suite.js';

const file = modelFile as IndustryModelFile;

describe('industry model loader', () => {
  it('decodes the shipped file: provenance in the header, one weight per token and leaf, leaves in the taxonomy', () => {
    const model = industryModel();
    expect(model.header).toMatchObject({ commit: '268be5d', date: '2026-08-16' });
    expect(model.header.licence).toMatch(/^MIT/);
    expect(model.header.source).toMatch(/FinanceDatabase/);
    expect(model.weights.length).toBe(file.vocabulary.length * file.leaves.length);
    expect(model.index.size).toBe(file.vocabulary.length);
    for (const [i, leaf] of model.leaves.entries()) {
      const entry = taxonomyEntry(leaf);
      expect(entry, leaf).not.toBeNull();
      expect(model.tops[i]).toBe(entry?.parent ?? leaf);
      expect(entry?.nsfw).not.toBe(true);
    }
    expect(model.answerThreshold).toBeGreaterThanOrEqual(0.5);
    expect(model.subThreshold).toBeGreaterThanOrEqual(model.answerThreshold);
  });

  it('weights are the int8 bytes times their leaf scale; logits add 1/√n of each known token row to the bias', () => {
    const model = industryModel();
    const bytes = Buffer.from(file.weights, 'base64');
    const n = file.leaves.length;
    const token = file.vocabulary[7] as string;
    const row = [...new Int8Array(bytes.buffer, bytes.byteOffset + 7 * n, n)].map((q, l) => Math.fround(q * (file.scales[l] ?? 0)));
    expect([...model.weights.subarray(7 * n, 8 * n)]).toEqual(row);
    const features = knownFeatures(model, [token, 'no-such-token-anywhere', token]);
    expect(features).toEqual([7]);
    expect([...leafLogits(model, features)]).toEqual(file.bias.map((b, l) => b + (row[l] ?? 0)));
  });

  it('refuses a file whose weights do not match its vocabulary and leaves', () => {
    expect(() => loadIndustryModel({ ...file, vocabulary: file.vocabulary.slice(1) })).toThrow(/weights/);
  });

  it('softmax sums to 1; a higher temperature flattens; less text gets a lower temperature (length calibration)', () => {
    const sharp = softmax([0, -2], 0.5);
    const flat = softmax([0, -2], 4);
    expect(sharp[0]).toBeGreaterThan(flat[0] ?? 1);
    expect((flat[0] ?? 0) + (flat[1] ?? 0)).toBeCloseTo(1, 10);
    const model = industryModel();
    expect(temperatureFor(model, model.lengthReference)).toBeCloseTo(model.temperature, 10);
    if (model.lengthExponent > 0) expect(temperatureFor(model, 8)).toBeLessThan(temperatureFor(model, 200));
  });
});

describe('abstention rule', () => {
  const model = { answerThreshold: 0.6, subThreshold: 0.7, minKnownTokens: 6 };
  const scores = (top: number, sub: number, subId = 'ind_logistics', known = 20): IndustryScores => ({
    known,
    tops: [{ id: 'ind_transport', p: top }, { id: 'ind_travel', p: 1 - top }],
    subs: [{ id: subId, p: sub }],
  });

  it('answers nothing below the answer threshold, however the rest is spread', () => {
    expect(answerOf(scores(0.59, 0.59), model)).toEqual([]);
  });

  it('answers the top-level industry alone when the sub-industry is not sure enough', () => {
    expect(answerOf(scores(0.9, 0.69), model).map((i) => [i.id, i.score])).toEqual([['ind_transport', 0.9]]);
  });

  it('lists a sure sub-industry under its own top-level industry only', () => {
    expect(answerOf(scores(0.9, 0.8), model).map((i) => i.id)).toEqual(['ind_transport', 'ind_logistics']);
    expect(answerOf(scores(0.9, 0.8, 'ind_airlines'), model).map((i) => i.id)).toEqual(['ind_transport']);
  });

  it('answers nothing on too little text, and caps a predicted score below 1', () => {
    expect(answerOf(scores(0.99, 0.99, 'ind_logistics', 5), model)).toEqual([]);
    expect(answerOf(scores(1, 1), model).every((i) => i.score < 1)).toBe(true);
  });

  it('the shipped classifier abstains on text that names no business', () => {
    expect(predictIndustries('Welcome! Log in.')).toEqual([]);
    expect(predictIndustries('Hello and thanks for visiting. Sign in or create an account to continue. Terms. Privacy. Contact us.')).toEqual([]);
  });
});

describe('calibration on the held-out sample (300 FinanceDatabase summaries never trained on)', async () => {
  const sample = await readSample();
  const score = scoreSet(sample);

  it('is the held-out sample it says it is', () => {
    expect(sample.length).toBeGreaterThanOrEqual(250);
    for (const row of sample) expect(taxonomyEntry(row.top)?.parent, row.top).toBeNull();
  });

  it('answers at least 70 % and is right on at least 80 % of what it answers', () => {
    expect(score.answered / score.n).toBeGreaterThanOrEqual(0.7);
    expect(score.correct / score.answered).toBeGreaterThanOrEqual(0.8);
  });

  it('top-1 scores are probabilities: expected calibration error under 0.07 on 300 texts', () => {
    // The bar is 0.05 on the full test split (npm run eval); 300 texts add about ±0.02 of sampling noise.
    expect(score.calibration.ece).toBeLessThan(0.07);
  });

  it('reliability: a bin of confident answers is right about as often as it claims', () => {
    const points = sample.map((row) => {
      const best = industryScores(row.text).tops[0];
      return { confidence: best?.p ?? 0, correct: best?.id === row.top };
    });
    const confident = reliability(points).bins.filter((b) => b.n >= 30);
    expect(confident.length).toBeGreaterThan(0);
    for (const bin of confident) expect(Math.abs(bin.accuracy - bin.meanConfidence), bin.range).toBeLessThan(0.12);
  });
});

describe('home-page fallback (the listing model abstains)', () => {
  const rule = { answerThreshold: 0.6, subThreshold: 0.7, minKnownTokens: 6 };
  const homePage = homePageModel();
  /** The listing model unsure between two industries it knows; the home-page model sure of `pageTop`. */
  const scores = (listingTop: string, pageTop: string, pageP: number, pageKnown = 4): ClassifierScores => ({
    known: 20,
    tops: [{ id: listingTop, p: 0.4 }, { id: 'ind_travel', p: 0.3 }],
    subs: [{ id: 'ind_logistics', p: 0.4 }],
    homePage: { known: pageKnown, tops: [{ id: pageTop, p: pageP }, { id: 'ind_media', p: 1 - pageP }] },
  });

  it('the shipped file: top-level, non-NSFW classes; the listings\' classes among them; the listing model\'s threshold', () => {
    const tops = new Set(TAXONOMY.filter((e) => e.parent === null && !e.nsfw).map((e) => e.id));
    expect(new Set(homePage.file.classes)).toEqual(tops);
    for (const id of homePage.file.listingClasses) expect(tops.has(id), id).toBe(true);
    expect(homePage.file.listingClasses).not.toContain('ind_education');
    expect(homePage.file.answerThreshold).toBe(industryModel().answerThreshold);
    expect(homePage.file.logLikelihood.length).toBe(homePage.file.vocabulary.length * homePage.file.classes.length);
  });

  it('answers the top-level industry alone when the listing model agrees, or has no label for it', () => {
    expect(answerOf(scores('ind_transport', 'ind_transport', 0.8), rule, homePage).map((i) => [i.id, i.score])).toEqual([['ind_transport', 0.8]]);
    expect(answerOf(scores('ind_technology', 'ind_education', 0.8), rule, homePage).map((i) => i.id)).toEqual(['ind_education']);
  });

  it('stays silent when the listing model leans to another industry it knows, below the threshold, or on too few words', () => {
    expect(answerOf(scores('ind_technology', 'ind_industrial', 0.95), rule, homePage)).toEqual([]);
    expect(fallbackOf(scores('ind_transport', 'ind_transport', 0.5), homePage, 0.6)).toBeNull();
    expect(answerOf(scores('ind_transport', 'ind_transport', 0.95, 1), rule, homePage)).toEqual([]);
  });

  it('is never asked when the listing model answers, nor without home-page scores', () => {
    const sure: ClassifierScores = { ...scores('ind_transport', 'ind_education', 0.99), tops: [{ id: 'ind_transport', p: 0.9 }] };
    expect(answerOf(sure, rule, homePage).map((i) => i.id)).toEqual(['ind_transport']);
    const { homePage: _dropped, ...listingOnly } = scores('ind_technology', 'ind_education', 0.99);
    expect(answerOf(listingOnly, rule, homePage)).toEqual([]);
  });

  it('the shipped classifier names industries the listings have no label for, from a home page\'s self-description only', () => {
    const self = 'Free online courses, lessons and practice exercises for students and teachers, from kindergarten to college.';
    expect(predictIndustries(self, self).map((i) => [i.id, i.parent])).toEqual([['ind_education', null]]);
    // Read as the whole page's text (no self-description), only the listing model speaks, and it abstains here.
    expect(predictIndustries(self)).toEqual([]);
    expect(predictIndustries('Welcome! Log in.', 'Welcome! Log in.')).toEqual([]);
  });
});
