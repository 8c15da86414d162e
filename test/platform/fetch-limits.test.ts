import type { ServerResponse } from 'node:http';
import { brotliCompressSync, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SafeFetcher } from '../../src/platform/safe-fetcher.js';
import { failure, startServer, type TestServer } from './servers.js';
import { until } from '../helpers/until.js';

const MiB = 1024 * 1024;
const BOMB_ZEROS = 200 * MiB;
const PAGE = '<html><body>hello brand</body></html>';

let site: TestServer;
let bomb: Buffer;
/** Resolves when the server sees the client drop a response it never finished sending. */
const abandoned = new Map<string, Promise<void>>();

/** 200 MiB of zeros gzipped (about 200 KB), built by streaming so the test itself stays small too. */
async function gzipBomb(): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const zeros = Buffer.alloc(MiB);
  for (let written = 0; written < BOMB_ZEROS; written += MiB) {
    if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(chunks);
}

function watchAbandon(path: string, res: ServerResponse): void {
  abandoned.set(path, new Promise((resolve) => res.on('close', () => resolve())));
}

function trickle(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.write('<html>');
  const timer = setInterval(() => res.write(' '), 50);
  res.on('close', () => clearInterval(timer));
}

beforeAll(async () => {
  bomb = await gzipBomb();
  site = await startServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path === '/bomb') {
      watchAbandon(path, res);
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      return void res.write(bomb); // never ended: only the client's cap can finish this exchange
    }
    if (path === '/declared-huge') {
      watchAbandon(path, res);
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(2 * MiB) });
      return void res.flushHeaders();
    }
    if (path === '/plain-big') return void res.writeHead(200).end(Buffer.alloc(2 * MiB, 'a'));
    if (path === '/trickle') return trickle(res);
    if (path === '/silent') return; // never answers
    const encoded: Record<string, [string, Buffer]> = {
      '/gzip': ['gzip', gzipSync(PAGE)],
      '/br': ['br', brotliCompressSync(PAGE)],
      '/deflate': ['deflate', deflateSync(PAGE)],
    };
    const [encoding, body] = encoded[path] ?? ['identity', Buffer.from(PAGE)];
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding }).end(body);
  });
}, 60_000);

afterAll(() => site.close());

/**
 * Deadlines an hour away wherever a test expects an answer: on a loaded machine the default 10 s could fire first.
 * Only the tests of the time cap set a short one, and they expect it to fire.
 */
const HOUR_MS = 3_600_000;

function fetcher(): SafeFetcher {
  return new SafeFetcher({ hostMap: { 'site.test': site.address }, defaultTimeoutMs: HOUR_MS });
}

describe('content decoding', () => {
  it.each(['/gzip', '/br', '/deflate'])('decodes %s bodies and drops the wire encoding headers', async (path) => {
    const result = await fetcher().fetch(`http://site.test${path}`);
    expect(result.body.toString()).toBe(PAGE);
    expect(result.headers['content-encoding']).toBeUndefined();
    expect(result.headers['content-type']).toBe('text/html');
  });
});

describe('byte cap', () => {
  it('stops a gzip bomb at the decompressed cap, aborts the stream and keeps memory low', async () => {
    expect(bomb.length).toBeLessThan(MiB);
    const rssBefore = process.memoryUsage().rss;
    const error = await failure(fetcher().fetch('http://site.test/bomb', { maxBytes: MiB }));
    expect(error.code).toBe('too_large');
    await abandoned.get('/bomb'); // the server saw the connection dropped mid-response
    // Inflating all 200 MiB would add at least that much; the cap keeps us near 1 MiB.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * MiB);
  });

  it('rejects early on a content-length over the cap without waiting for the body', async () => {
    // The body never comes: a client that waited for it could only end with its deadline (timeout), not too_large.
    const error = await failure(fetcher().fetch('http://site.test/declared-huge', { maxBytes: MiB }));
    expect(error.code).toBe('too_large');
    await abandoned.get('/declared-huge');
  });

  it('caps plain bodies too (defaultMaxBytes)', async () => {
    const f = new SafeFetcher({ hostMap: { 'site.test': site.address }, defaultMaxBytes: MiB, defaultTimeoutMs: HOUR_MS });
    expect((await failure(f.fetch('http://site.test/plain-big'))).code).toBe('too_large');
    expect((await fetcher().fetch('http://site.test/plain-big')).body.length).toBe(2 * MiB);
  });
});

// Which deadline ended a fetch is read from the error, not from a clock: each deadline names itself in the message
// ("no complete answer in N ms", "aborted by the caller"), and the other deadlines are set an hour away (HOUR_MS).

describe('time cap', () => {
  it('fails a body that trickles forever within the cap', async () => {
    const f = new SafeFetcher({ hostMap: { 'site.test': site.address }, defaultTimeoutMs: HOUR_MS });
    const error = await failure(f.fetch('http://site.test/trickle', { timeoutMs: 400 }));
    expect(error.code).toBe('timeout');
    expect(error.message).toBe('no complete answer in 400 ms');
  });

  it('fails a server that never sends headers (defaultTimeoutMs)', async () => {
    const f = new SafeFetcher({ hostMap: { 'site.test': site.address }, defaultTimeoutMs: 300 });
    const error = await failure(f.fetch('http://site.test/silent'));
    expect(error.code).toBe('timeout');
    expect(error.message).toBe('no complete answer in 300 ms');
  });

  it("honours the caller's AbortSignal", async () => {
    const f = new SafeFetcher({ hostMap: { 'site.test': site.address }, defaultTimeoutMs: HOUR_MS });
    const controller = new AbortController();
    const trickles = site.requests.filter((r) => r.path === '/trickle').length;
    const pending = failure(f.fetch('http://site.test/trickle', { signal: controller.signal }));
    // Aborted once the server has the request, so the abort lands mid-body.
    await until(() => site.requests.filter((r) => r.path === '/trickle').length > trickles);
    controller.abort();
    const error = await pending;
    expect(error.code).toBe('timeout');
    expect(error.message).toBe('aborted by the caller');
  });

  it('fails at once on an already aborted signal', async () => {
    const error = await failure(fetcher().fetch('http://site.test/gzip', { signal: AbortSignal.abort() }));
    expect(error.code).toBe('timeout');
  });
});
