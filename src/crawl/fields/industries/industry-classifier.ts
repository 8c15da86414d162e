/**
 * Predicted industries (spec 2.7) from the site's own words: a softmax regression over our taxonomy trained
 * offline on real company descriptions (industry-model.ts, scripts/train-industries.ts, docs/industries.md,
 * ADR 0025). Scores are calibrated probabilities (temperature fitted on a held-out split). The classifier would
 * rather say nothing than be confidently wrong: it answers a top-level industry only when its probability reaches
 * the model's answer threshold, and a sub-industry only when that reaches the sub-industry threshold. Where it
 * abstains, the home-page register model (home-page-model.ts) may answer a top-level industry alone, when the listing
 * model does not contradict it and its own calibrated probability reaches the same threshold; otherwise the list is
 * empty. Predictions never reach 1: score 1 is reserved for industries that were set (industry-rules.ts, operator
 * command, import).
 */
import type { Industry } from '../../../domain/brand.js';
import { elementIndex } from '../../page/element-index.js';
import { anyOf, attrContains, attrEquals, closest, firstAttr, hasAncestor, tagIs, textOf, type ElementTest } from '../../page/element-queries.js';
import { elementText } from '../../page/element-text.js';
import { cleanText, type HtmlPage } from '../../page/html-page.js';
import { findOrganization, stringValue, type JsonLdNode } from '../../page/json-ld.js';
import { pageKind } from '../description/page-kind.js';
import { loadHomePageModel, scoreHomePage, type HomePageModel, type HomePageModelFile, type HomePageScores } from './home-page-model.js';
import homePageFile from './industry-home-page-model.json' with { type: 'json' };
import modelFile from './industry-model.json' with { type: 'json' };
import { loadIndustryModel, scoreTokens, type IndustryModel, type IndustryModelFile, type IndustryScores } from './industry-model.js';
import { sortIndustries, toIndustry } from './taxonomy.js';
import { tokenize } from './tokenize.js';

let loaded: IndustryModel | null = null;
let loadedHomePage: HomePageModel | null = null;

/** The shipped model, decoded on first use (a few milliseconds: bench/industry-model-load.ts). */
export function industryModel(): IndustryModel {
  loaded ??= loadIndustryModel(modelFile as IndustryModelFile);
  return loaded;
}

/** The shipped home-page register model, decoded on first use. */
export function homePageModel(): HomePageModel {
  loadedHomePage ??= loadHomePageModel(homePageFile as HomePageModelFile);
  return loadedHomePage;
}

/** The listing model's scores of a text and, when asked for, the home-page model's scores of the same words. */
export interface ClassifierScores extends IndustryScores {
  homePage?: HomePageScores;
}

/** The lowest score a predicted industry is listed with: the model's answer threshold. */
export const MIN_SCORE: number = (modelFile as IndustryModelFile).answerThreshold;
/** A prediction is at most this sure, so it never reads as a set industry. */
const MAX_PREDICTED_SCORE = 0.99;

/** Calibrated probabilities of every industry for a text, before the abstention rule (evaluation reads these). */
export function industryScores(text: string, model: IndustryModel = industryModel(), homePage: HomePageModel | null = homePageModel()): ClassifierScores {
  const tokens = tokenize(text);
  const scores = scoreTokens(model, tokens);
  return homePage ? { ...scores, homePage: scoreHomePage(homePage, tokens) } : scores;
}

type AnswerRule = Pick<IndustryModel, 'answerThreshold' | 'subThreshold' | 'minKnownTokens'>;

/**
 * The abstention rule on calibrated scores: nothing below `minKnownTokens` known words; the best top-level
 * industry when it reaches the answer threshold, with its best sub-industry when that reaches the sub-industry
 * threshold and belongs to it. Where that gives nothing and the scores carry the home-page model's, its top-level
 * industry alone when `fallbackOf` allows it. Nothing otherwise.
 */
export function answerOf(scores: ClassifierScores, model: AnswerRule, homePage: HomePageModel | null = homePageModel()): Industry[] {
  const out: Industry[] = [];
  const top = scores.tops[0];
  if (scores.known < model.minKnownTokens || !top || top.p < model.answerThreshold) {
    const fallback = homePage ? fallbackOf(scores, homePage, homePage.file.answerThreshold) : null;
    if (fallback) pushIndustry(out, fallback.id, fallback.p);
    return out;
  }
  pushIndustry(out, top.id, top.p);
  const sub = scores.subs[0];
  if (sub && sub.p >= model.subThreshold && toIndustry(sub.id, 0)?.parent?.[0]?.id === top.id) pushIndustry(out, sub.id, sub.p);
  return sortIndustries(out);
}

/**
 * The home-page model's top-level industry, when it may answer for the abstaining listing model: enough known words,
 * its calibrated probability at `threshold` or above, and not contradicted: the listing model's own top-1 is the same
 * industry, or the industry is one the listings have no label for (education, marketing, ...), so the listing
 * model's disagreement says nothing. A listing model that leans elsewhere among industries it knows wins by silence.
 */
export function fallbackOf(scores: ClassifierScores, homePage: HomePageModel, threshold: number): { id: string; p: number } | null {
  const page = scores.homePage;
  const best = page?.tops[0];
  if (!page || !best || page.known < homePage.file.minKnownTokens || best.p < threshold) return null;
  if (scores.tops[0]?.id !== best.id && homePage.file.listingClasses.includes(best.id)) return null;
  return best;
}

/**
 * The classifier's top-1 guess and its calibrated probability, whether or not it is answered (reliability curves):
 * the home-page model's when it answers for the abstaining listing model, the listing model's top-1 otherwise.
 */
export function topGuess(scores: ClassifierScores, model: AnswerRule, homePage: HomePageModel | null = homePageModel()): { id: string; p: number } | null {
  const top = scores.tops[0] ?? null;
  if (top && scores.known >= model.minKnownTokens && top.p >= model.answerThreshold) return top;
  return (homePage ? fallbackOf(scores, homePage, homePage.file.answerThreshold) : null) ?? top;
}

/**
 * The answer for a page's text. With the page's self-description (title, meta and JSON-LD descriptions) given, that
 * is read first and answers when it can: features are distinct words, so the rest of a page (an about page's
 * charity run, a "new: smarter search" banner) can only dilute what the brand says about itself. The whole text
 * answers when the self-description alone does not, through the listing model only: the home-page model learned
 * one-line self-descriptions, and summed over a whole page's words its naive Bayes odds grow sure of whatever the
 * page's boilerplate leans to (on the generated sites, "government and non-profit" for a third of them). Each answer
 * carries its own text's calibrated probability.
 */
export function predictIndustries(text: string, selfDescription?: string): Industry[] {
  const model = industryModel();
  const own = selfDescription ? answerOf(industryScores(selfDescription, model), model) : [];
  return own.length > 0 ? own : answerOf(industryScores(text, model, null), model, null);
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
