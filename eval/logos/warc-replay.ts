/**
 * Replays a WARC recording (e.g. `../shared/corpus/warc/iana.warc.gz`) as static sites for the optional real
 * evaluation: every `response` record becomes a file at its URL's host and path, with the recorded
 * Content-Type; bodies still in chunked framing are de-chunked. The first response per URL wins.
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import type { StaticFile } from './eval-sites.js';

export async function readWarcSites(file: string): Promise<Record<string, Record<string, StaticFile>>> {
  const data = gunzipSync(await readFile(file));
  const sites: Record<string, Record<string, StaticFile>> = {};
  let offset = 0;
  while (offset < data.length) {
    const headerEnd = data.indexOf('\r\n\r\n', offset);
    if (headerEnd < 0) break;
    const headers = data.subarray(offset, headerEnd).toString('latin1');
    const length = Number(/^Content-Length:\s*(\d+)/im.exec(headers)?.[1] ?? 0);
    const block = data.subarray(headerEnd + 4, headerEnd + 4 + length);
    offset = headerEnd + 4 + length + 4;
    const target = /^WARC-Target-URI:\s*(\S+)/im.exec(headers)?.[1];
    if (!/^WARC-Type:\s*response/im.test(headers) || !target) continue;
    const response = parseHttp(block);
    const url = new URL(target);
    const host = (sites[url.hostname] ??= {});
    if (response && response.status === 200 && !host[url.pathname]) host[url.pathname] = { type: response.type, body: response.body };
  }
  return sites;
}

function parseHttp(block: Buffer): { status: number; type: string; body: Buffer } | null {
  const end = block.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = block.subarray(0, end).toString('latin1');
  const status = Number(/^HTTP\/[\d.]+\s+(\d+)/.exec(head)?.[1] ?? 0);
  const type = /^Content-Type:\s*([^\r\n]+)/im.exec(head)?.[1] ?? 'application/octet-stream';
  const raw = block.subarray(end + 4);
  // Some recorders (wget) store the de-chunked payload but keep the Transfer-Encoding header.
  const chunked = /^Transfer-Encoding:\s*chunked/im.test(head) && /^[0-9a-f]+(;[^\r\n]*)?\r\n/i.test(raw.subarray(0, 32).toString('latin1'));
  return { status, type, body: chunked ? dechunk(raw) : raw };
}

function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < raw.length) {
    const lineEnd = raw.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(raw.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
