import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ERROR_CODES } from '../domain/errors.js';

/** Sends an ApiError as the registry says: status, `{message, ...body}`, and the `x-bf-error` header if any. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.header) reply.header('x-bf-error', error.header);
  return reply.code(error.status).type('application/json').send({ message: error.message, ...error.body });
}

function isFastifyValidation(error: FastifyError): boolean {
  return Array.isArray(error.validation) || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY';
}

/**
 * Maps every failure to the error registry. Unknown errors are logged with the request id only (never the
 * request URL, which may hold an email address) and answered 500 without internals.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) return sendApiError(reply, error);
    if (isFastifyValidation(error)) return sendApiError(reply, new ApiError('bad_request', error.message || ERROR_CODES.bad_request.message));
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendApiError(reply, new ApiError('bad_request', ERROR_CODES.bad_request.message));
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return sendApiError(reply, new ApiError('internal_error'));
  });
  app.setNotFoundHandler((_request, reply) => sendApiError(reply, new ApiError('route_not_found')));
}
