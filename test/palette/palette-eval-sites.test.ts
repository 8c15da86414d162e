/**
 * Every palette of every eval site (eval/record's labelled sites plus dark-scheme copies, eval/palette), built from
 * the evidence a real crawl kept (parsed CSS) and, with Chromium, from a real render's evidence: valid against the
 * JSON Schema of spec 2.8 (src/http/schemas/palette-schema.ts, also the OpenAPI document's), internally consistent (every referenced HEX listed, contrasts equal
 * to the WCAG formula, ranks 1..n), primary within ΔE_OK 0.05 of the brand's colour on ≥ 90 % of the sites that
 * have a chromatic one and never on monochrome or evidence-less sites, and a dark theme exactly where the site has
 * a dark scheme.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deltaE, isNeutral } from '../../src/domain/color-math.js';
import type { Palette } from '../../src/domain/palette.js';
import { contrastRatio, legibleText, wcagLevel } from '../../src/domain/wcag.js';
import { colorName } from '../../src/palette/color-names.js';
import { hasDarkScheme, paletteRuns, type PaletteRuns } from '../../eval/palette/palette-sites.js';
import { useProcessTimeouts } from '../helpers/process-timeouts.js';
import { PALETTE_COLOR_SCHEMA, PALETTE_SCHEMA } from '../../src/http/schemas/palette-schema.js';
import { CHROMIUM_PATH, needsChromium, needsSpecText, SPEC_TEXT_PATH } from '../helpers/optional.js';

useProcessTimeouts();

const chromium = CHROMIUM_PATH;
const BRAND_COLOR_TOLERANCE = 0.05;
const validate = new Ajv({ allErrors: true, strict: true }).compile(PALETTE_SCHEMA);

let result: PaletteRuns;

beforeAll(async () => {
  result = await paletteRuns({ render: chromium !== null });
}, 900_000);

afterAll(() => undefined);

type Built = { host: string; palette: Palette };

function statics(): Built[] {
  return result.runs.map((r) => ({ host: r.site.host, palette: r.palette }));
}

function rendered(): Built[] {
  return result.runs.flatMap((r) => (r.rendered ? [{ host: r.site.host, palette: r.rendered.palette }] : []));
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Everything the schema cannot say: references, formulas, ranks, one name per HEX. */
function consistencyErrors({ host, palette }: Built): string[] {
  const errors: string[] = [];
  const listed = new Set(palette.colors.map((c) => c.hex));
  if (listed.size !== palette.colors.length) errors.push(`${host}: a HEX is listed twice`);
  const need = (hex: string, what: string): void => {
    if (!listed.has(hex)) errors.push(`${host}: ${what} ${hex} is not in colors`);
  };
  for (const p of palette.onPairs) {
    need(p.background, 'onPair background');
    need(p.text, 'onPair text');
    if (p.contrast !== round2(contrastRatio(p.background, p.text))) errors.push(`${host}: onPair contrast ${p.contrast} is not the WCAG ratio of ${p.background}/${p.text}`);
    if (p.wcag !== wcagLevel(contrastRatio(p.background, p.text))) errors.push(`${host}: onPair level ${p.wcag} wrong`);
  }
  for (const g of palette.gradients) for (const s of g.stops) need(s.hex, 'gradient stop');
  for (const l of palette.logos) for (const c of l.colors) need(c.hex, 'logo colour');
  for (const [name, theme] of Object.entries(palette.themes)) {
    if (theme.contrast !== round2(contrastRatio(theme.background, theme.text))) errors.push(`${host}: ${name} theme contrast wrong`);
  }
  const ranked = palette.colors.filter((c) => c.rank !== null);
  ranked.forEach((c, i) => {
    if (c.rank !== i + 1) errors.push(`${host}: rank ${c.rank} at position ${i + 1}`);
    if ('member' in c) errors.push(`${host}: ranked ${c.hex} has member`);
  });
  for (const c of palette.colors.slice(ranked.length)) if (c.rank !== null || c.member !== true) errors.push(`${host}: ${c.hex} after the ranked colours is not a member`);
  for (const c of palette.colors) {
    if (c.name !== colorName(c.hex)) errors.push(`${host}: ${c.hex} named ${c.name}`);
    if (c.legibleText !== legibleText(c.hex) || c.legibleTextContrast !== round2(contrastRatio(c.hex, c.legibleText))) errors.push(`${host}: legibleText of ${c.hex} wrong`);
    if (c.onColor && c.onColorContrast !== round2(contrastRatio(c.hex, c.onColor))) errors.push(`${host}: onColorContrast of ${c.hex} wrong`);
  }
  if (palette.colors.filter((c) => c.role === 'primary').length > 1) errors.push(`${host}: two primaries`);
  return errors;
}

interface RoleScore {
  hits: number;
  chromatic: number;
  wrongPrimary: string[];
  misses: string[];
}

