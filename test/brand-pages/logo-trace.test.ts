/** traceLogoDecision (ADR 0044): every candidate gets an outcome and a reason; the trace stays bounded. */
import { describe, expect, it } from 'vitest';
import type { IconCandidate, MarkCandidate } from '../../src/crawl/fields/logos/logo-candidates.js';
import { isSquare } from '../../src/crawl/fields/logos/logos.js';
import { traceLogoDecision, type Weighed } from '../../src/crawl/fields/logos/logo-trace.js';
import type { ImageFormat } from '../../src/domain/brand.js';
import { MAX_LOGO_EVIDENCE_CANDIDATES } from '../../src/domain/logo-evidence.js';
import type { IngestedImage } from '../../src/media/ingest-image.js';

let counter = 0;
function image(format: ImageFormat, width: number, height: number, options: { uniform?: boolean; sha?: string } = {}): IngestedImage {
  counter += 1;
  const sha256 = options.sha ?? counter.toString(16).padStart(64, '0');
  return {
    original: { src: `${sha256}.${format}`, format, width, height, size: 100, background: null },
    sourceFormat: format,
    width,
    height,
    transparentEdges: false,
    theme: null,
    dominantColors: [],
    sha256,
    assetKey: `${sha256}.${format}`,
    uniform: options.uniform ?? false,
    dhash: '0'.repeat(16),
  };
}

const icon = (kind: IconCandidate['kind'], img: IngestedImage | null, declaredSize = 0): Weighed<IconCandidate> => ({
  candidate: { kind, url: `https://site.example/${kind}.png`, declaredSize },
  image: img,
});
const mark = (img: IngestedImage | null, score: number, extra: Partial<MarkCandidate> = {}): Weighed<MarkCandidate> => ({
  candidate: { kind: 'header', url: 'https://site.example/logo.svg', svg: null, score, themeHint: null, ...extra },
  image: img,
});

describe('traceLogoDecision', () => {
  it('gives every candidate its outcome and reason', () => {
    const logo = image('svg', 200, 50);
    const other = image('png', 300, 60);
    const sameAsLogo = image('svg', 200, 50, { sha: logo.sha256 });
    const blank = image('png', 64, 64, { uniform: true });
    const appIcon = image('png', 180, 180);
    const favicon = image('png', 16, 16);
    const wide = image('png', 400, 100);
    const mask = image('svg', 16, 16);
    const trace = traceLogoDecision(
      [icon('apple-touch-icon', appIcon, 180), icon('icon', favicon, 16), icon('manifest-icon', wide), icon('mask-icon', mask), icon('tile', null, 144)],
      [mark(logo, 120.4, { svg: '<svg/>', url: null }), mark(other, 80, { via: 'css-background' }), mark(sameAsLogo, 70, { kind: 'meta-logo' }), mark(blank, 60, { kind: 'json-ld-logo' })],
      [
        { image: logo, type: 'logo', reason: 'primary-mark' },
        { image: appIcon, type: 'icon', reason: 'best-icon' },
      ],
      isSquare,
    );
    expect(trace.candidates.map((c) => [c.source, c.outcome, c.reason, c.role, c.assetKey])).toEqual([
      ['header-svg', 'chosen', 'primary-mark', 'logo', logo.assetKey],
      ['css-background', 'rejected', 'lower-score', null, null],
      ['meta-logo', 'rejected', 'duplicate-file', null, null],
      ['json-ld-logo', 'rejected', 'placeholder', null, null],
      ['apple-touch-icon', 'chosen', 'best-icon', 'icon', appIcon.assetKey],
      ['link-icon', 'rejected', 'smaller-icon', null, null],
      ['manifest-icon', 'rejected', 'not-square', null, null],
      ['mask-icon', 'rejected', 'mask-icon-silhouette', null, null],
      ['ms-tile', 'rejected', 'unreadable', null, null],
    ]);
    expect(trace.candidates[0]?.score).toBe(120);
    expect(trace.candidates.find((c) => c.source === 'ms-tile')).toMatchObject({ format: null, width: null, score: 144 });
    expect(trace.candidates.find((c) => c.source === 'link-icon')).toMatchObject({ format: 'png', width: 16, height: 16, score: 16 });
  });

  it('keeps at most MAX_LOGO_EVIDENCE_CANDIDATES and never a URL', () => {
    const marks = Array.from({ length: 12 }, (_, i) => mark(image('png', 300, 60), 100 - i));
    const icons = Array.from({ length: 12 }, () => icon('icon', image('png', 32, 32), 32));
    const trace = traceLogoDecision(icons, marks, [], isSquare);
    expect(trace.candidates).toHaveLength(MAX_LOGO_EVIDENCE_CANDIDATES);
    expect(JSON.stringify(trace)).not.toContain('site.example');
  });
});
