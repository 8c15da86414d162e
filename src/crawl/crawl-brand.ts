/**
 * Live indexing of one brand from its own website: the homepage, its stylesheets, its web manifest and its
 * icon/logo/banner files, within one time budget and at most 4 requests in flight. Every field of the draft
 * record holds what the site provides, or the empty/null value when it provides nothing (never a placeholder).
 */
import type { Brand } from '../domain/brand.js';
import type { CrawlFailureReason } from '../domain/crawl-failures.js';
import type { PaletteEvidence } from '../domain/palette.js';
import { paletteEvidence } from './fields/palette-evidence/palette-evidence.js';
import { qualityScore } from '../domain/quality-score.js';
import type { AssetStore } from '../assets/asset-store.js';
import { StagedAssetStore } from '../assets/staged-asset-store.js';
import type { Fetcher } from '../platform/fetcher.js';
import { extractColors } from './fields/colors/colors.js';
import { fetchAboutPages, findAboutPageUrls } from './fetch/about-pages.js';
import { createCrawlBudget } from './crawl-budget.js';
import type { CrawlLimits } from './crawl-limits.js';
import { extractFonts } from './fields/fonts/fonts.js';
import { fetchHomepage } from './fetch/fetch-homepage.js';
import { parseHtmlPage, type HtmlPage } from './page/html-page.js';
import { fetchPicturePages } from './fetch/picture-pages.js';
import { extractFirmographics } from './fields/company/firmographics.js';
import { extractIdentity } from './fields/identity.js';
import { collectImages } from './fields/images/brand-images.js';
import type { CrawlAssetDeps } from './fetch/ingest-remote-image.js';
import { AnalysisMemo, type AnalysisCounts, type AnalysisRecord } from './analysis-memo.js';
import type { MarkSignature } from '../domain/brand-announcement.js';
import { readJsonLd, type JsonLdNode } from './page/json-ld.js';
import { extractLinks } from './fields/links.js';
import { findIconCandidates, findMarkCandidates } from './fields/logos/logo-candidates.js';
import { buildLogos } from './fields/logos/logos.js';
import { fetchManifest, type WebManifest } from './fetch/manifest.js';
import type { ParsedCss } from './page/parse-css.js';
import { collectStylesheets } from './fetch/stylesheets.js';
import type { PageRenderer } from './fetch/render/page-renderer.js';
import { renderIfNeeded } from './fetch/render/render-if-needed.js';
import type { ContextEvidence } from '../domain/brand-context.js';
import type { LogoEvidence } from '../domain/logo-evidence.js';
import { contextEvidence, type EvidencePage } from './fields/context-evidence.js';
import { fetchPricingPage } from './fetch/pricing-page.js';

export type BrandDraft = Omit<Brand, 'id' | 'urn' | 'palette'>;

/** What a crawl's content-hash cache used and found (analysis-memo.ts); plain data, it crosses to the indexer. */
export interface CrawlAnalysis {
  /** The analyses this crawl used: the domain's cache entries for its next re-crawl. */
  entries: AnalysisRecord[];
  /** Perceptual signatures of the files it met, by asset key (change detection). */
  marks: [string, MarkSignature][];
  counts: AnalysisCounts;
}

export type CrawlOutcome =
  | {
      ok: true;
      /** Registrable domain of the homepage URL after redirects. */ domain: string;
      draft: BrandDraft;
      /** What the crawl observed of the site's colours, kept with the brand for its palette (ADR 0023). */
      paletteEvidence?: PaletteEvidence;
      /** The text of the pages it read, kept with the brand for its context profile (ADR 0035). */
      contextEvidence?: ContextEvidence;
      /** How the logos were chosen among the candidates, kept with the brand for its page (ADR 0044). */
      logoEvidence?: LogoEvidence;
      /** The crawl's content-hash cache use and the files' mark signatures (absent from crawlers that keep none). */
      analysis?: CrawlAnalysis;
    }
  /** `crawl_error` when the crawl worker running it died or was stopped (ADR 0014); the crawl itself fails with the others. */
  | { ok: false; reason: CrawlFailureReason; message: string };

export interface CrawlDeps {
  fetcher: Fetcher;
  assets: AssetStore;
  now?: () => Date;
  /** Headless-browser rendering for JavaScript-built homepages; absent when Chromium is not installed. */
  renderer?: PageRenderer;
  /** The analyses the domain's last crawl used (content-hash cache, ADR 0030); none on a first crawl. */
  knownAnalyses?: readonly AnalysisRecord[];
}

