/**
 * "Why this logo" (issue 23, ADR 0044): a small, bounded trace of the logo decision a crawl made, kept with the
 * brand like the palette and context evidence. It never holds a URL of the site (spec: website URLs are not
 * stored): a candidate is named by where the page declared it (its source), what the file was (format, size),
 * its score, and the outcome; a kept candidate names the asset key of the file the record lists.
 */
import type { ImageFormat, LogoType } from './brand.js';

export const LOGO_EVIDENCE_VERSION = 1;

/** At most this many candidates are kept (the crawl weighs ≤ 8 icons and ≤ 4 marks plus scheme variants). */
export const MAX_LOGO_EVIDENCE_CANDIDATES = 16;

/** Where the page declared or showed the candidate. */
export type LogoCandidateSource =
  | 'link-icon'
  | 'apple-touch-icon'
  | 'mask-icon'
  | 'fluid-icon'
  | 'ms-tile'
  | 'manifest-icon'
  | 'favicon-fallback'
  | 'conventional-path'
  | 'meta-logo'
  | 'json-ld-logo'
  | 'header-img'
  | 'header-svg'
  | 'picture-source'
  | 'css-background';

/** Why a candidate was chosen or left out. */
export type LogoDecisionReason =
  /** chosen */
  | 'primary-mark'
  | 'scheme-variant'
  | 'symbol-beside-logo'
  | 'best-icon'
  /** rejected */
  | 'unreadable'
  | 'placeholder'
  | 'duplicate-file'
  | 'lower-score'
  | 'not-square'
  | 'mask-icon-silhouette'
  | 'smaller-icon';

export interface LogoCandidateTrace {
  source: LogoCandidateSource;
  /** The colour scheme the page shows it in, when it offers one per scheme. */
  scheme: 'dark' | 'light' | null;
  /** null when the file could not be read. */
  format: ImageFormat | null;
  width: number | null;
  height: number | null;
  /** The candidate score of a mark (placement heuristics); an icon's largest declared size; null when unknown. */
  score: number | null;
  outcome: 'chosen' | 'rejected';
  /** What a chosen file became in the record. */
  role: LogoType | null;
  reason: LogoDecisionReason;
  /** The asset key (`<sha256>.<ext>`) of a chosen file, as the record lists it; null otherwise. */
  assetKey: string | null;
}

export interface LogoEvidence {
  version: typeof LOGO_EVIDENCE_VERSION;
  /** Marks first (by score), then icons, as the crawl weighed them; at most MAX_LOGO_EVIDENCE_CANDIDATES. */
  candidates: LogoCandidateTrace[];
}

/** Plain-language reasons, for the brand page and the docs. */
export const LOGO_REASON_TEXT: Readonly<Record<LogoDecisionReason, string>> = {
  'primary-mark': 'highest-scoring mark shown in the default colour scheme',
  'scheme-variant': 'the same mark drawn for the other colour scheme',
  'symbol-beside-logo': 'a square mark kept as the symbol beside the wide logo',
  'best-icon': 'the largest square icon (64 px or more preferred; SVG next; then the largest raster)',
  unreadable: 'could not be downloaded or decoded as an image',
  placeholder: 'blank or single-colour file (a placeholder)',
  'duplicate-file': 'the same file as a candidate already chosen',
  'lower-score': 'another mark scored higher',
  'not-square': 'not square, so not usable as an icon',
  'mask-icon-silhouette': 'a monochrome mask-icon silhouette, not needed as a symbol',
  'smaller-icon': 'a larger or better icon was chosen',
};
