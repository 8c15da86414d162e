/**
 * `npm run eval` suite for the brand record (issue 5): colours, fonts, company facts, industries, NSFW and the
 * quality score, measured on labelled fixture sites built from real brand data (brands.ts, site-generator.ts,
 * control-sites.ts), served on loopback and crawled with the real crawlBrand and SafeFetcher.
 */
import { createHash } from 'node:crypto';
import { crawlBrand, type BrandDraft } from '../../src/crawl/crawl-brand.js';
import { deltaE, isNeutral } from '../../src/domain/color-math.js';
import type { AssetStore, StoredAsset } from '../../src/assets/asset-store.js';
import { SafeFetcher } from '../../src/platform/safe-fetcher.js';
import { taxonomyEntry } from '../../src/crawl/fields/industries/taxonomy.js';
import type { EvalMetric, EvalSuite } from '../run.js';
import { BRANDS } from './brands.js';
import { controlSites } from './control-sites.js';
import { readLabelled } from './industries/labelled.js';
import { JACCARD_THRESHOLD, SHARED_RUN_THRESHOLD, trainingOverlap } from './industries/training-overlap.js';
import { crawlRealSites, realCorpusMetrics, realCorpusSites } from './real-corpus.js';
import { realIdentityMetrics } from './real-identity.js';
import { serveSites } from './serve-sites.js';
import { buildBrandSite, type CompanyTruth, type FontTruth, type GeneratedSite, type SiteTruth } from './site-generator.js';

/** ΔE_OK within which the extracted brand colour counts as the official one (issue 5). */
export const BRAND_COLOR_TOLERANCE = 0.05;
const CRAWL_TIMEOUT_MS = 20_000;
const CONCURRENT_CRAWLS = 6;

class MemoryAssets implements AssetStore {
  private readonly files = new Map<string, Buffer>();
  async put(bytes: Buffer, ext: 'svg' | 'png' | 'webp' | 'jpeg'): Promise<StoredAsset> {
    const key = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
    this.files.set(key, bytes);
    return { key, size: bytes.length };
  }
  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const bytes = this.files.get(key);
    return bytes ? { bytes, contentType: 'application/octet-stream' } : null;
  }
}

export interface SiteResult {
  site: GeneratedSite;
  draft: BrandDraft | null;
  error: string | null;
}

export async function crawlSites(sites: GeneratedSite[]): Promise<SiteResult[]> {
  const served = await serveSites(sites);
  const fetcher = new SafeFetcher({ hostMap: served.hostMap });
  const assets = new MemoryAssets();
  const results: SiteResult[] = [];
  try {
    for (let i = 0; i < sites.length; i += CONCURRENT_CRAWLS) {
      const batch = sites.slice(i, i + CONCURRENT_CRAWLS);
      results.push(...(await Promise.all(batch.map(async (site) => {
        const outcome = await crawlBrand(site.host, { fetcher, assets }, { timeoutMs: CRAWL_TIMEOUT_MS });
        return outcome.ok ? { site, draft: outcome.draft, error: null } : { site, draft: null, error: `${outcome.reason}: ${outcome.message}` };
      }))));
    }
  } finally {
    await served.close();
  }
  return results;
}

export async function allSites(): Promise<GeneratedSite[]> {
  return [...(await Promise.all(BRANDS.map((brand, i) => buildBrandSite(brand, i)))), ...controlSites()];
}

// ---------------------------------------------------------------- scoring

/** The extracted brand colour: the accent, else the first `brand` colour; for a monochrome truth, see below. */
export function brandColorCorrect(truth: Pick<SiteTruth, 'brandHex'>, draft: BrandDraft): boolean {
  const accent = draft.colors.find((c) => c.type === 'accent');
  if (isNeutral(truth.brandHex)) {
    // A monochrome brand: no chromatic accent may be invented, and its near-black/white must be listed.
    return !draft.colors.some((c) => c.type === 'accent' && !isNeutral(c.hex)) && draft.colors.some((c) => deltaE(c.hex, truth.brandHex) <= BRAND_COLOR_TOLERANCE);
  }
  return accent !== undefined && deltaE(accent.hex, truth.brandHex) <= BRAND_COLOR_TOLERANCE;
}

