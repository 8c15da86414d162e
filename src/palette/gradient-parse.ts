/**
 * Reads a CSS gradient function into the palette's gradient shape (spec 2.8): type, angle in degrees (linear:
 * the direction, `to right` = 90, default 180; conic: `from` angle, default 0; radial: null) and colour stops
 * with their first position as a 0–1 fraction (null when absent or not a percentage). Stops that are mostly
 * transparent have no HEX and are left out.
 */
import { parseCssColor, splitArgs } from '../domain/color-math.js';
import type { GradientType } from '../domain/palette.js';

export interface ParsedGradient {
  type: GradientType;
  angle: number | null;
  stops: { hex: string; position: number | null }[];
}

const SIDES: Record<string, number> = {
  top: 0, 'top right': 45, 'right top': 45, right: 90, 'bottom right': 135, 'right bottom': 135,
  bottom: 180, 'bottom left': 225, 'left bottom': 225, left: 270, 'top left': 315, 'left top': 315,
};
const COLOR_AT_START = /^((?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color|color-mix)\((?:[^()]|\([^()]*\))*\)|#[0-9a-f]{3,8}\b|[a-z]+)\s*(.*)$/is;

export function parseGradient(css: string): ParsedGradient | null {
  const m = /^(?:repeating-)?(linear|radial|conic)-gradient\((.*)\)$/is.exec(css.trim());
  if (!m) return null;
  const type = (m[1] ?? 'linear').toLowerCase() as GradientType;
  const args = splitArgs(m[2] ?? '');
  const first = args[0] ?? '';
  const leadIsStop = stopOf(first) !== null;
  const stops = (leadIsStop ? args : args.slice(1)).map(stopOf).filter((s): s is { hex: string; position: number | null } => s !== null);
  if (stops.length === 0) return null;
  return { type, angle: angleOf(type, leadIsStop ? '' : first), stops };
}

function angleOf(type: GradientType, lead: string): number | null {
  if (type === 'radial') return null;
  const text = lead.trim().toLowerCase();
  const unit = /(-?\d*\.?\d+)(deg|turn|rad|grad)/.exec(text);
  if (unit) {
    const v = Number(unit[1]);
    const deg = unit[2] === 'turn' ? v * 360 : unit[2] === 'rad' ? (v * 180) / Math.PI : unit[2] === 'grad' ? v * 0.9 : v;
    return Math.round((((deg % 360) + 360) % 360) * 100) / 100;
  }
  if (type === 'conic') return 0;
  const side = /to\s+([a-z ]+)/.exec(text)?.[1]?.trim().replace(/\s+/g, ' ');
  return side !== undefined ? (SIDES[side] ?? 180) : 180;
}

function stopOf(arg: string): { hex: string; position: number | null } | null {
  const m = COLOR_AT_START.exec(arg.trim());
  if (!m) return null;
  const hex = parseCssColor(m[1] ?? '');
  if (!hex) return null;
  const pct = /^(-?\d*\.?\d+)%/.exec((m[2] ?? '').trim());
  return { hex, position: pct ? Math.min(1, Math.max(0, Number(pct[1]) / 100)) : null };
}

