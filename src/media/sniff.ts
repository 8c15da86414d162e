import { fileTypeFromBuffer } from 'file-type';
import { findDoctypeEnd } from './xml-prolog.js';

export type SniffedType = 'svg' | 'png' | 'jpeg' | 'webp' | 'gif' | 'ico' | 'avif' | 'bmp';

/**
 * Prolog (XML declaration, comments, DOCTYPE with an entity subset as Illustrator writes) is short in real
 * files; 4 KB leaves room for it while keeping the text scan bounded.
 */
const SVG_SNIFF_BYTES = 4096;

/** file-type's extension names for the raster types we can decode (sharp, decode-ico, our BMP reader). */
const RASTER_TYPES: Record<string, SniffedType> = {
  png: 'png',
  apng: 'png',
  jpg: 'jpeg',
  webp: 'webp',
  gif: 'gif',
  ico: 'ico',
  avif: 'avif',
  bmp: 'bmp',
};

/**
 * The real type of an image from its bytes; never trusts the URL or Content-Type. null for anything that is
 * not an image we handle, including HTML error pages served with an image Content-Type.
 */
export async function sniff(bytes: Uint8Array): Promise<SniffedType | null> {
  if (bytes.length === 0) return null;
  if (looksLikeSvg(bytes)) return 'svg';
  try {
    const detected = await fileTypeFromBuffer(bytes);
    return detected ? (RASTER_TYPES[detected.ext] ?? null) : null;
  } catch {
    return null;
  }
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