export function fontCorrect(truth: FontTruth, draft: BrandDraft, type: 'title' | 'body'): boolean {
  const font = draft.fonts.find((f) => f.type === type);
  return font !== undefined && (font.name ?? '').toLowerCase() === truth.name.toLowerCase() && font.origin === truth.origin;
}

export function companyChecks(truth: CompanyTruth, draft: BrandDraft): { field: string; ok: boolean; got: unknown; want: unknown }[] {
  const c = draft.company;
  const got: Record<keyof CompanyTruth, unknown> = {
    foundedYear: c.foundedYear, employees: c.employees, city: c.location.city, countryCode: c.location.countryCode,
    region: c.location.region, kind: c.kind, ticker: c.financialIdentifiers?.ticker[0],
  };
  return (Object.keys(truth) as (keyof CompanyTruth)[])
    .filter((field) => truth[field] !== undefined)
    .map((field) => ({ field, ok: got[field] === truth[field], got: got[field], want: truth[field] }));
}

function pct(name: string, hits: number, total: number, target?: number): EvalMetric {
  return { name: `${name} (${hits}/${total})`, value: total ? hits / total : 0, unit: '%', ...(target !== undefined ? { target: { value: target, direction: 'higher' as const } } : {}) };
}

export const run: EvalSuite = async ({ realCorpus }) => {
  const results = await crawlSites(await allSites());
  const failures: string[] = [];
  const brandResults = results.filter((r) => r.site.truth !== null);
  const crawled = brandResults.filter((r): r is SiteResult & { draft: BrandDraft } => r.draft !== null);
  for (const r of results) if (r.error) failures.push(`${r.site.host}: crawl failed (${r.error})`);

  // Descriptions that paraphrase a training sentence measure recall of the training file, not classification:
  // they are left out of the industry accuracy figure (training-overlap.ts says how they are found).
  const training = await readLabelled();
  const paraphrases = new Map<string, ReturnType<typeof trainingOverlap>>();
  for (const { site } of crawled) {
    const overlap = trainingOverlap((site.truth as SiteTruth).description, training);
    if (overlap.paraphrase) paraphrases.set(site.host, overlap);
  }
  let colorHits = 0, titleHits = 0, bodyHits = 0, bothHits = 0, companyHits = 0, companyTotal = 0, topHits = 0, subHits = 0, upper = 0, topConfidence = 0;
  let heldOutTop = 0, heldOutSub = 0, heldOutConfidence = 0;
  for (const { site, draft } of crawled) {
    const truth = site.truth as SiteTruth;
    const colorOk = brandColorCorrect(truth, draft);
    colorHits += Number(colorOk);
    if (!colorOk) failures.push(`${site.host} colour [${truth.colorVariant}]: want ${truth.brandHex}, got ${draft.colors.map((c) => `${c.hex}/${c.type}`).join(' ') || 'none'}`);
    const titleOk = fontCorrect(truth.title, draft, 'title');
    const bodyOk = fontCorrect(truth.body, draft, 'body');
    titleHits += Number(titleOk);
    bodyHits += Number(bodyOk);
    bothHits += Number(titleOk && bodyOk);
    if (!titleOk || !bodyOk) failures.push(`${site.host} fonts [${truth.fontVariant}]: want ${truth.title.name}/${truth.title.origin} + ${truth.body.name}/${truth.body.origin}, got ${draft.fonts.map((f) => `${f.type}=${f.name}/${f.origin}`).join(' ')}`);
    for (const check of companyChecks(truth.company, draft)) {
      companyTotal += 1;
      companyHits += Number(check.ok);
      if (!check.ok) failures.push(`${site.host} company.${check.field} [${truth.companyVariant}]: want ${String(check.want)}, got ${String(check.got)}`);
    }
    const top = draft.company.industries.find((i) => i.parent === null);
    const sub = draft.company.industries.find((i) => i.parent !== null);
    const wantTop = taxonomyEntry(truth.industry)?.parent;
    topHits += Number(top?.id === wantTop);
    topConfidence += top?.score ?? 0;
    subHits += Number(sub?.id === truth.industry);
    if (!paraphrases.has(site.host)) {
      heldOutTop += Number(top?.id === wantTop);
      heldOutSub += Number(sub?.id === truth.industry);
      heldOutConfidence += top?.score ?? 0;
    }
    if (top?.id !== wantTop) failures.push(`${site.host} industry: want ${wantTop}/${truth.industry}, got ${draft.company.industries.map((i) => `${i.slug}:${i.score}`).join(' ') || 'none'}`);
    upper += Number(draft.qualityScore >= 2 / 3);
  }
  const withDraft = results.filter((r) => r.draft !== null);
  const falsePositives = withDraft.filter((r) => !r.site.nsfw && r.draft?.isNsfw);
  const truePositives = withDraft.filter((r) => r.site.nsfw && r.draft?.isNsfw);
  const positives = results.filter((r) => r.site.nsfw);
  for (const r of falsePositives) failures.push(`${r.site.host}: NSFW false positive`);
  for (const r of positives.filter((p) => !p.draft?.isNsfw)) failures.push(`${r.site.host}: NSFW site not flagged`);
  const lowControls = results.filter((r) => r.site.lowQuality);
  const lowMisses = lowControls.filter((r) => (r.draft?.qualityScore ?? 0) >= 1 / 3);
  for (const r of lowMisses) failures.push(`${r.site.host}: placeholder scored ${r.draft?.qualityScore}`);

  const n = crawled.length;
  const heldOut = n - paraphrases.size;
  const metrics: EvalMetric[] = [
    pct('brand sites crawled', n, brandResults.length, 1),
    pct(`brand colour within ΔE_OK ${BRAND_COLOR_TOLERANCE}`, colorHits, n, 0.8),
    pct('title font (family and origin)', titleHits, n, 0.9),
    pct('body font (family and origin)', bodyHits, n, 0.9),
    pct('title and body fonts both right', bothHits, n),
    pct('company fields stated in the page, extracted right', companyHits, companyTotal, 0.95),
    pct('industry: top-level top-1, all generated sites', topHits, n),
    pct('industry: sub-industry top-1, all generated sites', subHits, n),
    { name: 'industry: mean top-level score, all generated sites', value: n ? topConfidence / n : 0, unit: '%' },
    // Held out from the classifier's training file, but generated sites written by the team that wrote the rules:
    // regression, not evidence on unseen text (eval/industries/ has the held-out figures).
    { ...pct(`industry: top-level top-1, descriptions unlike the training file`, heldOutTop, heldOut), kind: 'regression' },
    { ...pct(`industry: sub-industry top-1, descriptions unlike the training file`, heldOutSub, heldOut), kind: 'regression' },
    { name: `industry: mean top-level score, same ${heldOut} sites (calibration: ≈ accuracy)`, value: heldOut ? heldOutConfidence / heldOut : 0, unit: '%', kind: 'regression' },
    { name: 'NSFW false positives (clean sites)', value: falsePositives.length, unit: 'count', target: { value: 0, direction: 'lower' } },
    pct('NSFW sites flagged', truePositives.length, positives.length),
    pct('real brands in the upper third of qualityScore', upper, n),
    { name: 'placeholder/parked pages above the lower third', value: lowMisses.length, unit: 'count', target: { value: 0, direction: 'lower' } },
  ];
  const identityNotes: string[] = [];
  if (realCorpus) {
    const real = await crawlRealSites(await realCorpusSites(realCorpus), crawlSites);
    metrics.push(...realCorpusMetrics(real, failures));
    metrics.push(...realIdentityMetrics(real, failures, identityNotes));
  }
  const notes = [
    ...identityNotes,
    `industry accuracy leaves out ${paraphrases.size} of ${n} generated sites whose description paraphrases a training sentence of eval/record/industries/labelled.tsv (content-word Jaccard ≥ ${JACCARD_THRESHOLD} or ≥ ${SHARED_RUN_THRESHOLD} words in a row shared): ${[...paraphrases.keys()].map((host) => host.replace(/\.test$/, '')).join(', ')}`,
    'the descriptions are still one-sentence self-descriptions written for this project, like the training file: even the kept ones are close to the training distribution; real pages measure the rest',
  ];
  return { suite: 'record (colours, fonts, company, industries, NSFW, quality)', sites: results.length, metrics, failures, notes };
};
