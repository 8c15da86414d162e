import { findDoctypeEnd } from './xml-prolog.js';

export type SniffedType = 'svg' | 'png' | 'jpeg' | 'webp' | 'gif' | 'ico' | 'avif' | 'bmp';

/**
 * Prolog (XML declaration, comments, DOCTYPE with an entity subset as Illustrator writes) is short in real
 * files; 4 KB leaves room for it while keeping the text scan bounded.
 */
const SVG_SNIFF_BYTES = 4096;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * Magic bytes of the raster types we decode (sharp, decode-ico, our BMP and PNG readers), checked in the order
 * and with the exact rules file-type uses, so the answers are the ones it gave (APNG is a PNG; JPEG-LS, CUR and
 * HEIF are not ours). A table rather than file-type itself: this runs for every downloaded image, synchronously.
 */
const SIGNATURES: { type: SniffedType; matches: (b: Uint8Array) => boolean }[] = [
  { type: 'bmp', matches: (b) => startsWith(b, [0x42, 0x4d]) },
  { type: 'gif', matches: (b) => startsWith(b, [0x47, 0x49, 0x46]) },
  { type: 'jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) && b[3] !== 0xf7 },
  { type: 'png', matches: isPng },
  { type: 'avif', matches: isAvif },
  { type: 'webp', matches: (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]) },
  { type: 'ico', matches: (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) },
];

/**
 * The real type of an image from its bytes; never trusts the URL or Content-Type. null for anything that is
 * not an image we handle, including HTML error pages served with an image Content-Type.
 */
export function sniff(bytes: Uint8Array): SniffedType | null {
  if (bytes.length === 0) return null;
  // No signature starts with `<` or whitespace, so checking them first never hides an SVG.
  let start = 0;
  // file-type looks past UTF-8 byte order marks, so an image behind one is still that image.
  while (startsWith(bytes.subarray(start), UTF8_BOM)) start += UTF8_BOM.length;
  const head = bytes.subarray(start);
  const raster = SIGNATURES.find((signature) => signature.matches(head))?.type;
  if (raster) return raster;
  return mayBeMarkup(head) && looksLikeSvg(bytes) ? 'svg' : null;
}

/** Cheap pre-check: text that starts with anything but `<`, ASCII whitespace or a non-ASCII byte is no SVG. */
function mayBeMarkup(head: Uint8Array): boolean {
  const first = head[0] ?? 0;
  return first === 0x3c || first >= 0x80 || first === 0x20 || (first >= 0x09 && first <= 0x0d);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_IHDR = 0x49484452;
const PNG_CGBI = 0x43674249;
/** Chunks that prove a PNG (IDAT) or an animated one (acTL). */
const PNG_CONFIRMING = new Set([0x49444154, 0x6163544c]);
const PNG_MAX_CHUNKS = 512;

/**
 * file-type's PNG check: after the signature, walk the chunks until an IDAT or acTL. A first chunk other than
 * a 13-byte IHDR (or Apple's CgBI) or a negative length is not a PNG; running out of bytes mid-walk still is.
 */
function isPng(bytes: Uint8Array): boolean {
  if (!startsWith(bytes, PNG_SIGNATURE) || bytes.length < 16) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let seenHeader = false;
  // The first chunk header is always read (16 bytes are there); later ones only while 8 more bytes remain.
  for (let at = 8, chunks = 0; chunks < PNG_MAX_CHUNKS && (chunks === 0 || at + 8 < bytes.length); chunks++) {
    const length = view.getInt32(at);
    const type = view.getUint32(at + 4);
    if (length < 0 || (type === PNG_IHDR && length !== 13)) return false;
    if (PNG_CONFIRMING.has(type)) return true;
    seenHeader ||= type === PNG_IHDR;
    if (!seenHeader && type !== PNG_CGBI) return false;
    at += length + 12;
  }
  return true;
}

/** ISO-BMFF `ftyp` box whose major brand (printable, NULs read as spaces) is avif or avis. */
function isAvif(bytes: Uint8Array): boolean {
  if (bytes.length < 12 || !startsWith(bytes.subarray(4), [0x66, 0x74, 0x79, 0x70]) || ((bytes[8] ?? 0) & 0x60) === 0) return false;
  const brand = String.fromCharCode(...bytes.subarray(8, 12)).replace('\0', ' ').trim();
  return brand === 'avif' || brand === 'avis';
}

/** True when the document element (after BOM, whitespace, PIs, comments and a non-HTML DOCTYPE) is `<svg`. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes.subarray(0, SVG_SNIFF_BYTES));
  let i = 0;
  for (;;) {
    while (i < head.length && /\s/.test(head.charAt(i))) i++;
    const rest = head.slice(i, i + 16);
    if (rest.startsWith('<?')) i = afterToken(head, i, '?>');
    else if (rest.startsWith('<!--')) i = afterToken(head, i, '-->');
    else if (/^<!doctype\s/i.test(rest)) {
      // An HTML page is never an image, even if it inlines an <svg> near the top.
      if (/^<!doctype\s+html/i.test(rest)) return false;
      i = findDoctypeEnd(head, i);
    } else return /^<(?:[\w.-]+:)?svg[\s>/]/i.test(rest);
    if (i < 0) return false;
  }
}

function afterToken(text: string, from: number, close: string): number {
  const at = text.indexOf(close, from + 2);
  return at < 0 ? -1 : at + close.length;
}
