/**
 * `npm run eval` suite for issue 4: crawls every labelled site of eval-sites.ts through the real SafeFetcher
 * (loopback host map) and the real asset store, identifies each stored logo by its pixels, and scores what a
 * user checks first: is the primary logo right, is the icon right, are type and theme right, was another
 * brand's mark chosen, are the tags right, and how long did it take.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crawlBrand, type BrandDraft } from '../../src/crawl/crawl-brand.js';
import { LocalAssetStore } from '../../src/assets/local/local-asset-store.js';
import { SafeFetcher } from '../../src/platform/safe-fetcher.js';
import type { EvalMetric, EvalReport, EvalSuite } from '../run.js';
import { buildEvalSites, type EvalSite } from './eval-sites.js';
import { identify, pixelSignature } from './pixel-signature.js';
import { evalRenderer } from './eval-renderer.js';
import { realSites } from './real-sites.js';
import { serveVirtualHosts } from './virtual-hosts.js';

interface SiteScore {
  site: EvalSite;
  ms: number;
  primaryOk: boolean;
  iconOk: boolean;
  types: { right: number; known: number };
  theme: { right: number; labelled: number };
  thirdParty: string[];
  tags: { right: number; assigned: number };
  notes: string[];
}

export const run: EvalSuite = async ({ realCorpus }) => {
  const sites = await buildEvalSites();
  const real = realCorpus ? await realSites(realCorpus) : [];
  const server = await serveVirtualHosts(Object.fromEntries([...sites, ...real].map((s) => [s.host, s.files])));
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-eval-'));
  const assets = new LocalAssetStore({ dir });
  const fetcher = new SafeFetcher({ hostMap: server.hostMap });
  const renderer = await evalRenderer(fetcher);
  try {
    const scores: SiteScore[] = [];
    for (const site of sites) scores.push(await scoreSite(site, { fetcher, assets, renderer: renderer ?? undefined }));
    const realScores: SiteScore[] = [];
    for (const site of real) realScores.push(await scoreSite(site, { fetcher, assets, renderer: renderer ?? undefined }));
    return withReal(report(scores, renderer !== null), realScores);
  } finally {
    await renderer?.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
};

type Deps = Parameters<typeof crawlBrand>[1];

async function scoreSite(site: EvalSite, deps: Deps): Promise<SiteScore> {
  const started = performance.now();
  const outcome = await crawlBrand(site.host, deps, { timeoutMs: 20_000 });
  const ms = performance.now() - started;
  const score: SiteScore = { site, ms, primaryOk: false, iconOk: false, types: { right: 0, known: 0 }, theme: { right: 0, labelled: 0 }, thirdParty: [], tags: { right: 0, assigned: 0 }, notes: [] };
  if (!outcome.ok) {
    score.notes.push(`crawl failed: ${outcome.reason}`);
    return score;
  }
  const registry = new Map<string, Uint8Array>();
  for (const [id, bytes] of Object.entries(site.registry)) {
    const signature = await pixelSignature(bytes);
    if (signature) registry.set(id, signature);
  }
  const entries = await Promise.all(outcome.draft.logos.map(async (logo) => ({ logo, id: identify(await pixelSignature(await storedBytes(deps, logo.formats[0]?.src)), registry) })));
  judge(score, site, entries);
  return score;
}

async function storedBytes(deps: Deps, src: string | undefined): Promise<Buffer> {
  const stored = src ? await deps.assets.get(src) : null;
  return stored?.bytes ?? Buffer.alloc(0);
}

type Entry = { logo: BrandDraft['logos'][number]; id: string | null };

function judge(score: SiteScore, site: EvalSite, entries: Entry[]): void {
  const { label } = site;
  const marks = entries.filter((e) => e.logo.type === 'logo' || e.logo.type === 'symbol');
  const primary = marks[0];
  score.primaryOk = label.primary === null ? primary === undefined : primary?.id === label.primary;
  if (!score.primaryOk) score.notes.push(`primary: expected ${label.primary ?? 'none'}, got ${primary ? `${primary.id ?? 'unknown file'} (${primary.logo.type})` : 'none'}`);
  const icon = entries.find((e) => e.logo.type === 'icon');
  score.iconOk = label.icon.length === 0 ? icon === undefined : icon !== undefined && label.icon.includes(icon.id ?? '');
  if (!score.iconOk) score.notes.push(`icon: expected ${label.icon.join('|') || 'none'}, got ${icon ? icon.id ?? 'unknown file' : 'none'}`);
  for (const e of entries) {
    const expected = e.id === label.primary || e.id === label.variant?.id ? label.primaryType : e.id && label.icon.includes(e.id) ? 'icon' : null;
    if (expected) {
      score.types.known++;
      if (e.logo.type === expected) score.types.right++;
      else score.notes.push(`type of ${e.id}: expected ${expected}, got ${e.logo.type}`);
    }
    if (e.id && label.thirdParty.includes(e.id)) score.thirdParty.push(e.id);
    for (const tag of e.logo.tags) {
      score.tags.assigned++;
      if (e.id === label.primary && label.allowedTags.includes(tag)) score.tags.right++;
      else score.notes.push(`wrong tag ${tag} on ${e.id ?? 'unknown file'}`);
    }
  }
  judgeThemes(score, site, marks);
}

function judgeThemes(score: SiteScore, site: EvalSite, marks: Entry[]): void {
  const { label } = site;
  const checks: { id: string; theme: 'dark' | 'light' | null }[] = [];
  if (label.theme !== undefined && label.primary) checks.push({ id: label.primary, theme: label.theme });
  if (label.variant) checks.push(label.variant);
  for (const check of checks) {
    score.theme.labelled++;
    const entry = marks.find((m) => m.id === check.id);
    if (entry?.logo.theme === check.theme) score.theme.right++;
    else score.notes.push(`theme of ${check.id}: expected ${check.theme}, got ${entry ? entry.logo.theme : 'not listed'}`);
  }
}

function report(scores: SiteScore[], rendering: boolean): EvalReport {
  const n = scores.length;
  const share = (f: (s: SiteScore) => boolean) => scores.filter(f).length / Math.max(1, n);
  const sum = (f: (s: SiteScore) => number) => scores.reduce((acc, s) => acc + f(s), 0);
  const times = scores.map((s) => s.ms).sort((a, b) => a - b);
  const tagsAssigned = sum((s) => s.tags.assigned);
  const metrics: EvalMetric[] = [
    { name: 'primary logo correct', value: share((s) => s.primaryOk), target: { value: 0.95, direction: 'higher' }, unit: '%' },
    { name: 'icon correct', value: share((s) => s.iconOk), target: { value: 0.95, direction: 'higher' }, unit: '%' },
    { name: 'type accuracy (listed logos with a known type)', value: sum((s) => s.types.right) / Math.max(1, sum((s) => s.types.known)), unit: '%' },
    { name: `theme accuracy (${sum((s) => s.theme.labelled)} labelled marks)`, value: sum((s) => s.theme.right) / Math.max(1, sum((s) => s.theme.labelled)), target: { value: 0.95, direction: 'higher' }, unit: '%' },
    { name: 'third-party logos chosen', value: sum((s) => s.thirdParty.length), target: { value: 0, direction: 'lower' }, unit: 'count' },
    { name: `tags precision (${tagsAssigned} tags assigned)`, value: tagsAssigned === 0 ? 1 : sum((s) => s.tags.right) / tagsAssigned, unit: '%' },
    { name: 'per-site time, median', value: times[Math.floor(n / 2)] ?? 0, unit: 'ms' },
    { name: 'per-site time, max', value: times[n - 1] ?? 0, unit: 'ms' },
  ];
  const failures = scores.filter((s) => s.notes.length > 0 || s.thirdParty.length > 0).map((s) => `${s.site.host} [${s.site.scenario}]: ${[...s.notes, ...s.thirdParty.map((t) => `chose third-party ${t}`)].join('; ')}`);
  if (!rendering) failures.push('Chromium not found: JavaScript-built sites were crawled statically (set BRANDBASE_CHROMIUM_PATH or install chromium)');
  return { suite: `logos, icons and images (issue 4)${rendering ? ', rendering on' : ', rendering off'}`, sites: n, metrics, failures };
}

/** Real recordings are scored apart from the generated corpus: few sites, hand labels, no targets. */
function withReal(base: EvalReport, scores: SiteScore[]): EvalReport {
  if (scores.length === 0) return base;
  const checks = scores.flatMap((s) => [s.primaryOk, s.iconOk, s.thirdParty.length === 0]);
  const failures = scores.filter((s) => s.notes.length > 0 || s.thirdParty.length > 0).map((s) => `${s.site.host} [${s.site.scenario}]: ${[...s.notes, ...s.thirdParty.map((t) => `chose third-party ${t}`)].join('; ')}`);
  return {
    ...base,
    metrics: [...base.metrics, { name: `real recordings (${scores.map((s) => s.site.host).join(', ')}): primary, icon, no third party`, value: checks.filter(Boolean).length / checks.length, unit: '%', kind: 'regression' }],
    failures: [...base.failures, ...failures],
  };
}
