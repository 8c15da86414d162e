/**
 * Hostile clients (issue 13 item 4, docs/security.md#hostile-clients): every error in the registry's shape
 * (`{message}`, docs/errors.md), never echoing the raw identifier. Each probe carries an email address the spec
 * forbids storing or echoing (section 1), and no answer or log line may give it back.
 *
 * Malformed requests go through a real server on 127.0.0.1 with raw socket writes (fetch will not send them,
 * and inject does not show what happens to the connection); the rest go through inject. No wall-clock
 * assertions: socket timeouts are generous safety nets only.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { clientErrorHandler, rawErrorResponse } from '../../src/http/client-errors.js';
import { silentLogger } from '../../src/platform/logger.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';

/** The probe: an identifier the spec says is never stored. Its mailbox must never come back. */
const EMAIL = 'mallory.probe@acme.com';
const MAILBOX = 'mallory.probe';
const BODY_LIMIT = 1024 * 1024;
const TOO_LARGE = `Request body too large: at most ${BODY_LIMIT} bytes are accepted.`;
const SAFETY_TIMEOUT_MS = 20_000;

let stack: TestStack;
let port: number;
let key: string;

beforeAll(async () => {
  stack = await startTestStack();
  ({ key } = await stack.newKey());
  await stack.app.listen({ port: 0, host: '127.0.0.1' });
  port = (stack.app.server.address() as net.AddressInfo).port;
});

afterAll(async () => stack?.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent, as text. */
  text: string;
  /** Whether the server closed the connection (rather than the safety timeout). */
  closed: boolean;
  /** The error the client's socket saw, if any (EPIPE/ECONNRESET when the server stopped reading). */
  socketError: string | null;
}

function parseAnswer(text: string): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rawBody = end === -1 ? '' : text.slice(end + 4);
  const length = Number(headers['content-length']);
  return { status: Number(statusLine.split(' ')[1]), headers, body: Number.isInteger(length) ? rawBody.slice(0, length) : rawBody };
}

/**
 * Opens a connection, writes `parts` in order and collects what the server sends until it closes the connection.
 * `keepWriting` then writes filler chunks (with backpressure) until the server closes or `keepWriting.max` bytes.
 */
function exchange(parts: (string | Buffer)[], options: { targetPort?: number; keepWriting?: { chunk: Buffer; max: number } } = {}): Promise<RawAnswer & { written: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(options.targetPort ?? port, '127.0.0.1');
    const received: Buffer[] = [];
    let closed = false;
    let socketError: string | null = null;
    let written = 0;
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      socketError = error.code ?? error.message;
    });
    socket.setTimeout(SAFETY_TIMEOUT_MS, () => socket.destroy());
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('latin1');
      resolve({ ...parseAnswer(text), text, closed, socketError, written });
    });
    socket.on('end', () => {
      closed = true;
    });
    socket.on('connect', () => {
      void (async () => {
        for (const part of parts) {
          if (socket.destroyed) return;
          written += Buffer.byteLength(part);
          if (!socket.write(part)) await new Promise((r) => socket.once('drain', r).once('close', r));
        }
        const filler = options.keepWriting;
        if (!filler) return;
        while (!socket.destroyed && !socket.writableEnded && written < filler.max) {
          written += filler.chunk.length;
          if (!socket.write(filler.chunk)) await new Promise((r) => socket.once('drain', r).once('close', r));
        }
      })();
    });
  });
}

function expectRegistryShape(answer: { status: number; body: string; text?: string }, status: number, message?: string): void {
  expect(answer.status).toBe(status);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(typeof body.message).toBe('string');
  if (message !== undefined) expect(body.message).toBe(message);
  expect(answer.text ?? answer.body).not.toContain(MAILBOX);
}

const request = (lines: string[], body = ''): string => `${lines.join('\r\n')}\r\n\r\n${body}`;

