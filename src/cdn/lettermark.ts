/**
 * The `lettermark` fallback (issue 20 item 3): the brand's initial drawn on its brand colour. The glyph comes from
 * a real font file shipped in a package (DejaVu Sans Bold, `dejavu-fonts-ttf`), turned into an SVG path by
 * opentype.js, so rendering needs no system font and looks the same on every machine. The text colour is black or
 * white, whichever contrasts more with the background (WCAG 2.x, domain/wcag.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import opentype, { type Font, type PathCommand } from 'opentype.js';
import type { Brand } from '../domain/brand.js';
import { legibleText } from '../domain/wcag.js';

const FONT_FILE = 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf';
/** Glyph height (cap height of a Latin capital) as a share of the image's shorter side. */
const GLYPH_SHARE = 0.5;
/**
 * Colours for a brand with none known (not crawled yet): picked by a hash of the domain, so one brand always gets
 * the same one. Mid-tones that carry white or black text legibly.
 */
const NEUTRAL_COLORS = ['#2563eb', '#7c3aed', '#db2777', '#dc2626', '#ea580c', '#16a34a', '#0891b2', '#4b5563'];

let font: Font | null = null;

/** Loaded on the first lettermark (~700 KB parsed once per process), not when the CDN starts. */
function dejaVu(): Font {
  if (!font) {
    const bytes = readFileSync(createRequire(import.meta.url).resolve(FONT_FILE));
    font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  }
  return font;
}

export interface LettermarkSpec {
  letter: string;
  /** `#rrggbb` background. */
  background: string;
  /** `#ffffff` or `#000000`. */
  foreground: string;
}

/** What a brand's (or a bare domain's) lettermark shows: its initial and colours. */
export function lettermarkFor(brand: Pick<Brand, 'name' | 'colors'> | null, domain: string | null): LettermarkSpec {
  const background = brandColor(brand) ?? neutralColor(domain ?? brand?.name ?? '');
  return { letter: initialOf(brand?.name ?? null, domain), background, foreground: legibleText(background) };
}

/** The lettermark as an SVG document of `width`×`height`: a filled rectangle and the glyph's outline, centred. */
export function lettermarkSvg(spec: LettermarkSpec, width: number, height: number): string {
  const font = dejaVu();
  const size = Math.min(width, height);
  // Font size that makes a capital's height GLYPH_SHARE of the side; the outline is then centred on its own box.
  const capHeight = font.getPath('H', 0, 0, 1000).getBoundingBox();
  const fontSize = (GLYPH_SHARE * size * 1000) / Math.max(1, capHeight.y2 - capHeight.y1);
  const box = font.getPath(spec.letter, 0, 0, fontSize).getBoundingBox();
  const x = (width - (box.x2 - box.x1)) / 2 - box.x1;
  const y = (height - (box.y2 - box.y1)) / 2 - box.y1;
  const d = pathData(font.getPath(spec.letter, x, y, fontSize).commands);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="${spec.background}"/><path d="${d}" fill="${spec.foreground}"/></svg>`
  );
}

/**
 * SVG path data of the glyph's outline. Written here rather than with opentype.js's `toPathData`, whose number
 * formatting emits `NaN` for some coordinates (seen with DejaVu's Z at 65.84 px).
 */
function pathData(commands: readonly PathCommand[]): string {
  const n = (value: number | undefined): string => (Math.round((value ?? 0) * 100) / 100).toString();
  return commands
    .map((c) => {
      if (c.type === 'Z') return 'Z';
      if (c.type === 'C') return `C${n(c.x1)} ${n(c.y1)} ${n(c.x2)} ${n(c.y2)} ${n(c.x)} ${n(c.y)}`;
      if (c.type === 'Q') return `Q${n(c.x1)} ${n(c.y1)} ${n(c.x)} ${n(c.y)}`;
      return `${c.type}${n(c.x)} ${n(c.y)}`;
    })
    .join('');
}

/** The brand colour of the record (type `brand`, else `accent`, else the first listed). */
function brandColor(brand: Pick<Brand, 'colors'> | null): string | null {
  const colors = brand?.colors ?? [];
  const pick = colors.find((c) => c.type === 'brand') ?? colors.find((c) => c.type === 'accent') ?? colors[0];
  return pick && /^#[0-9a-f]{6}$/i.test(pick.hex) ? pick.hex.toLowerCase() : null;
}

function neutralColor(seed: string): string {
  const index = createHash('sha256').update(seed).digest()[0]! % NEUTRAL_COLORS.length;
  return NEUTRAL_COLORS[index]!;
}

/**
 * The first letter or digit of the name when the font can draw it (accents dropped: "Évian" → E), else the first
 * of the domain, else `?`.
 */
export function initialOf(name: string | null, domain: string | null): string {
  for (const source of [name, domain]) {
    const first = [...(source ?? '').normalize('NFKD')].find((c) => /[\p{L}\p{N}]/u.test(c));
    const upper = first?.toLocaleUpperCase('en');
    if (upper && [...upper].length === 1 && dejaVu().hasChar(upper)) return upper;
  }
  return '?';
}