export interface CrawlOptions {
  /** Whole-crawl budget in milliseconds. */
  timeoutMs?: number;
  /** Bounds on what the site can make the crawl parse and decode (crawl-limits.ts); the defaults when absent. */
  limits?: Readonly<CrawlLimits>;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const MAX_CONCURRENT_REQUESTS = 4;

export async function crawlBrand(domain: string, deps: CrawlDeps, opts: CrawlOptions = {}): Promise<CrawlOutcome> {
  const budget = createCrawlBudget(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_CONCURRENT_REQUESTS, Date.now, opts.limits);
  try {
    const home = await fetchHomepage(domain, deps.fetcher, budget);
    if (!home.ok) return home;
    const staticPage = parseHtmlPage(home.result.body, home.result.url, home.result.headers['content-type'], budget.limits.html);
    const page = await renderIfNeeded(staticPage, deps.renderer, budget);
    // One staging area and one ingest memo for the whole crawl: logos, banners and pictures share downloads.
    const analyses = new AnalysisMemo(deps.knownAnalyses);
    const assetDeps: CrawlAssetDeps = { fetcher: deps.fetcher, assets: new StagedAssetStore(deps.assets), budget, ingested: new Map(), analyses };
    const { draft, evidence, context, logoEvidence } = await extractDraft(page, assetDeps, deps.now ?? (() => new Date()));
    const analysis: CrawlAnalysis = { entries: analyses.entries(), marks: [...analyses.marks], counts: { ...analyses.counts } };
    return { ok: true, domain: page.domain, draft, paletteEvidence: evidence, contextEvidence: context, logoEvidence, analysis };
  } finally {
    budget.dispose();
  }
}

/** Sub-resources that fail or run out of budget are missing evidence, not a failed crawl. */
async function extractDraft(
  page: HtmlPage,
  deps: CrawlAssetDeps,
  now: () => Date,
): Promise<{ draft: BrandDraft; evidence: PaletteEvidence; context: ContextEvidence; logoEvidence: LogoEvidence }> {
  const jsonLd = readJsonLd(page.$);
  const aboutUrls = findAboutPageUrls(page);
  const [manifest, css, aboutPages, productPages, pricingPage] = await Promise.all([
    fetchManifest(page, deps.fetcher, deps.budget),
    collectStylesheets(page, deps.fetcher, deps.budget),
    fetchAboutPages(page, deps.fetcher, deps.budget, aboutUrls),
    // The product pages pictures come from are linked from the homepage too: fetched in the same round.
    fetchPicturePages(page, deps.fetcher, deps.budget, aboutUrls),
    // The pricing page is read for the context profile only (ADR 0035).
    fetchPricingPage(page, deps.fetcher, deps.budget, aboutUrls),
  ]);
  const identity = extractIdentity({ page, jsonLd, manifest, aboutPages });
  // Image files are fetched and decoded (partly on sharp's threads) while the text extractors run.
  const pendingVisuals = extractVisuals({ page, jsonLd, manifest, css, brandName: identity.name, aboutPages, productPages }, deps);
  const links = extractLinks(page, jsonLd);
  const fonts = extractFonts({ page, css });
  const firmographics = extractFirmographics(page, jsonLd, aboutPages, now(), identity.name);
  const { logoEvidence, ...visuals } = await pendingVisuals;
  const record = {
    name: identity.name,
    domain: page.domain,
    claimed: false,
    description: identity.description,
    longDescription: identity.longDescription,
    links,
    ...visuals,
    fonts,
    ...firmographics,
  };
  const at = now();
  const draft = { ...record, qualityScore: qualityScore({ ...record, crawledAt: at, now: at }) };
  const pages: EvidencePage[] = [{ page, kind: 'home' }, ...aboutPages.map((p): EvidencePage => ({ page: p, kind: 'about' })), ...productPages.map((p): EvidencePage => ({ page: p, kind: 'product' }))];
  if (pricingPage) pages.push({ page: pricingPage, kind: 'pricing' });
  return { draft, evidence: paletteEvidence({ page, css, manifest }), context: contextEvidence(pages), logoEvidence };
}

interface VisualSources {
  page: HtmlPage;
  jsonLd: JsonLdNode[];
  manifest: WebManifest | null;
  css: ParsedCss[];
  brandName: string | null;
  aboutPages: HtmlPage[];
  productPages: HtmlPage[];
}

async function extractVisuals(sources: VisualSources, deps: CrawlAssetDeps): Promise<Pick<BrandDraft, 'logos' | 'colors' | 'images'> & { logoEvidence: LogoEvidence }> {
  const { page, jsonLd, manifest, css, brandName, aboutPages, productPages } = sources;
  const icons = findIconCandidates(page, manifest);
  const marks = findMarkCandidates({ page, jsonLd, brandName, cssRules: css.flatMap((s) => s.rules), sheets: css });
  const pendingLogos = buildLogos(icons, marks, deps, brandName);
  const [logos, images] = await Promise.all([pendingLogos, collectImages({ page, sheets: css, aboutPages, productPages, brandName }, deps, pendingLogos)]);
  return {
    logos: logos.logos,
    colors: extractColors({ page, css, manifest, logoColors: logos.logoColors }),
    images,
    logoEvidence: logos.evidence,
  };
}
