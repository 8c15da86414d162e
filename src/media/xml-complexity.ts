export interface XmlComplexityLimits {
  maxDepth: number;
  maxElements: number;
}

/**
 * Cheap pre-parse guard: cheerio/htmlparser2 get quadratic on very deep element nesting (200k levels take
 * about a minute), serializing recurses, and millions of flat elements take many seconds to parse and
 * render, so documents far beyond any real logo are refused before parsing. The scan mirrors htmlparser2's
 * xmlMode rules that matter for depth: quoted values only right after `=`, and a close tag closes up to its
 * matching open element or, when none is open, is ignored.
 */
export function exceedsXmlComplexity(text: string, limits: XmlComplexityLimits): boolean {
  const open: string[] = [];
  let elements = 0;
  let i = text.indexOf('<');
  while (i >= 0 && i < text.length) {
    const skipped = skipMarkup(text, i);
    if (skipped !== null) {
      i = skipped < 0 ? -1 : text.indexOf('<', skipped);
      continue;
    }
    const end = tagEnd(text, i);
    if (end < 0) return false;
    const isClose = text[i + 1] === '/';
    const name = /^[^\s/>]+/.exec(text.slice(i + (isClose ? 2 : 1), end))?.[0] ?? '';
    if (isClose) {
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
    } else if (name) {
      if (++elements > limits.maxElements) return true;
      if (text[end - 1] !== '/') open.push(name);
      if (open.length > limits.maxDepth) return true;
    }
    i = text.indexOf('<', end + 1);
  }
  return false;
}

/** Index after a comment, CDATA section, PI or declaration starting at `i` (-1 if unterminated); null otherwise. */
function skipMarkup(text: string, i: number): number | null {
  const closers: [string, string][] = [
    ['<!--', '-->'],
    ['<![CDATA[', ']]>'],
    ['<?', '?>'],
    ['<!', '>'],
  ];
  for (const [opener, closer] of closers) {
    if (!text.startsWith(opener, i)) continue;
    const at = text.indexOf(closer, i + opener.length);
    return at < 0 ? -1 : at + closer.length;
  }
  // `<` not followed by a name character or `/` is text to the parser.
  return /[A-Za-z_:/]/.test(text.charAt(i + 1)) ? null : i + 1;
}

/** Index of the `>` ending the tag at `i`, honouring quoted attribute values; -1 if unterminated. */
function tagEnd(text: string, i: number): number {
  let quote = '';
  let previous = '';
  for (let j = i + 1; j < text.length; j++) {
    const ch = text.charAt(j);
    if (quote) {
      if (ch === quote) quote = '';
    } else if ((ch === '"' || ch === "'") && previous === '=') {
      quote = ch;
    } else if (ch === '>') {
      return j;
    }
    if (!/\s/.test(ch)) previous = ch;
  }
  return -1;
}
