/**
 * A PNG writer for decoder tests: any colour type and bit depth, chosen filter types per row, PLTE/tRNS and
 * extra chunks, so every path of decode-png.ts can be fed a file sharp would never write.
 */
import { crc32, deflateSync } from 'node:zlib';

export interface PngSpec {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  /** Unfiltered scanlines, packed as PNG stores them (no filter byte). */
  rows: Uint8Array[];
  /** Filter type (0–4) per row, repeated when shorter than the image. Default: all five in turn. */
  filters?: number[];
  palette?: Uint8Array;
  transparency?: Uint8Array;
  interlaced?: boolean;
  /** Chunks written before IDAT, e.g. iCCP. */
  extraChunks?: { type: string; data: Uint8Array }[];
  /** Replaces the compressed image data (decompression bombs, broken streams). */
  idat?: Uint8Array;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export function encodePng(spec: PngSpec): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(spec.width, 0);
  ihdr.writeUInt32BE(spec.height, 4);
  ihdr[8] = spec.bitDepth;
  ihdr[9] = spec.colourType;
  ihdr[12] = spec.interlaced ? 1 : 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...(spec.extraChunks ?? []).map((c) => pngChunk(c.type, c.data)),
    ...(spec.palette ? [pngChunk('PLTE', spec.palette)] : []),
    ...(spec.transparency ? [pngChunk('tRNS', spec.transparency)] : []),
    pngChunk('IDAT', spec.idat ?? deflateSync(filtered(spec))),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

export function pngChunk(type: string, data: Uint8Array): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  chunk.set(data, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return chunk;
}

/** Scanlines with their filter byte, each filtered against the previous raw row. */
function filtered(spec: PngSpec): Buffer {
  const bpp = Math.max(1, ((CHANNELS[spec.colourType] ?? 1) * spec.bitDepth) >> 3);
  const filters = spec.filters ?? [0, 1, 2, 3, 4];
  const out: Buffer[] = [];
  spec.rows.forEach((row, y) => {
    const prior = spec.rows[y - 1] ?? new Uint8Array(row.length);
    const filter = filters[y % filters.length] ?? 0;
    const line = Buffer.alloc(row.length + 1);
    line[0] = filter;
    for (let i = 0; i < row.length; i++) {
      const a = i >= bpp ? (row[i - bpp] ?? 0) : 0;
      const b = prior[i] ?? 0;
      const c = i >= bpp ? (prior[i - bpp] ?? 0) : 0;
      line[i + 1] = ((row[i] ?? 0) - predictor(filter, a, b, c)) & 255;
    }
    out.push(line);
  });
  return Buffer.concat(out);
}

function predictor(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4: {
      const pa = Math.abs(b - c);
      const pb = Math.abs(a - c);
      const pc = Math.abs(a + b - 2 * c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default:
      return 0;
  }
}
