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
    const isClose = text.charCodeAt(i + 1) === SLASH;
    const name = tagName(text, i + (isClose ? 2 : 1), end);
    if (isClose) {
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
    } else if (name) {
      if (++elements > limits.maxElements) return true;
      if (text.charCodeAt(end - 1) !== SLASH) open.push(name);
      if (open.length > limits.maxDepth) return true;
    }
    i = text.indexOf('<', end + 1);
  }
  return false;
}

const SLASH = 0x2f;
const GREATER = 0x3e;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const SKIPPED: [string, string][] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
];

/** Index after a comment, CDATA section, PI or declaration starting at `i` (-1 if unterminated); null otherwise. */
function skipMarkup(text: string, i: number): number | null {
  for (const [opener, closer] of SKIPPED) {
    if (!text.startsWith(opener, i)) continue;
    const at = text.indexOf(closer, i + opener.length);
    return at < 0 ? -1 : at + closer.length;
  }
  // `<` not followed by a name character or `/` is text to the parser.
  return startsTag(text.charCodeAt(i + 1)) ? null : i + 1;
}

/** `[A-Za-z_:/]` */
function startsTag(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x3a || code === SLASH;
}

/** Index of the `>` ending the tag at `i`, honouring quoted attribute values; -1 if unterminated. */
function tagEnd(text: string, i: number): number {
  let quote = 0;
  let previous = 0;
  for (let j = i + 1; j < text.length; j++) {
    const code = text.charCodeAt(j);
    if (quote) {
      if (code === quote) quote = 0;
    } else if ((code === QUOTE || code === APOSTROPHE) && previous === EQUALS) {
      quote = code;
    } else if (code === GREATER) {
      return j;
    }
    if (!isWhitespace(code)) previous = code;
  }
  return -1;
}

/** The tag name: everything from `from` up to whitespace, `/` or `>` (`end` is the tag's `>`). */
function tagName(text: string, from: number, end: number): string {
  let to = from;
  while (to < end && !isWhitespace(text.charCodeAt(to)) && text.charCodeAt(to) !== SLASH) to++;
  return text.slice(from, to);
}

/** The characters JavaScript's `\s` matches (what the parser-mirroring rules were written with). */
function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
