// One error body for every REST route:
// {"error": {"code": "<snake_case>", "message": "...", "details": [{"field", "message"}]}}
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/availability.ts';
import type { FieldError } from '../domain/input.ts';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: FieldError[],
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string, details?: FieldError[]) {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/** Fastify's own errors (body parsing, routing) mapped onto our codes. */
const FASTIFY_ERRORS: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'Request body exceeds 102400 bytes' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', message: 'Content-Type must be application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_content_length', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'Body is empty; a JSON document is required' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'Body is not valid JSON' },
};

declare module 'fastify' {
  interface FastifyRequest {
    /** What became of the request (`accepted`, or an error code), for metrics. */
    outcome: string | undefined;
  }
}

function send(request: FastifyRequest, reply: FastifyReply, status: number, code: string, message: string, details?: FieldError[]) {
  request.outcome = code;
  return reply.status(status).send(errorBody(code, message, details));
}

export function handleError(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) return send(request, reply, error.statusCode, error.code, error.message, error.details);
  const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
  if (known) return send(request, reply, error.statusCode ?? 400, known.code, known.message);
  if (error.statusCode && error.statusCode < 500) return send(request, reply, error.statusCode, 'bad_request', error.message);
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
    return send(request, reply, 503, 'database_unavailable', `The database is unavailable; retry in ${DATABASE_RETRY_AFTER_SECONDS} s`);
  }
  request.log.error({ err: error }, 'request failed');
  return send(request, reply, 500, 'internal_error', 'Internal server error');
}

export function handleNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send(errorBody('not_found', `No route for ${request.method} ${request.url.split('?')[0]}`));
}
