import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from '../domain/errors.js';
import type { Logger } from '../platform/logger.js';
import { sendApiError } from './error-handler.js';

/**
 * Requests that never reach a route: a path the router cannot decode, and bytes Node's HTTP parser refuses.
 * Both answer in the registry's shape (`{message}`, docs/errors.md) and never echo what the client sent: a
 * lookup path can hold an email address or a website URL, which the spec forbids keeping (section 1). Fastify's
 * own answers to these put the raw path in the body (`'/v2/brands/jane%E0@acme.com' is not a valid url
 * component`) and its logs put the raw request bytes in the log line.
 */

/** A path whose percent-encoding is malformed. On a lookup route the identifier is what is malformed. */
function badUrlError(url: string | undefined): ApiError {
  const path = url ?? '';
  // The ISIN route answers exactly `Bad Request` for any invalid ISIN (spec 7.1).
  if (path.startsWith('/v2/brands/isin/')) return new ApiError('bad_request');
  if (path.startsWith('/v2/brands/')) return new ApiError('invalid_identifier', 'Invalid identifier: malformed percent-encoding.');
  return new ApiError('bad_request');
}

/**
 * A path parameter longer than the router's `maxParamLength` (most lookups reach the wildcard route instead, which
 * answers the identifier length rule itself).
 */
function tooLongParamError(url: string | undefined): ApiError {
  const path = url ?? '';
  if (path.startsWith('/v2/brands/')) return new ApiError('invalid_identifier', 'Invalid identifier: too long.');
  if (path.startsWith('/assets/')) return new ApiError('asset_not_found');
  return new ApiError('route_not_found');
}

/**
 * Fastify's `frameworkErrors`: router-level failures before any route or hook runs. The error's message holds the
 * raw path, so it is neither sent nor logged.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    sendApiError(reply, badUrlError(request.raw.url));
    return;
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendApiError(reply, tooLongParamError(request.raw.url));
    return;
  }
  request.log.error({ code: error.code, reqId: request.id }, 'framework error');
  sendApiError(reply, new ApiError('internal_error'));
}

/** Node's parser error codes → the registry. Anything else the parser refuses is a malformed request. */
const PARSER_ERRORS: Readonly<Record<string, ErrorCode>> = {
  HPE_HEADER_OVERFLOW: 'headers_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
};

/** The raw HTTP/1.1 answer for a connection the parser gave up on: the registry's status, header and body. */
export function rawErrorResponse(code: ErrorCode): string {
  const error = new ApiError(code);
  const body = JSON.stringify({ message: error.message });
  const lines = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
  ];
  if (error.header) lines.push(`x-bf-error: ${error.header}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Whether a response on this socket has started; writing another one then would corrupt it. */
function responseStarted(socket: Socket): boolean {
  // Node's own clientError default checks the same private field (lib/_http_server.js, socketOnError).
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return current?.headersSent === true;
}

export type ClientErrorHandler = (error: Error & { code?: string }, socket: Socket) => void;

/**
 * Fastify's `clientErrorHandler` (the server's `clientError` event): request bytes Node's HTTP parser refuses
 * (malformed request line or header, `Content-Length` with `Transfer-Encoding`, two `Content-Length` values,
 * headers over `maxHeaderSize`) and the headers timeout. Answers in the registry's shape and closes the
 * connection, since the rest of the stream cannot be trusted. The log line has the parser's code only: the
 * error's `rawPacket` is the client's bytes.
 */
export function clientErrorHandler(logger: Logger): ClientErrorHandler {
  const answered = new WeakSet<Socket>();
  return (error, socket) => {
    // The parser reports every later chunk on a broken connection again: answer once.
    if (answered.has(socket)) return;
    answered.add(socket);
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const code = PARSER_ERRORS[error.code ?? ''] ?? 'bad_request';
    logger.debug({ code: error.code, answer: code }, 'client error');
    if (!socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    // end(), then destroy once written: the answer goes out before the connection closes.
    socket.end(rawErrorResponse(code), () => socket.destroy());
  };
}
