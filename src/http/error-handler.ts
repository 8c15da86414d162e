import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ERROR_CODES } from '../domain/errors.js';

/** Sends an ApiError as the registry says: status, `{message, ...body}`, and the `x-bf-error` header if any. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.header) reply.header('x-bf-error', error.header);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.status).type('application/json').send({ message: error.message, ...error.body });
}

function isFastifyValidation(error: FastifyError): boolean {
  return Array.isArray(error.validation) || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY';
}

/** How error answers wait for the request body (body-limit.ts): the client must finish sending to read them. */
export interface RequestBodies {
  /** The body parser found the body over the limit: answer 413 once the rest is discarded. */
  tooLarge(request: FastifyRequest, reply: FastifyReply): void;
  /** Calls `answer` once a body nobody read is discarded (or answers 413 itself when it proves too large). */
  afterBody(request: FastifyRequest, reply: FastifyReply, answer: () => void): void;
}

function apiErrorFor(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (isFastifyValidation(error)) return new ApiError('bad_request', error.message || ERROR_CODES.bad_request.message);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return new ApiError('bad_request', ERROR_CODES.bad_request.message);
  request.log.error({ err: error, reqId: request.id }, 'unhandled error');
  return new ApiError('internal_error');
}

/**
 * Maps every failure to the error registry. Unknown errors are logged with the request id only (never the
 * request URL, which may hold an email address) and answered 500 without internals.
 */
export function installErrorHandling(app: FastifyInstance, bodies: RequestBodies): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      bodies.tooLarge(request, reply);
      return;
    }
    const answer = apiErrorFor(error, request);
    bodies.afterBody(request, reply, () => sendApiError(reply, answer));
  });
  app.setNotFoundHandler((request, reply) => {
    bodies.afterBody(request, reply, () => sendApiError(reply, new ApiError('route_not_found')));
  });
}
