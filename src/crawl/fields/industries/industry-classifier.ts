/**
 * Predicted industries (spec 2.7) from the site's own words. A multinomial naive Bayes over the sub-industries
 * of taxonomy.json, trained offline (eval/record/industries/train.ts) on the taxonomy's keywords plus a small
 * hand-written labelled set and shipped as model.json; its softmax temperature was fitted on leave-one-out
 * predictions so a score is a calibrated probability (docs/extraction.md § Industries reports reliability).
 * A top-level industry's score is the sum of its sub-industries' probabilities. Predictions never reach 1:
 * score 1 is reserved for industries that were set (industry-rules.ts, operator command, import).
 */
import type { Industry } from '../../../domain/brand.js';
import { elementIndex } from '../../page/element-index.js';
import { anyOf, attrContains, attrEquals, closest, firstAttr, hasAncestor, tagIs, textOf, type ElementTest } from '../../page/element-queries.js';
import { elementText } from '../../page/element-text.js';
import { cleanText, type HtmlPage } from '../../page/html-page.js';
import { findOrganization, stringValue, type JsonLdNode } from '../../page/json-ld.js';
import modelData from './model.json' with { type: 'json' };
import { knownLogLikelihoods, knownTokens, posteriors, type NaiveBayesModel } from './naive-bayes.js';
import { sortIndustries, taxonomyEntry, toIndustry } from './taxonomy.js';
import { tokenize } from './tokenize.js';

const model = modelData as unknown as NaiveBayesModel;

/** Fewer known tokens than this is too little text to say anything (a parked page, a login wall). */
export const MIN_KNOWN_TOKENS = 6;
/** Industries below this probability are not listed: a list of 50 near-zero guesses helps nobody. */
export const MIN_SCORE = 0.25;
/** A prediction is at most this sure, so it never reads as a set industry. */
const MAX_PREDICTED_SCORE = 0.99;

export function predictIndustries(text: string): Industry[] {
  const known = knownTokens(model, tokenize(text));
  if (known.length < MIN_KNOWN_TOKENS) return [];
  const probabilities = posteriors(knownLogLikelihoods(model, known), model.temperature);
  const topLevel = new Map<string, number>();
  const out: Industry[] = [];
  model.labels.forEach((id, i) => {
    const p = probabilities[i] ?? 0;
    const parent = taxonomyEntry(id)?.parent;
    if (parent) topLevel.set(parent, (topLevel.get(parent) ?? 0) + p);
    if (p >= MIN_SCORE) pushIndustry(out, id, p);
  });
  for (const [id, p] of topLevel) if (p >= MIN_SCORE) pushIndustry(out, id, p);
  return sortIndustries(out);
}

function pushIndustry(out: Industry[], id: string, p: number): void {
  const industry = toIndustry(id, Math.round(Math.min(MAX_PREDICTED_SCORE, p) * 100) / 100);
  if (industry) out.push(industry);
}

/**
 * What the classifier reads: the brand's self-description counts most (title, meta and JSON-LD descriptions,
 * twice), then headings and the about page's opening text. Navigation, footers and cookie text are left out.
 */
export function industryText(page: HtmlPage, jsonLd: JsonLdNode[], aboutPages: HtmlPage[]): string {
  const index = elementIndex(page.$);
  const metas = index.byTag('meta');
  const title = index.byTag('title')[0];
  const org = findOrganization(jsonLd, page.label);
  const self = [
    title ? textOf(title) : '',
    firstAttr(metas, DESCRIPTION, 'content'),
    firstAttr(metas, OG_DESCRIPTION, 'content'),
    stringValue(org?.['description']),
    stringValue(org?.['slogan']),
    stringValue(org?.['knowsAbout']),
  ].map(cleanText);
  const headings = index.all.filter(HEADING).slice(0, 12).map((el) => elementText(el));
  const paragraphs = [page, ...aboutPages].flatMap((p) => leadParagraphs(p));
  return [...self, ...self, ...headings, ...paragraphs].filter(Boolean).join('\n');
}

const DESCRIPTION = attrEquals('name', 'description', true);
const OG_DESCRIPTION = attrEquals('property', 'og:description', true);
const IN_MAIN = tagIs('main');
const H1_H2 = tagIs('h1', 'h2');
const H3 = tagIs('h3');
/** `main h1, main h2, main h3, h1, h2` */
const HEADING: ElementTest = (el) => H1_H2(el) || (H3(el) && hasAncestor(el, IN_MAIN));
/** `footer, nav, [class*="cookie" i], [id*="cookie" i], [class*="consent" i]` */
const NOT_CONTENT = anyOf(tagIs('footer', 'nav'), attrContains('class', 'cookie', true), attrContains('id', 'cookie', true), attrContains('class', 'consent', true));
const MAX_LEAD_PARAGRAPHS = 8;

function leadParagraphs(page: HtmlPage): string[] {
  const out: string[] = [];
  for (const el of elementIndex(page.$).byTag('p')) {
    if (out.length >= MAX_LEAD_PARAGRAPHS) break;
    const text = elementText(el);
    if (text.length < 40 || /©|copyright|cookies?\b/i.test(text)) continue;
    if (closest(el, NOT_CONTENT) === null) out.push(text);
  }
  return out;
}