describe('a path with malformed percent-encoding', () => {
  const identifierCases = [
    `/v2/brands/${encodeURIComponent(EMAIL).replace('%40', '%E0%A4%A@')}`,
    `/v2/brands/jane%E0%A4%A@acme.com${MAILBOX}`,
    `/v2/brands/%`,
    `/v2/brands/%ZZ${EMAIL}`,
    `/v2/brands/${MAILBOX}%40acme.com%`,
    `/v2/brands/domain/%ZZ${EMAIL}`,
    `/v2/brands/%ZZ${EMAIL}/company/industries`,
  ];

  it.each(identifierCases)('answers 400 invalid_identifier on a lookup route, before the credential: %s', async (url) => {
    for (const headers of [{}, bearer(key)]) {
      const res = await stack.app.inject({ method: 'GET', url, headers });
      expectRegistryShape({ status: res.statusCode, body: res.body }, 400, 'Invalid identifier: malformed percent-encoding.');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('answers exactly `Bad Request` on the ISIN route (spec 7.1) and off the brand routes', async () => {
    for (const url of [`/v2/brands/isin/%ZZ${EMAIL}`, `/assets/%ZZ${EMAIL}.png`, `/nope/%ZZ${EMAIL}`]) {
      const res = await stack.app.inject({ method: 'GET', url, headers: bearer(key) });
      expectRegistryShape({ status: res.statusCode, body: res.body }, 400, 'Bad Request');
    }
  });

  it('HEAD answers 400 without a body; POST on the batch path answers the registry shape', async () => {
    const head = await stack.app.inject({ method: 'HEAD', url: `/v2/brands/%ZZ${EMAIL}`, headers: bearer(key) });
    expect(head.statusCode).toBe(400);
    expect(head.body).toBe('');
    const post = await stack.app.inject({ method: 'POST', url: `/v2/brands/batch%ZZ${MAILBOX}`, headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '{}' });
    expectRegistryShape({ status: post.statusCode, body: post.body }, 400);
  });

  it('on the wire: the raw path appears nowhere in the answer, headers included', async () => {
    const answer = await exchange([request([`GET /v2/brands/jane%E0%A4%A${EMAIL} HTTP/1.1`, 'Host: brandbase.test', 'Connection: close'])]);
    expectRegistryShape(answer, 400, 'Invalid identifier: malformed percent-encoding.');
  });

  it('a parameter longer than the router allows answers in the registry shape', async () => {
    const long = `${'a'.repeat(5000)}${EMAIL}`;
    const lookup = await stack.app.inject({ method: 'GET', url: `/v2/brands/domain/${long}`, headers: bearer(key) });
    expectRegistryShape({ status: lookup.statusCode, body: lookup.body }, 400);
    const asset = await stack.app.inject({ method: 'GET', url: `/assets/${long}.png` });
    expectRegistryShape({ status: asset.statusCode, body: asset.body }, 404, 'Asset not found.');
    const head = await stack.app.inject({ method: 'HEAD', url: `/v2/brands/${long}`, headers: bearer(key) });
    expect(head.statusCode).toBe(400);
  });
});

describe('an oversize body (over 1 MiB) on any route', () => {
  /** A JSON batch body of about `bytes` bytes, made of the probe identifier. */
  function batchBody(bytes: number): string {
    const item = `"${EMAIL}",`;
    return `{"identifiers":[${item.repeat(Math.ceil(bytes / item.length))}"x"]}`;
  }

  it('the attack run: a 10 MB batch through fetch gets 413 in the registry shape, not a reset connection', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v2/brands/batch`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: batchBody(10 * 1024 * 1024),
    });
    const text = await res.text();
    expectRegistryShape({ status: res.status, body: text }, 413, TOO_LARGE);
    expect(res.headers.get('connection')).toBe('close');
  });

  it('a 10 MB chunked batch (no Content-Length) is read to its end and answered 413', async () => {
    const body = Buffer.from(batchBody(10 * 1024 * 1024));
    const answer = await exchange([
      request(['POST /v2/brands/batch HTTP/1.1', 'Host: brandbase.test', `Authorization: Bearer ${key}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked']),
      `${body.length.toString(16)}\r\n`,
      body,
      '\r\n0\r\n\r\n',
    ]);
    expectRegistryShape(answer, 413, TOO_LARGE);
    expect(answer.socketError).toBeNull();
    expect(answer.headers.connection).toBe('close');
  });

  it.each([
    ['GET on a lookup route', 'GET', `/v2/brands/${EMAIL}`],
    ['POST on an unknown route', 'POST', `/nope/${EMAIL}`],
    ['HEAD prefetch', 'HEAD', `/v2/brands/${EMAIL}`],
    ['the batch without a credential', 'POST', '/v2/brands/batch'],
  ])('%s with a 2 MiB declared body answers 413 before anything else', async (_name, method, path) => {
    const body = Buffer.alloc(2 * 1024 * 1024, 'a');
    const auth = path === '/v2/brands/batch' ? [] : [`Authorization: Bearer ${key}`];
    const answer = await exchange([request([`${method} ${path} HTTP/1.1`, 'Host: brandbase.test', ...auth, 'Content-Type: application/json', `Content-Length: ${body.length}`]), body]);
    expect(answer.status).toBe(413);
    expect(answer.socketError).toBeNull();
    expect(answer.text).not.toContain(MAILBOX);
    if (method !== 'HEAD') expectRegistryShape(answer, 413, TOO_LARGE);
  });

  /** A chunked body of `bytes` bytes in 64 KiB chunks. */
  function chunked(bytes: number): Buffer[] {
    const chunk = Buffer.from(`10000\r\n${'a'.repeat(0x10000)}\r\n`);
    return [...Array.from({ length: Math.ceil(bytes / 0x10000) }, () => chunk), Buffer.from('0\r\n\r\n')];
  }

  it.each([
    ['GET on a lookup route (Fastify never reads a GET body)', 'GET', `/v2/brands/${EMAIL}`, []],
    ['POST on an unknown route without a content type', 'POST', `/nope/${EMAIL}`, []],
    ['the batch with a content type no parser accepts', 'POST', '/v2/brands/batch', ['Content-Type: application/xml']],
    ['the batch without a content type', 'POST', '/v2/brands/batch', []],
  ] as const)('%s with a 2 MiB chunked body answers 413 once it is read', async (_name, method, path, headers) => {
    const answer = await exchange([request([`${method} ${path} HTTP/1.1`, 'Host: brandbase.test', `Authorization: Bearer ${key}`, ...headers, 'Transfer-Encoding: chunked']), ...chunked(2 * 1024 * 1024)]);
    expectRegistryShape(answer, 413, TOO_LARGE);
    expect(answer.socketError).toBeNull();
  });

  it('a small chunked body that nothing reads is read before the answer, which is the usual one', async () => {
    const health = await exchange([request(['GET /healthz HTTP/1.1', 'Host: brandbase.test', 'Connection: close', 'Transfer-Encoding: chunked']), ...chunked(128 * 1024)]);
    expect(health.status).toBe(200);
    const xml = await exchange([request(['POST /v2/brands/batch HTTP/1.1', 'Host: brandbase.test', `Authorization: Bearer ${key}`, 'Connection: close', 'Content-Type: application/xml', 'Transfer-Encoding: chunked']), ...chunked(128 * 1024)]);
    expectRegistryShape(xml, 400, 'Bad Request');
    expect(xml.socketError).toBeNull();
  });

  it('a body declared larger than the discard bound is answered at once, unread, and the connection closed', async () => {
    // Only the headers are sent: the server must answer without waiting for 100 MB that never come.
    const answer = await exchange([
      request(['POST /v2/brands/batch HTTP/1.1', 'Host: brandbase.test', `Authorization: Bearer ${key}`, 'Content-Type: application/json', `Content-Length: ${100 * 1024 * 1024}`]),
    ]);
    expectRegistryShape(answer, 413, TOO_LARGE);
    expect(answer.closed).toBe(true);
  });

  it('inject: a declared oversize body answers 413 on the batch', async () => {
    const res = await stack.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: batchBody(BODY_LIMIT + 10) });
    expectRegistryShape({ status: res.statusCode, body: res.body }, 413, TOO_LARGE);
  });
});

