/** The gradient functions of a CSS value (`linear-gradient(...)`, `repeating-radial-gradient(...)`, ...), as written. */
const GRADIENT_START = /(?:repeating-)?(?:linear|radial|conic)-gradient\(/gi;
const MAX_GRADIENT_CHARS = 2_000;

export function gradientFunctions(value: string): string[] {
  const out: string[] = [];
  for (const match of value.matchAll(GRADIENT_START)) {
    const start = match.index;
    let depth = 0;
    for (let i = start + match[0].length - 1; i < value.length && i - start < MAX_GRADIENT_CHARS; i++) {
      if (value[i] === '(') depth += 1;
      else if (value[i] === ')' && --depth === 0) {
        out.push(value.slice(start, i + 1));
        break;
      }
    }
  }
  return out;
}
