/**
 * Predicted industries (spec 2.7) from the site's own words: a softmax regression over our taxonomy trained
 * offline on real company descriptions (industry-model.ts, scripts/train-industries.ts, docs/industries.md,
 * ADR 0025). Scores are calibrated probabilities (temperature fitted on a held-out split). The classifier would
 * rather say nothing than be confidently wrong: it answers a top-level industry only when its probability reaches
 * the model's answer threshold, and a sub-industry only when that reaches the sub-industry threshold; otherwise the
 * list is empty. Predictions never reach 1: score 1 is reserved for industries that were set (industry-rules.ts,
 * operator command, import).
 */
import type { Industry } from '../../../domain/brand.js';
import { elementIndex } from '../../page/element-index.js';
import { anyOf, attrContains, attrEquals, closest, firstAttr, hasAncestor, tagIs, textOf, type ElementTest } from '../../page/element-queries.js';
import { elementText } from '../../page/element-text.js';
import { cleanText, type HtmlPage } from '../../page/html-page.js';
import { findOrganization, stringValue, type JsonLdNode } from '../../page/json-ld.js';
import { pageKind } from '../description/page-kind.js';
import modelFile from './industry-model.json' with { type: 'json' };
import { loadIndustryModel, scoreTokens, type IndustryModel, type IndustryModelFile, type IndustryScores } from './industry-model.js';
import { sortIndustries, toIndustry } from './taxonomy.js';
import { tokenize } from './tokenize.js';

let loaded: IndustryModel | null = null;

/** The shipped model, decoded on first use (a few milliseconds: bench/industry-model-load.ts). */
export function industryModel(): IndustryModel {
  loaded ??= loadIndustryModel(modelFile as IndustryModelFile);
  return loaded;
}

/** The lowest score a predicted industry is listed with: the model's answer threshold. */
export const MIN_SCORE: number = (modelFile as IndustryModelFile).answerThreshold;
/** A prediction is at most this sure, so it never reads as a set industry. */
const MAX_PREDICTED_SCORE = 0.99;

/** Calibrated probabilities of every industry for a text, before the abstention rule (evaluation reads these). */
export function industryScores(text: string, model: IndustryModel = industryModel()): IndustryScores {
  return scoreTokens(model, tokenize(text));
}

/**
 * The abstention rule on calibrated scores: nothing below `minKnownTokens` known words; the best top-level
 * industry when it reaches the answer threshold, with its best sub-industry when that reaches the sub-industry
 * threshold and belongs to it; nothing otherwise.
 */
export function answerOf(scores: IndustryScores, model: Pick<IndustryModel, 'answerThreshold' | 'subThreshold' | 'minKnownTokens'>): Industry[] {
  const top = scores.tops[0];
  if (scores.known < model.minKnownTokens || !top || top.p < model.answerThreshold) return [];
  const out: Industry[] = [];
  pushIndustry(out, top.id, top.p);
  const sub = scores.subs[0];
  if (sub && sub.p >= model.subThreshold && toIndustry(sub.id, 0)?.parent?.[0]?.id === top.id) pushIndustry(out, sub.id, sub.p);
  return sortIndustries(out);
}

/**
 * The answer for a page's text. With the page's self-description (title, meta and JSON-LD descriptions) given, that
 * is read first and answers when it can: features are distinct words, so the rest of a page (an about page's
 * charity run, a "new: smarter search" banner) can only dilute what the brand says about itself. The whole text
 * answers when the self-description alone does not. Each answer carries its own text's calibrated probability.
 */
export function predictIndustries(text: string, selfDescription?: string): Industry[] {
  const model = industryModel();
  const own = selfDescription ? answerOf(industryScores(selfDescription, model), model) : [];
  return own.length > 0 ? own : answerOf(industryScores(text, model), model);
}

function pushIndustry(out: Industry[], id: string, p: number): void {
  const industry = toIndustry(id, Math.round(Math.min(MAX_PREDICTED_SCORE, p) * 100) / 100);
  if (industry) out.push(industry);
}

/**
 * What the classifier reads: the brand's self-description counts most (title, meta and JSON-LD descriptions,
 * twice), then headings and the about page's opening text. Navigation, footers and cookie text are left out.
 * On a content page (an article, a video, a product: page-kind.ts) the page's own title, description, headings
 * and paragraphs are about that one piece of content (a news site's article on chips reads like a chip maker), so
 * only the organization's own JSON-LD statements and the about pages are read; usually too little, and the
 * classifier abstains.
 */
export function industryText(page: HtmlPage, jsonLd: JsonLdNode[], aboutPages: HtmlPage[]): string {
  const self = selfStatements(page, jsonLd);
  if (pageKind(page, jsonLd) === 'content') return [...self, ...self, ...aboutPages.flatMap((p) => leadParagraphs(p))].filter(Boolean).join('\n');
  const headings = elementIndex(page.$).all.filter(HEADING).slice(0, 12).map((el) => elementText(el));
  const paragraphs = [page, ...aboutPages].flatMap((p) => leadParagraphs(p));
  return [...self, ...self, ...headings, ...paragraphs].filter(Boolean).join('\n');
}

/** The brand's own description of itself: title, meta/og descriptions (home pages only) and its JSON-LD statements. */
export function selfDescriptionText(page: HtmlPage, jsonLd: JsonLdNode[]): string {
  return selfStatements(page, jsonLd).filter(Boolean).join('\n');
}

function selfStatements(page: HtmlPage, jsonLd: JsonLdNode[]): string[] {
  const org = findOrganization(jsonLd, page.label);
  const orgSelf = [stringValue(org?.['description']), stringValue(org?.['slogan']), stringValue(org?.['knowsAbout'])].map(cleanText);
  if (pageKind(page, jsonLd) === 'content') return orgSelf;
  const index = elementIndex(page.$);
  const metas = index.byTag('meta');
  const title = index.byTag('title')[0];
  return [title ? textOf(title) : '', firstAttr(metas, DESCRIPTION, 'content'), firstAttr(metas, OG_DESCRIPTION, 'content')].map(cleanText).concat(orgSelf);
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
