/**
 * The brand context (`GET /v2/context/{domain}`, docs/context.md, ADR 0035): a compact profile of a brand for
 * language models, built extractively from the text its crawl kept ("context evidence"). Every text field of a
 * profile is a span of text found on one of the brand's own pages, or null / empty when the site does not say it.
 */

/** Bumped when the evidence's shape changes: evidence of another version is not built from (the brand is re-crawled). */
export const CONTEXT_EVIDENCE_VERSION = 1;

export type ContextPageKind = 'home' | 'about' | 'product' | 'pricing';

/** A paragraph or list item with the heading it sits under. */
export interface ContextBlock {
  /** The nearest heading above it (h1-h4), or null. */
  heading: string | null;
  text: string;
}

/** What a JSON-LD node of the page says about the brand or one of its offers (strings only, bounded). */
export interface ContextJsonLd {
  /** The node's first `@type`. */
  type: string;
  name: string | null;
  description: string | null;
  slogan: string | null;
  /** `keywords` and `knowsAbout`, as listed. */
  keywords: string[];
  /** `audience.audienceType` / `audience.name`. */
  audience: string | null;
}

/** The text of one page of the brand's site, as the crawl read it (bounded: context-evidence.ts). */
export interface ContextPage {
  /** Path on the brand's own domain: `/`, `/about`. Never a full URL or a query. */
  path: string;
  kind: ContextPageKind;
  title: string | null;
  /** `<meta name="description">`, else `og:description`. */
  metaDescription: string | null;
  /** `<meta name="keywords">`, split on commas. */
  keywords: string[];
  headings: { level: number; text: string }[];
  blocks: ContextBlock[];
  jsonLd: ContextJsonLd[];
}

export interface ContextEvidence {
  version: number;
  pages: ContextPage[];
}

export interface AudienceSegment {
  segment: string;
  description: string | null;
}

export interface ProductOrService {
  name: string;
  type: 'product' | 'service';
  description: string | null;
}

/** Where a field's text was found: `field` is its JSON path (`identity.tagline`), `page` the page's path. */
export interface ContextSource {
  field: string;
  page: string;
}

export interface ContextLogo {
  type: string;
  theme: string | null;
  format: string;
  url: string;
}

export interface ContextColor {
  hex: string;
  /** The record's colour role: accent, dark, light or brand. */
  type: string;
}

/** The profile answered by the context route (JSON; the Markdown form carries the same facts). */
export interface BrandContext {
  meta: {
    domain: string;
    canonical_name: string | null;
    /** ISO 8601: when the profile was built from the evidence. */
    resolved_at: string;
    /** ISO 8601: when the pages were read (the crawl). */
    observed_at: string;
    sources: ContextSource[];
  };
  identity: {
    tagline: string | null;
    mission: string | null;
    description: string | null;
    tags: string[];
  };
  positioning: {
    value_proposition: string | null;
    target_audience: AudienceSegment[];
    products_and_services: ProductOrService[];
  };
  brand: {
    voice: { summary: string | null; attributes: string[]; avoid: string[] };
    style: { summary: string | null; attributes: string[] };
  };
  links: {
    /** The full brand record (`GET /v2/brands/domain/{domain}`). */
    brand: string;
    logos: ContextLogo[];
    colors: ContextColor[];
  };
}

/** The extractive part of a profile, built once from one evidence and stored with it; meta and links are added per answer. */
export type ContextProfile = Pick<BrandContext, 'identity' | 'positioning' | 'brand'> & { sources: ContextSource[] };
