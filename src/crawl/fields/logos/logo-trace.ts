/**
 * The trace of one logo decision (ADR 0044): every candidate the crawl weighed, what the file was, its score and
 * the outcome with its reason, for the brand page's "why this logo". Built from what logos.ts already holds; it
 * names candidates by source, never by URL (website URLs are not stored).
 */
import type { LogoType } from '../../../domain/brand.js';
import {
  LOGO_EVIDENCE_VERSION,
  MAX_LOGO_EVIDENCE_CANDIDATES,
  type LogoCandidateSource,
  type LogoCandidateTrace,
  type LogoDecisionReason,
  type LogoEvidence,
} from '../../../domain/logo-evidence.js';
import type { IngestedImage } from '../../../media/ingest-image.js';
import type { IconCandidate, IconKind, MarkCandidate } from './logo-candidates.js';

/** A file chooseLogos picked, in the order it picked them (a later pick of the same file is a duplicate). */
export interface LogoChoice {
  image: IngestedImage;
  type: LogoType;
  reason: LogoDecisionReason;
}

export interface Weighed<C> {
  candidate: C;
  /** null: the file could not be downloaded or decoded. */
  image: IngestedImage | null;
}

const ICON_SOURCES: Readonly<Record<IconKind, LogoCandidateSource>> = {
  icon: 'link-icon',
  'apple-touch-icon': 'apple-touch-icon',
  'mask-icon': 'mask-icon',
  'fluid-icon': 'fluid-icon',
  tile: 'ms-tile',
  'manifest-icon': 'manifest-icon',
  'favicon-fallback': 'favicon-fallback',
  'conventional-path': 'conventional-path',
};

function markSource(c: MarkCandidate): LogoCandidateSource {
  if (c.kind !== 'header') return c.kind;
  return c.via ?? (c.svg !== null ? 'header-svg' : 'header-img');
}

export function traceLogoDecision(
  icons: Weighed<IconCandidate>[],
  marks: Weighed<MarkCandidate>[],
  choices: LogoChoice[],
  isSquare: (image: IngestedImage) => boolean,
): LogoEvidence {
  // The first choice of each file is the one the record keeps; a later choice of the same bytes is a duplicate.
  const kept = new Map<string, LogoChoice>();
  for (const choice of choices) if (!kept.has(choice.image.sha256)) kept.set(choice.image.sha256, choice);
  const attributed = new Set<LogoChoice>();
  const judge = (image: IngestedImage | null, rejected: (image: IngestedImage) => LogoDecisionReason): Omit<LogoCandidateTrace, 'source' | 'scheme' | 'score'> => {
    if (!image) return { format: null, width: null, height: null, outcome: 'rejected', role: null, reason: 'unreadable', assetKey: null };
    const file = { format: image.original.format, width: image.width, height: image.height };
    if (image.uniform) return { ...file, outcome: 'rejected', role: null, reason: 'placeholder', assetKey: null };
    const choice = kept.get(image.sha256);
    if (choice && choice.image === image && !attributed.has(choice)) {
      attributed.add(choice);
      return { ...file, outcome: 'chosen', role: choice.type, reason: choice.reason, assetKey: image.assetKey };
    }
    if (choice) return { ...file, outcome: 'rejected', role: null, reason: 'duplicate-file', assetKey: null };
    return { ...file, outcome: 'rejected', role: null, reason: rejected(image), assetKey: null };
  };
  const candidates: LogoCandidateTrace[] = [
    ...marks.map(({ candidate, image }) => ({
      source: markSource(candidate),
      scheme: candidate.scheme ?? null,
      score: Math.round(candidate.score),
      ...judge(image, () => 'lower-score'),
    })),
    ...icons.map(({ candidate, image }) => ({
      source: ICON_SOURCES[candidate.kind],
      scheme: null,
      score: candidate.declaredSize > 0 ? candidate.declaredSize : null,
      ...judge(image, (i) => iconRejection(candidate, i, isSquare)),
    })),
  ];
  return { version: LOGO_EVIDENCE_VERSION, candidates: candidates.slice(0, MAX_LOGO_EVIDENCE_CANDIDATES) };
}

function iconRejection(candidate: IconCandidate, image: IngestedImage, isSquare: (image: IngestedImage) => boolean): LogoDecisionReason {
  if (candidate.kind === 'mask-icon') return 'mask-icon-silhouette';
  return isSquare(image) ? 'smaller-icon' : 'not-square';
}
