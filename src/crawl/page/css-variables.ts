/**
 * CSS custom properties declared on the root (`:root`, `html`, `body`, `*`), outside dark-scheme media, with
 * `var()` resolution. Brand tokens live there; colours and fonts read through them.
 */
import { ruleSelectors, type ParsedCss } from './parse-css.js';

export type CssVariables = Map<string, string>;

const ROOT_SELECTOR = /^(:root|html|body|\*|:host|\[data-theme=["']?light["']?\]|html\[data-theme=["']?light["']?\]|\.light)$/i;
const DARK_MEDIA = /prefers-color-scheme\s*:\s*dark/i;

const cache = new WeakMap<ParsedCss[], CssVariables>();

/**
 * Later declarations override earlier ones, as the cascade would for equal specificity. Computed once per list of
 * sheets (fonts and colours read the same crawl's sheets); callers only read the map.
 */
export function collectRootVariables(sheets: ParsedCss[]): CssVariables {
  let vars = cache.get(sheets);
  if (!vars) {
    vars = rootVariables(sheets);
    cache.set(sheets, vars);
  }
  return vars;
}

function rootVariables(sheets: ParsedCss[]): CssVariables {
  const vars: CssVariables = new Map();
  for (const sheet of sheets) {
    for (const rule of sheet.rules) {
      if (rule.media && DARK_MEDIA.test(rule.media)) continue;
      if (!ruleSelectors(rule).some((s) => ROOT_SELECTOR.test(s))) continue;
      for (const d of rule.declarations) if (d.property.startsWith('--')) vars.set(d.property, d.value);
    }
  }
  return vars;
}

/** Replaces every `var(--name, fallback)` with its value, following chains up to 8 deep. */
export function resolveVariables(value: string, vars: CssVariables, depth = 0): string {
  if (depth > 8 || !/var\(/i.test(value)) return value;
  const replaced = value.replace(/var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*(?:\([^()]*\)[^()]*)*))?\)/gi, (_, name: string, fallback?: string) => {
    return vars.get(name.toLowerCase()) ?? fallback?.trim() ?? '';
  });
  return resolveVariables(replaced, vars, depth + 1);
}
