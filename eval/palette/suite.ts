/**
 * `npm run eval` suite for the palette (issue 17): the palette's primary role against the brand colour of the
 * labelled generated sites (eval/record) and their dark-scheme copies, built from the parsed CSS and, when Chromium
 * is installed, from a render. Generated sites were written together with the rules: regression gates, not accuracy.
 */
import { deltaE, isNeutral } from '../../src/domain/color-math.js';
import { findChromium } from '../../src/crawl/fetch/render/browser-renderer.js';
import type { Palette } from '../../src/domain/palette.js';
import type { EvalMetric, EvalSuite } from '../run.js';
import { realCorpusSites } from '../record/real-corpus.js';
import type { GeneratedSite } from '../record/site-generator.js';
import { hasDarkScheme, paletteRuns, type PaletteRun } from './palette-sites.js';

const TOLERANCE = 0.05;

function metricsFor(label: string, runs: PaletteRun[], pick: (r: PaletteRun) => Palette | null, failures: string[]): EvalMetric[] {
  let chromatic = 0, hits = 0, wrongPrimary = 0, darkRight = 0, built = 0;
  for (const run of runs) {
    const palette = pick(run);
    if (!palette) continue;
    built += 1;
    const primary = palette.colors.find((c) => c.role === 'primary');
    const truth = run.site.truth?.brandHex;
    if (truth && !isNeutral(truth)) {
      chromatic += 1;
      if (primary && deltaE(primary.hex, truth) <= TOLERANCE) hits += 1;
      else failures.push(`${label} ${run.site.host} primary [${run.site.truth?.colorVariant}]: want ${truth}, got ${primary?.hex ?? 'none'}`);
    } else if (primary) {
      wrongPrimary += 1;
      failures.push(`${label} ${run.site.host}: primary ${primary.hex} on a site without a chromatic brand colour`);
    }
    const darkOk = (palette.themes.dark !== undefined) === hasDarkScheme(run.site);
    darkRight += Number(darkOk);
    if (!darkOk) failures.push(`${label} ${run.site.host}: dark theme ${hasDarkScheme(run.site) ? 'missing' : 'invented'}`);
  }
  return [
    { name: `${label}: primary within ΔE_OK ${TOLERANCE} (${hits}/${chromatic})`, value: chromatic ? hits / chromatic : 0, unit: '%', target: { value: 0.9, direction: 'higher' } },
    { name: `${label}: primary on monochrome/no-colour sites`, value: wrongPrimary, unit: 'count', target: { value: 0, direction: 'lower' } },
    { name: `${label}: dark theme exactly where a dark scheme is (${darkRight}/${built})`, value: built ? darkRight / built : 0, unit: '%', target: { value: 1, direction: 'higher' } },
  ];
}

/**
 * Real saved pages of the shared corpus with a simple-icons colour for the brand (held-out: the rules were not
 * written against them): primary within ΔE_OK 0.05 of that colour, from the parsed CSS (the saved page and what
 * of its stylesheets the corpus holds). Pages are crawled in rounds in which no host repeats.
 */
async function realCorpusMetrics(corpus: string, failures: string[]): Promise<EvalMetric[]> {
  const sites = (await realCorpusSites(corpus)).filter((s) => s.officialHex && !isNeutral(s.officialHex));
  const rounds: GeneratedSite[][] = [];
  for (const site of sites) {
    const round = rounds.find((r) => !r.some((other) => other.host === site.host));
    if (round) round.push(site);
    else rounds.push([site]);
  }
  let hits = 0, withPrimary = 0, total = 0;
  for (const round of rounds) {
    const result = await paletteRuns({ render: false, sites: round });
    for (const r of result.runs) {
      total += 1;
      const primary = r.palette.colors.find((c) => c.role === 'primary');
      withPrimary += Number(primary !== undefined);
      if (primary && deltaE(primary.hex, r.site.officialHex ?? '') <= TOLERANCE) hits += 1;
      else failures.push(`real ${r.site.corpusPage ?? r.site.host} primary: want ${r.site.officialHex}, got ${primary?.hex ?? 'none'}`);
    }
  }
  return [
    { name: `real pages: primary within ΔE_OK ${TOLERANCE} of the official colour (${hits}/${total})`, value: total ? hits / total : 0, unit: '%', kind: 'held-out' },
    { name: `real pages: right when a primary is named (${hits}/${withPrimary})`, value: withPrimary ? hits / withPrimary : 0, unit: '%', kind: 'held-out' },
  ];
}

export const run: EvalSuite = async ({ realCorpus }) => {
  const rendering = findChromium(process.env['BRANDBASE_CHROMIUM_PATH']) !== null;
  const result = await paletteRuns({ render: rendering });
  const failures = result.failed.map((f) => `crawl failed: ${f}`);
  const metrics = metricsFor('parsed CSS', result.runs, (r) => r.palette, failures);
  if (rendering) metrics.push(...metricsFor('Chromium render', result.runs, (r) => r.rendered?.palette ?? null, failures));
  if (realCorpus) metrics.push(...(await realCorpusMetrics(realCorpus, failures)));
  const notes = [
    `${result.runs.filter((r) => hasDarkScheme(r.site)).length} of the sites are dark-scheme copies of brand sites (eval/palette/palette-sites.ts)`,
    'the primary role is the brand record\'s accent (docs/palette.md): these figures follow the record suite\'s brand colour figure on the same sites',
    rendering ? 'Chromium rendered every site for the second set of figures' : 'no Chromium: the render figures were not measured',
  ];
  return { suite: 'palette (primary role, dark theme)', sites: result.runs.length, metrics, failures, notes };
};