describe('past the discard bound (BRANDBASE_DISCARD_BODY_MAX_BYTES)', () => {
  let tight: TestStack;
  let tightPort: number;
  const BOUND = 2 * 1024 * 1024;

  beforeAll(async () => {
    tight = await startTestStack({ BRANDBASE_DISCARD_BODY_MAX_BYTES: String(BOUND) });
    await tight.app.listen({ port: 0, host: '127.0.0.1' });
    tightPort = (tight.app.server.address() as net.AddressInfo).port;
  });

  afterAll(async () => tight?.close());

  it('an endless chunked body: the server stops reading past the bound and closes the connection', async () => {
    const chunk = Buffer.from(`10000\r\n${'a'.repeat(0x10000)}\r\n`);
    const max = 512 * 1024 * 1024;
    const answer = await exchange(
      [request(['POST /v2/brands/batch HTTP/1.1', 'Host: brandbase.test', 'Content-Type: application/json', 'Transfer-Encoding: chunked'])],
      { targetPort: tightPort, keepWriting: { chunk, max } },
    );
    // The server closed the connection long before the client ran out of body to send. The 413 was sent before the
    // close, but a client still writing may see the reset first: when the answer arrived, it is the registry's.
    expect(answer.written).toBeLessThan(max);
    if (answer.text.length > 0) expectRegistryShape(answer, 413, TOO_LARGE);
  });

  it('an endless chunked body on GET (never parsed): the same bound', async () => {
    const chunk = Buffer.from(`10000\r\n${'a'.repeat(0x10000)}\r\n`);
    const max = 512 * 1024 * 1024;
    const answer = await exchange([request([`GET /v2/brands/${EMAIL} HTTP/1.1`, 'Host: brandbase.test', 'Transfer-Encoding: chunked'])], {
      targetPort: tightPort,
      keepWriting: { chunk, max },
    });
    expect(answer.written).toBeLessThan(max);
    if (answer.text.length > 0) expectRegistryShape(answer, 413, TOO_LARGE);
  });

  it('a body between the limit and the bound is still read and answered 413', async () => {
    const body = Buffer.alloc(BOUND - 1024, 'a');
    const answer = await exchange(
      [request(['POST /v2/brands/batch HTTP/1.1', 'Host: brandbase.test', 'Content-Type: application/json', `Content-Length: ${body.length}`]), body],
      { targetPort: tightPort },
    );
    expectRegistryShape(answer, 413, TOO_LARGE);
    expect(answer.socketError).toBeNull();
  });
});