function roleScore(which: 'static' | 'rendered'): RoleScore {
  const score: RoleScore = { hits: 0, chromatic: 0, wrongPrimary: [], misses: [] };
  for (const run of result.runs) {
    const palette = which === 'static' ? run.palette : run.rendered?.palette;
    if (!palette) continue;
    const primary = palette.colors.find((c) => c.role === 'primary');
    const truth = run.site.truth?.brandHex;
    if (truth && !isNeutral(truth)) {
      score.chromatic += 1;
      if (primary && deltaE(primary.hex, truth) <= BRAND_COLOR_TOLERANCE) score.hits += 1;
      else score.misses.push(`${run.site.host}: want ${truth}, got ${primary?.hex ?? 'none'}`);
    } else if (primary) score.wrongPrimary.push(`${run.site.host}: primary ${primary.hex} on a ${truth ? 'monochrome' : 'no-brand-colour'} site`);
  }
  return score;
}

function darkErrors(which: 'static' | 'rendered'): string[] {
  return result.runs.flatMap((run) => {
    const palette = which === 'static' ? run.palette : run.rendered?.palette;
    if (!palette) return [];
    const want = hasDarkScheme(run.site);
    return (palette.themes.dark !== undefined) === want ? [] : [`${run.site.host}: dark theme ${want ? 'missing' : 'invented'}`];
  });
}

describe('palettes of the eval sites, built from the parsed CSS (no Chromium)', () => {
  it('crawls every eval site', () => {
    expect(result.failed).toEqual([]);
    expect(result.runs.length).toBeGreaterThan(60);
    expect(result.runs.filter((r) => hasDarkScheme(r.site)).length).toBeGreaterThan(10);
  });

  it('every palette validates against the schema of spec 2.8', () => {
    const invalid = statics().flatMap((b) => (validate(b.palette) ? [] : [`${b.host}: ${JSON.stringify(validate.errors?.slice(0, 3))}`]));
    expect(invalid).toEqual([]);
  });

  it('every palette is consistent, and has no on-pairs or element usage (no computed styles without Chromium)', () => {
    expect(statics().flatMap(consistencyErrors)).toEqual([]);
    for (const b of statics()) {
      expect(b.palette.onPairs).toEqual([]);
      expect(b.palette.colors.every((c) => c.usage.elements.length === 0)).toBe(true);
    }
  });

  it('primary is the brand colour on ≥ 90 % of the sites that have one, and absent on monochrome and evidence-less sites', () => {
    const score = roleScore('static');
    expect(score.chromatic).toBeGreaterThan(40);
    expect(score.hits / score.chromatic, score.misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(score.wrongPrimary).toEqual([]);
  });

  it('has a dark theme exactly where the site has a dark scheme', () => {
    expect(darkErrors('static')).toEqual([]);
  });
});

needsChromium('palette').describe('palettes of the eval sites, built from a Chromium render', () => {
  it('renders every eval site', () => {
    expect(rendered().length).toBe(result.runs.length);
  });

  it('every palette validates against the schema of spec 2.8', () => {
    const invalid = rendered().flatMap((b) => (validate(b.palette) ? [] : [`${b.host}: ${JSON.stringify(validate.errors?.slice(0, 3))}`]));
    expect(invalid).toEqual([]);
  });

  it('every palette is consistent; on-pairs and element usage come from the computed styles', () => {
    expect(rendered().flatMap(consistencyErrors)).toEqual([]);
    for (const b of rendered()) {
      expect(b.palette.onPairs.length).toBeGreaterThan(0);
      expect(b.palette.colors.some((c) => c.usage.elements.some((e) => e.element === 'body'))).toBe(true);
    }
  });

  it('primary is the brand colour on ≥ 90 % of the sites that have one, and absent on monochrome and evidence-less sites', () => {
    const score = roleScore('rendered');
    expect(score.hits / score.chromatic, score.misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(score.wrongPrimary).toEqual([]);
  });

  it('has a dark theme exactly where the site has a dark scheme', () => {
    expect(darkErrors('rendered')).toEqual([]);
  });
});

needsSpecText.describe('the schema against the spec text', () => {
  it('names exactly the fields of the palette.colors table', () => {
    const spec = readFileSync(SPEC_TEXT_PATH ?? '', 'utf8');
    const table = spec.slice(spec.indexOf('palette.colors[]'), spec.indexOf('palette.logos[]'));
    const fields = [...table.matchAll(/^\| (\w+) \|/gm)].map((m) => m[1]).filter((f) => f !== 'Field');
    expect(fields.sort()).toEqual(Object.keys(PALETTE_COLOR_SCHEMA.properties).sort());
    expect(spec).toContain('palette tokens / variants / gradients | at most 5 / 8 / 4');
    expect(spec).toContain('at most 2 per element entry, cut to 40 characters');
  });
});
