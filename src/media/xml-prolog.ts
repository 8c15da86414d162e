/**
 * Text-level handling of the XML prolog, done before any parser sees the document: DOCTYPE internal subsets
 * are where entity declarations (billion laughs, external entities) live, so they are cut out as text and
 * never reach a parser that might expand them.
 */

const DOCTYPE_OPEN = /<!doctype/i;
const STRAY_ENTITY = /<!ENTITY[\s\S]*?>/gi;
/** Named references other than the five XML predefines; with the DOCTYPE gone they can only be dangling. */
const UNDECLARED_ENTITY_REF = /&(?!(?:amp|lt|gt|quot|apos);)[A-Za-z_][\w.:-]*;/g;

/**
 * Index just past the `>` closing the DOCTYPE that starts at `start`, or -1 when it never closes.
 * Quotes and comments inside the internal subset may contain `>` or `]`, so they are skipped as units.
 */
export function findDoctypeEnd(text: string, start: number): number {
  let inSubset = false;
  let i = start + '<!doctype'.length;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      const close = text.indexOf(ch, i + 1);
      if (close < 0) return -1;
      i = close + 1;
      continue;
    }
    if (inSubset && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close < 0) return -1;
      i = close + 3;
      continue;
    }
    if (ch === '[') inSubset = true;
    else if (ch === ']') inSubset = false;
    else if (ch === '>' && !inSubset) return i + 1;
    i++;
  }
  return -1;
}

/** Removes every DOCTYPE (with its internal subset), stray entity declarations and undeclared entity references. */
export function stripDoctype(text: string): string {
  let out = text;
  for (let match = DOCTYPE_OPEN.exec(out); match; match = DOCTYPE_OPEN.exec(out)) {
    const end = findDoctypeEnd(out, match.index);
    // An unterminated DOCTYPE swallows the rest of the document, exactly as an XML parser would reject it.
    out = end < 0 ? out.slice(0, match.index) : out.slice(0, match.index) + out.slice(end);
  }
  return out.replace(STRAY_ENTITY, '').replace(UNDECLARED_ENTITY_REF, '');
}