describe("requests Node's HTTP parser refuses", () => {
  it.each([
    ['headers over maxHeaderSize', 431, 'Request header fields too large.', [`GET /v2/brands/${EMAIL} HTTP/1.1`, 'Host: brandbase.test', `X-Probe: ${EMAIL.repeat(1000)}`]],
    ['Content-Length with Transfer-Encoding', 400, 'Bad Request', ['POST /v2/brands/batch HTTP/1.1', 'Host: brandbase.test', 'Content-Length: 22', 'Transfer-Encoding: chunked']],
    ['two different Content-Length values', 400, 'Bad Request', ['POST /v2/brands/batch HTTP/1.1', 'Host: brandbase.test', 'Content-Length: 22', 'Content-Length: 23']],
    ['an unknown HTTP version', 400, 'Bad Request', [`GET /v2/brands/${EMAIL} HTTP/9.z`, 'Host: brandbase.test']],
    ['a request line without a version', 400, 'Bad Request', [`GET /v2/brands/${EMAIL}`, 'Host: brandbase.test']],
    ['a request line that is only the identifier', 400, 'Bad Request', [EMAIL]],
    ['a space in a header name', 400, 'Bad Request', [`GET /v2/brands/${EMAIL} HTTP/1.1`, 'Host: brandbase.test', `X Probe: ${EMAIL}`]],
    ['a control character in a header value', 400, 'Bad Request', [`GET /v2/brands/${EMAIL} HTTP/1.1`, 'Host: brandbase.test', `X-Probe: ${EMAIL}\u0001`]],
    ['a malformed Content-Length', 400, 'Bad Request', ['POST /v2/brands/batch HTTP/1.1', 'Host: brandbase.test', 'Content-Length: 1x']],
  ] as const)('%s: %i in the registry shape, connection closed', async (_name, status, message, lines) => {
    const answer = await exchange([request([...lines], `{"identifiers":["${EMAIL}"]}`)]);
    expectRegistryShape(answer, status, message);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it('an invalid chunk in a chunked body answers 400 in the registry shape', async () => {
    const answer = await exchange([
      request(['POST /v2/brands/batch HTTP/1.1', 'Host: brandbase.test', `Authorization: Bearer ${key}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked']),
      `zz\r\n${EMAIL}\r\n0\r\n\r\n`,
    ]);
    expectRegistryShape(answer, 400, 'Bad Request');
  });

  it('the connection-level handler answers each parser code once, 408 for the headers timeout', async () => {
    const server = net.createServer();
    const handler = clientErrorHandler(silentLogger());
    server.on('connection', (socket) => {
      const timeout = Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
      handler(timeout, socket);
      handler(Object.assign(new Error('again'), { code: 'HPE_INVALID_METHOD' }), socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await exchange([], { targetPort: (server.address() as net.AddressInfo).port });
      expectRegistryShape(answer, 408, new ApiError('request_timeout').message);
      expect(answer.text.match(/HTTP\/1\.1/g)).toHaveLength(1);
      expect(answer.closed).toBe(true);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('raw answers carry the x-bf-error header of codes that have one', () => {
    expect(rawErrorResponse('rate_limited')).toContain('\r\nx-bf-error: rate_limited\r\n');
    expect(rawErrorResponse('bad_request')).not.toContain('x-bf-error');
  });
});

describe('already handled by the framework mapping: each answers the registry shape', () => {
  const batchPost = (contentType: string | null, payload: string) =>
    stack.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: { ...bearer(key), ...(contentType ? { 'content-type': contentType } : {}) }, payload });

  it.each([
    ['invalid JSON', 'application/json', `{"identifiers":["${EMAIL}"`],
    ['a JSON key that is the identifier', 'application/json', `{"identifiers":["acme.com"],"${EMAIL}":1}`],
    ['a JSON string instead of an object', 'application/json', JSON.stringify(EMAIL)],
    ['an empty JSON body', 'application/json', ''],
    ['__proto__ in the body', 'application/json', `{"__proto__":{"x":"${EMAIL}"},"identifiers":["acme.com"]}`],
    ['text/plain', 'text/plain', EMAIL],
    ['application/xml', 'application/xml', `<id>${EMAIL}</id>`],
    ['no content type', null, EMAIL],
    ['a malformed content type', `${EMAIL}/;;`, '{}'],
  ])('batch with %s: 400', async (_name, contentType, payload) => {
    const res = await batchPost(contentType, payload);
    expectRegistryShape({ status: res.statusCode, body: res.body }, 400);
  });

  it.each([
    ['an unknown route', 'GET', `/nope/${EMAIL}`],
    ['DELETE on a lookup route', 'DELETE', `/v2/brands/${EMAIL}`],
    ['PUT on a lookup route', 'PUT', `/v2/brands/${EMAIL}`],
    ['POST on the viewer', 'POST', '/v2/viewer'],
  ] as const)('%s: 404 `Not Found` (there is no 405)', async (_name, method, url) => {
    const res = await stack.app.inject({ method, url, headers: bearer(key) });
    expectRegistryShape({ status: res.statusCode, body: res.body }, 404, 'Not Found');
  });
});

describe('logs', () => {
  it('no log line written during these probes carries the mailbox', () => {
    expect(stack.logs()).not.toContain(MAILBOX);
  });
});
