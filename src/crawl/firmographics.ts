/**
 * The company block and the NSFW flag of a crawled record, from the homepage and its about/contact pages:
 * firmographic facts (company.ts), industries set by content rules (score 1) merged with the classifier's
 * calibrated predictions, and isNsfw from self-labels, the adult industry and age-gate evidence.
 */
import type { Company } from '../domain/brand.js';
import { isPlaceholderText } from '../domain/quality-score.js';
import { bodyText, selfStatements } from './company-text.js';
import { extractCompany } from './company.js';
import type { HtmlPage } from './html-page.js';
import { industryText, predictIndustries } from './industries/industry-classifier.js';
import { ruleIndustries } from './industries/industry-rules.js';
import { sortIndustries } from './industries/taxonomy.js';
import { readJsonLd, type JsonLdNode } from './json-ld.js';
import { detectNsfw, isAdultRated } from './nsfw.js';

/** At most this many industries are listed; the tail of a probability distribution is noise. */
const MAX_INDUSTRIES = 4;

export interface Firmographics {
  company: Company;
  isNsfw: boolean;
}

export function extractFirmographics(page: HtmlPage, jsonLd: JsonLdNode[], aboutPages: HtmlPage[], now: Date, brandName: string | null = null): Firmographics {
  const allJsonLd = [...jsonLd, ...aboutPages.flatMap((p) => readJsonLd(p.$))];
  // About pages speak about the company; on the homepage only first-person or brand-named statements count.
  const text = [...aboutPages.map(bodyText), selfStatements(bodyText(page), [page.label, brandName ?? ''])].join('\n');
  const company = extractCompany(allJsonLd, page.label, text, now);
  const set = ruleIndustries(allJsonLd, page.label, isAdultRated(page));
  const setIds = new Set(set.map((i) => i.id));
  // A predicted industry that contradicts nothing is listed after the set ones; a set one is never overridden.
  // A parked or placeholder page describes the domain market, not a business: nothing to predict.
  const placeholder = isPlaceholderText(`${page.$('title').text()} ${page.$('meta[name="description" i]').attr('content') ?? ''} ${page.$('h1').first().text()}`);
  const predicted = set.length > 0 || placeholder ? [] : predictIndustries(industryText(page, jsonLd, aboutPages)).filter((i) => !setIds.has(i.id));
  const industries = sortIndustries([...set, ...predicted]).slice(0, MAX_INDUSTRIES);
  return { company: { ...company, industries }, isNsfw: detectNsfw(page, industries) };
}
