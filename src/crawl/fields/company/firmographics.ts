/**
 * The company block and the NSFW flag of a crawled record, from the homepage and its about/contact pages:
 * firmographic facts (company.ts), industries set by content rules (score 1) merged with the classifier's
 * calibrated predictions, and isNsfw from self-labels, the adult industry and age-gate evidence.
 */
import type { Company, Industry } from '../../../domain/brand.js';
import { isPlaceholderText } from '../../../domain/quality-score.js';
import { bodyText, legalNameText, selfStatements } from './company-text.js';
import { extractCompany } from './company.js';
import { elementIndex } from '../../page/element-index.js';
import { attrEquals, firstAttr, textOf, textOfAll } from '../../page/element-queries.js';
import type { HtmlPage } from '../../page/html-page.js';
import { industryText, predictIndustries, selfDescriptionText } from '../industries/industry-classifier.js';
import { ruleIndustries } from '../industries/industry-rules.js';
import { sortIndustries } from '../industries/taxonomy.js';
import { readJsonLd, type JsonLdNode } from '../../page/json-ld.js';
import { detectNsfw, isAdultRated } from './nsfw.js';

/** At most this many industries are listed; the tail of a probability distribution is noise. */
const MAX_INDUSTRIES = 4;

export interface Firmographics {
  company: Company;
  isNsfw: boolean;
}

export function extractFirmographics(page: HtmlPage, jsonLd: JsonLdNode[], aboutPages: HtmlPage[], now: Date, brandName: string | null = null): Firmographics {
  const allJsonLd = [...jsonLd, ...aboutPages.flatMap((p) => readJsonLd(p.$))];
  const company = companyOf(page, allJsonLd, aboutPages, now, brandName);
  const industries = industriesOf(page, jsonLd, allJsonLd, aboutPages);
  return { company: { ...company, industries }, isNsfw: detectNsfw(page, industries) };
}

function companyOf(page: HtmlPage, allJsonLd: JsonLdNode[], aboutPages: HtmlPage[], now: Date, brandName: string | null): Company {
  const aboutText = aboutPages.map(bodyText);
  // About pages speak about the company; on the homepage only first-person or brand-named statements count.
  const text = [...aboutText, selfStatements(bodyText(page), [page.label, brandName ?? ''])].join('\n');
  // Footers and the imprint/contact page name the legal entity; its form can tell how the company is held.
  const legalText = [...[page, ...aboutPages].map(legalNameText), ...aboutText].join('\n');
  return extractCompany(allJsonLd, page.label, text, now, { text: legalText, names: [brandName ?? '', page.label] });
}

/**
 * Industries a content rule set (score 1) when the site states its business type; otherwise the classifier's
 * calibrated predictions. A parked or placeholder page describes the domain market, not a business: none.
 */
function industriesOf(page: HtmlPage, jsonLd: JsonLdNode[], allJsonLd: JsonLdNode[], aboutPages: HtmlPage[]): Industry[] {
  const set = ruleIndustries(allJsonLd, page.label, isAdultRated(page));
  if (set.length > 0) return sortIndustries(set).slice(0, MAX_INDUSTRIES);
  if (isPlaceholderText(placeholderProbe(page))) return [];
  return predictIndustries(industryText(page, jsonLd, aboutPages), selfDescriptionText(page, jsonLd)).slice(0, MAX_INDUSTRIES);
}

const DESCRIPTION = attrEquals('name', 'description', true);

/** `$('title').text()`, the meta description and the first <h1>: where a parked page says so. */
function placeholderProbe(page: HtmlPage): string {
  const index = elementIndex(page.$);
  const h1 = index.byTag('h1')[0];
  return `${textOfAll(index.byTag('title'))} ${firstAttr(index.byTag('meta'), DESCRIPTION, 'content') ?? ''} ${h1 ? textOf(h1) : ''}`;
}
