/**
 * Optional real-page check (`npm run eval -- --real ../shared/corpus`): the saved real pages of the shared
 * corpus served as their hosts' homepages and crawled (HTML only: their stylesheets and images were not saved).
 * They carry no colour/font/company labels, so what is measured needs none: no page may be flagged NSFW (all are
 * news, media or company pages), the short description must not be cookie, consent or navigation text, and for
 * the brands simple-icons knows, the brand colour is compared with simple-icons' official hex.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { cleanDescription } from '../../src/crawl/fields/identity.js';
import type { EvalMetric } from '../run.js';
import * as icons from 'simple-icons';
import realIndustries from './industries/real-pages-industry.json' with { type: 'json' };
import { brandColorCorrect } from './suite.js';
import type { SiteResult } from './suite.js';
import type { GeneratedSite } from './site-generator.js';

export async function realCorpusSites(corpus: string): Promise<GeneratedSite[]> {
  const dir = path.join(corpus, 'real-pages');
  const labels = JSON.parse(await readFile(path.join(dir, 'labels.json'), 'utf8')) as Record<string, { url?: string; names?: string[] }>;
  const sites: GeneratedSite[] = [];
  for (const name of await readdir(dir)) {
    const url = labels[name]?.url;
    if (!url) continue;
    const body = await readFile(path.join(dir, name, 'input.html'), 'utf8').catch(() => null);
    if (body === null) continue;
    const hex = officialHex(labels[name]?.names ?? []);
    const industry = REAL_INDUSTRIES[name];
    sites.push({
      host: new URL(url).hostname, nsfw: false, truth: null, files: { '/': { type: 'text/html; charset=utf-8', body } },
      ...(hex ? { officialHex: hex } : {}), ...(industry ? { topIndustry: industry } : {}),
    });
  }
  return sites;
}

const REAL_INDUSTRIES = realIndustries as Record<string, string>;
const normalize = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const ICONS = (Object.values(icons) as unknown[]).filter((i): i is { title: string; hex: string } => typeof i === 'object' && i !== null && 'title' in i && 'hex' in i);

/** The simple-icons hex of a brand named in the labels, when simple-icons has it. */
function officialHex(names: string[]): string | null {
  const icon = ICONS.find((i) => names.some((n) => normalize(n) === normalize(i.title)));
  return icon ? `#${icon.hex.toLowerCase()}` : null;
}

export function realCorpusMetrics(results: SiteResult[], failures: string[]): EvalMetric[] {
  const crawled = results.filter((r) => r.draft !== null);
  const colored = crawled.filter((r) => r.site.officialHex);
  const colorHits = colored.filter((r) => r.draft && brandColorCorrect({ brandHex: r.site.officialHex ?? '' }, r.draft));
  for (const r of colored.filter((x) => !colorHits.includes(x))) {
    failures.push(`real ${r.site.host} colour: want ${r.site.officialHex}, got ${r.draft?.colors.map((c) => `${c.hex}/${c.type}`).join(' ') || 'none'}`);
  }
  const flagged = crawled.filter((r) => r.draft?.isNsfw);
  const withDescription = crawled.filter((r) => r.draft?.description);
  const dirty = withDescription.filter((r) => cleanDescription(r.draft?.description) === null);
  for (const r of flagged) failures.push(`real ${r.site.host}: NSFW false positive`);
  for (const r of dirty) failures.push(`real ${r.site.host}: description is boilerplate: ${r.draft?.description}`);
  for (const r of results.filter((x) => x.error)) failures.push(`real ${r.site.host}: crawl failed (${r.error})`);
  const labelled = crawled.filter((r) => r.site.topIndustry);
  const topOf = (r: SiteResult) => r.draft?.company.industries.find((i) => i.parent === null);
  const industryHits = labelled.filter((r) => topOf(r)?.id === r.site.topIndustry);
  const confidence = labelled.reduce((sum, r) => sum + (topOf(r)?.score ?? 0), 0);
  return [
    { name: `real pages: industry top-level top-1 (${industryHits.length}/${labelled.length}, article pages)`, value: labelled.length ? industryHits.length / labelled.length : 0, unit: '%' },
    { name: 'real pages: industry mean top-level score', value: labelled.length ? confidence / labelled.length : 0, unit: '%' },
    { name: `real pages: NSFW false positives (of ${crawled.length})`, value: flagged.length, unit: 'count', target: { value: 0, direction: 'lower' } },
    { name: `real pages: description present (${withDescription.length}/${crawled.length})`, value: crawled.length ? withDescription.length / crawled.length : 0, unit: '%' },
    { name: 'real pages: boilerplate descriptions', value: dirty.length, unit: 'count', target: { value: 0, direction: 'lower' } },
    { name: `real pages: brand colour vs simple-icons (${colorHits.length}/${colored.length}, HTML only)`, value: colored.length ? colorHits.length / colored.length : 0, unit: '%' },
  ];
}
