import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { sendApiError, type RequestBodies } from './error-handler.js';

/** The largest request body any route accepts (Fastify's `bodyLimit`; the batch needs far less). */
export const BODY_MAX_BYTES = 1024 * 1024;

export interface BodyLimits {
  /** Bodies larger than this answer 413 `payload_too_large`. */
  bodyMaxBytes: number;
  /** An oversize body is read and discarded up to this many bytes before the 413; past it the connection closes. */
  discardMaxBytes: number;
}

/** Methods whose bodies Fastify never reads (its `bodyless` set). */
const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * Reads and throws away the rest of a request body, then calls `then` once with whether the body ended and how
 * many bytes were read in all (counting `alreadyRead`): when the body ends, when more than `boundBytes` have been
 * read, or when the client goes away. A body declared larger than the bound is not read at all.
 *
 * Why read at all: a server that answers and closes while the client is still sending makes the kernel reset the
 * connection, and the reset discards the answer on the client's side (an oversize body then looks like a network
 * failure with no status). Reading the body first lets the client finish sending and read the answer.
 */
export function discardBody(raw: IncomingMessage, alreadyRead: number, boundBytes: number, then: (ended: boolean, read: number) => void): void {
  if (raw.readableEnded) {
    then(true, alreadyRead);
    return;
  }
  if (Number(raw.headers['content-length']) > boundBytes || alreadyRead > boundBytes) {
    then(false, alreadyRead);
    return;
  }
  let read = alreadyRead;
  const finish = (ended: boolean): void => {
    raw.off('data', onData);
    raw.off('end', onEnd);
    raw.off('error', onGone);
    raw.off('close', onGone);
    // Past the bound nothing more is read; the answer carries `connection: close` and Node closes the socket.
    if (!ended) raw.pause();
    then(ended, read);
  };
  const onData = (chunk: Buffer): void => {
    read += chunk.length;
    if (read > boundBytes) finish(false);
  };
  const onEnd = (): void => finish(true);
  const onGone = (): void => finish(false);
  raw.on('data', onData);
  raw.once('end', onEnd);
  raw.once('error', onGone);
  raw.once('close', onGone);
  raw.resume();
}

function sendTooLarge(request: FastifyRequest, reply: FastifyReply, limits: BodyLimits): void {
  if (reply.sent || request.raw.socket.destroyed) return;
  reply.header('connection', 'close');
  sendApiError(reply, new ApiError('payload_too_large', `Request body too large: at most ${limits.bodyMaxBytes} bytes are accepted.`));
}

/**
 * Answers 413 `payload_too_large` (with `connection: close`) after discarding the body up to the bound.
 * `alreadyRead` is what the body parser consumed before it gave up (0 when the declared length was refused).
 */
export function answerBodyTooLarge(request: FastifyRequest, reply: FastifyReply, limits: BodyLimits, alreadyRead = 0): void {
  discardBody(request.raw, alreadyRead, limits.discardMaxBytes, () => sendTooLarge(request, reply, limits));
}

/** Whether the request carries a body that nothing has started to read. */
function hasUnreadBody(request: FastifyRequest): boolean {
  const { headers, raw } = request;
  const length = headers['content-length'];
  if (headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return false;
  return raw.readableFlowing === null && !raw.readableEnded;
}

/**
 * Runs `answer` once a body nothing reads (an error or 404 answered before parsing, a GET with a chunked body) is
 * read to its end; a body that proves larger than the limit answers 413 instead, and reading stops at the
 * discard bound. Without this, the answer would go out while the client is still sending, and Node would then
 * read and discard the rest of the body without any bound.
 */
export function afterBody(request: FastifyRequest, reply: FastifyReply, limits: BodyLimits, answer: () => void): void {
  if (!hasUnreadBody(request)) {
    answer();
    return;
  }
  // A body within the limit is always read in full, whatever the discard bound.
  const bound = Math.max(limits.discardMaxBytes, limits.bodyMaxBytes);
  discardBody(request.raw, 0, bound, (ended, read) => {
    if (ended && read <= limits.bodyMaxBytes) answer();
    else sendTooLarge(request, reply, limits);
  });
}

/** What the error handler needs (error-handler.ts): 413 after the parser gives up, and answers after the body. */
export function requestBodies(limits: BodyLimits): RequestBodies {
  return {
    // A parser that gave up on a chunked body had read past the limit already; on a declared length, nothing.
    tooLarge: (request, reply) => answerBodyTooLarge(request, reply, limits, request.headers['content-length'] === undefined ? limits.bodyMaxBytes : 0),
    afterBody: (request, reply, answer) => afterBody(request, reply, limits, answer),
  };
}

/**
 * A declared body (`Content-Length`) over the limit answers 413 on every route and method, before any other
 * check. A chunked body on GET or HEAD (which Fastify never reads) is read before the route runs, so it gets the
 * same 413 when it proves too large. Other chunked bodies are measured while parsed (error-handler.ts).
 */
export function installBodyLimit(app: FastifyInstance, limits: BodyLimits): void {
  // Callback style: an async hook costs a promise per request on the hottest path.
  app.addHook('onRequest', (request, reply, done) => {
    const length = request.headers['content-length'];
    if (length === undefined) {
      if (request.headers['transfer-encoding'] === undefined || !BODYLESS_METHODS.has(request.method)) done();
      else afterBody(request, reply, limits, done);
      return;
    }
    if (!(Number(length) > limits.bodyMaxBytes)) {
      done();
      return;
    }
    // The answer is sent once the body is discarded; `done` is not called, so no route runs.
    answerBodyTooLarge(request, reply, limits);
  });
}
