import { pipeline, type Readable, type Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { FetchError } from './fetcher.js';

export interface ReadBodyOptions {
  /** Raw `content-encoding` header value, if any. */
  contentEncoding: string | undefined;
  /** Cap on the decoded bytes. */
  maxBytes: number;
  /** Past the cap, return the first `maxBytes` bytes instead of failing (robots.txt is parsed up to a size). */
  truncate: boolean;
}

/**
 * Reads a response body, decoding gzip/deflate/br itself so the cap applies to the decompressed size: a
 * 50 KB gzip bomb must not become 50 MB in memory. Stops and destroys the socket stream as soon as the cap
 * is crossed.
 */
export async function readBody(body: Readable, options: ReadBodyOptions): Promise<Buffer> {
  const decoders = decodersFor(options.contentEncoding);
  // pipeline() forwards errors and tears every stage down if any stage (or our early exit) ends it.
  if (decoders.length > 0) pipeline([body, ...decoders], noop);
  const decoded: Readable = decoders.at(-1) ?? body;
  try {
    return await collect(decoded, options);
  } finally {
    decoded.destroy();
    body.destroy();
  }
}

async function collect(stream: Readable, options: ReadBodyOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = options.maxBytes - size;
    if (chunk.length > room) {
      if (!options.truncate) throw new FetchError('too_large', `body exceeds ${options.maxBytes} bytes`);
      chunks.push(chunk.subarray(0, room));
      size += room;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks, size);
}

/**
 * Decoders in the order to apply them: codings are listed in the order they were applied, so undo them
 * from last to first. Unknown codings (we never advertise any) leave the bytes as they came.
 */
export function decodersFor(contentEncoding: string | undefined): Transform[] {
  if (!contentEncoding) return [];
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const decoders: Transform[] = [];
  for (const coding of codings.reverse()) {
    const decoder = decoderFor(coding);
    if (!decoder) return [];
    decoders.push(decoder);
  }
  return decoders;
}

/** Sync flush tolerates truncated streams, as browsers do; many servers end gzip bodies early. */
function decoderFor(coding: string): Transform | undefined {
  const lenient = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip(lenient);
  if (coding === 'deflate') return createInflate(lenient);
  if (coding === 'br') {
    return createBrotliDecompress({
      flush: constants.BROTLI_OPERATION_FLUSH,
      finishFlush: constants.BROTLI_OPERATION_FLUSH,
    });
  }
  return undefined;
}

function noop(): void {
  // Errors surface through the decoded stream's iterator; pipeline() only needs a callback.
}
