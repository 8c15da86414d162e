/**
 * Colour names from `color-name-list` (its curated "bestof" list, about 4,500 names, MIT), never a hand-typed
 * table: the name of the listed colour nearest in OKLab (ΔE_OK). The same HEX always gets the same name, because
 * the lookup is a pure function of the HEX and the package version; results are memoised per process.
 */
import { colornames } from 'color-name-list/bestof';
import { oklab, type Oklab } from '../domain/color-math.js';

interface NamedColor {
  name: string;
  lab: Oklab;
}

let table: NamedColor[] | null = null;
const memo = new Map<string, string | null>();
const MAX_MEMO = 20_000;

function namedColors(): NamedColor[] {
  table ??= colornames.filter((c) => /^#[0-9a-f]{6}$/i.test(c.hex)).map((c) => ({ name: c.name, lab: oklab(c.hex.toLowerCase()) }));
  return table;
}

/** The closest named colour's name, or null for something that is not `#rrggbb`. */
export function colorName(hex: string): string | null {
  const key = hex.toLowerCase();
  const known = memo.get(key);
  if (known !== undefined) return known;
  const name = /^#[0-9a-f]{6}$/.test(key) ? nearest(oklab(key)) : null;
  if (memo.size < MAX_MEMO) memo.set(key, name);
  return name;
}

function nearest(lab: Oklab): string | null {
  let best: NamedColor | null = null;
  let bestDistance = Infinity;
  for (const c of namedColors()) {
    const d = (c.lab.l - lab.l) ** 2 + (c.lab.a - lab.a) ** 2 + (c.lab.b - lab.b) ** 2;
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best?.name ?? null;
}

/** Loads the table ahead of a timed build (about 4,500 OKLab conversions). */
export function warmColorNames(): void {
  namedColors();
}
