// One error body for every REST route:
// {"error": {"code": "<snake_case>", "message": "...", "details": [{"field", "message"}]}}
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isStatementTimeout,
  STATEMENT_TIMEOUT_MESSAGE,
  STATEMENT_TIMEOUT_RETRY_AFTER_SECONDS,
  unavailabilityCause,
} from '../db/availability.ts';
import type { ThrottledWarnings } from '../db/throttled-warnings.ts';
import { ForbiddenError, InputError, LimitReachedError, NotFoundError, type FieldError } from '../domain/shared/errors.ts';
import type { RouteMethods } from './route-methods.ts';

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

const UNSUPPORTED_MEDIA_TYPE = { code: 'unsupported_media_type', message: 'Content-Type must be application/json' };

/** Fastify's own errors (body parsing, routing) mapped onto our codes. */
const FASTIFY_ERRORS: Record<string, { code: string; message: string | ((request: FastifyRequest) => string) }> = {
  // Each route has its own limit (ingest 100 KB, the rest Fastify's 1 MiB): name the one exceeded.
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    message: (request) => `Request body exceeds ${request.routeOptions.bodyLimit} bytes`,
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: UNSUPPORTED_MEDIA_TYPE,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_content_length', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'Body is empty; a JSON document is required' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'Body is not valid JSON' },
};

declare module 'fastify' {
  interface FastifyRequest {
    /** What became of the request (`accepted`, or an error code), for metrics. */
    outcome: string | undefined;
  }
  interface FastifyContextConfig {
    /** The message of a 400 validation_failed on this route, e.g. "The endpoint is invalid". */
    invalidInput?: string;
  }
}

function send(request: FastifyRequest, reply: FastifyReply, status: number, code: string, message: string, details?: FieldError[]) {
  request.outcome = code;
  // A client's mistake, which any client can make at request rate: a short line, and only at debug.
  if (status < 500) request.log.debug({ statusCode: status, code }, message);
  return reply.status(status).send(errorBody(code, message, details));
}

/** What GraphQL Yoga answers without a body: a request body or an Accept it cannot serve. */
const BODILESS_ANSWERS: Record<number, { code: string; message: string }> = {
  406: { code: 'not_acceptable', message: 'Accept must allow application/graphql-response+json or application/json' },
  415: UNSUPPORTED_MEDIA_TYPE,
};

/** An error status a library answered without a body, as an error in the REST shape. */
export function bodilessAnswerError(status: number): HttpError {
  const reason = STATUS_CODES[status] ?? 'Error';
  const { code, message } = BODILESS_ANSWERS[status] ?? { code: reason.toLowerCase().replace(/\W+/g, '_'), message: reason };
  return new HttpError(status, code, message);
}

/**
 * The error handler of every route. A database that cannot serve, and a statement past its
 * timeout, are warned of once per cause and interval (`warnings`): they come at request rate.
 */
export function createErrorHandler(warnings: ThrottledWarnings) {
  return function handleError(
    error: FastifyError | HttpError | InputError | NotFoundError | LimitReachedError | ForbiddenError,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    if (error instanceof HttpError) return send(request, reply, error.statusCode, error.code, error.message, error.details);
    // The domain's refusals: every invalid field, or something the caller's organization does not have.
    if (error instanceof InputError) {
      return send(
        request,
        reply,
        400,
        'validation_failed',
        request.routeOptions.config.invalidInput ?? 'The request is invalid',
        error.fields,
      );
    }
    if (error instanceof NotFoundError) return send(request, reply, 404, 'not_found', error.message);
    if (error instanceof ForbiddenError) return send(request, reply, 403, 'forbidden', error.message);
    if (error instanceof LimitReachedError) return send(request, reply, 409, 'limit_reached', error.message);
    const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
    if (known) {
      const message = typeof known.message === 'function' ? known.message(request) : known.message;
      return send(request, reply, error.statusCode ?? 400, known.code, message);
    }
    if (error.statusCode && error.statusCode < 500) return send(request, reply, error.statusCode, 'bad_request', error.message);
    const unavailable = unavailabilityCause(error);
    if (unavailable) {
      warnings.warn(`database unavailable: ${unavailable}`, error);
      reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
      return send(request, reply, 503, 'database_unavailable', `The database is unavailable; retry in ${DATABASE_RETRY_AFTER_SECONDS} s`);
    }
    if (isStatementTimeout(error)) {
      warnings.warn('statement timeout', error);
      reply.header('retry-after', STATEMENT_TIMEOUT_RETRY_AFTER_SECONDS);
      return send(request, reply, 503, 'statement_timeout', STATEMENT_TIMEOUT_MESSAGE);
    }
    request.log.error({ err: error }, 'request failed');
    return send(request, reply, 500, 'internal_error', 'Internal server error');
  };
}

/** 405 with Allow for a path that has routes, none for this method; otherwise 404. */
export function createNotFoundHandler(methodsOf: RouteMethods) {
  return function handleNotFound(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0]!;
    const allowed = methodsOf(path);
    if (allowed) {
      const allow = allowed.join(', ');
      reply.header('allow', allow);
      return send(request, reply, 405, 'method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allow}`);
    }
    return send(request, reply, 404, 'not_found', `No route for ${request.method} ${path}`);
  };
}

/** The header fields of a request that are read: Node's own default, which drops the rest silently. */
export const MAX_HEADER_FIELDS = 1000;

/**
 * What Node's parser lets through but a request must not have: more header fields than are read
 * (past the limit they would be dropped silently, Host or a token among them: the server reads
 * one more, so as to tell), and HTTP/1.1 without Host (Node would answer it itself, with an empty
 * body, unless told not to).
 */
export function headerFieldsError(request: IncomingMessage): HttpError | undefined {
  if (request.rawHeaders.length / 2 > MAX_HEADER_FIELDS) {
    return new HttpError(431, 'headers_too_large', `Request has more than ${MAX_HEADER_FIELDS} header fields`);
  }
  if (request.httpVersion === '1.1' && request.headers.host === undefined) {
    return new HttpError(400, 'bad_request', 'An HTTP/1.1 request needs a Host header');
  }
  return undefined;
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (and so before any route or
 * error handler): a request not received in time, headers over the size limit, bytes that are
 * not HTTP. The answer is written to the socket by hand, in the same error shape, and the
 * connection is closed: after such a request nothing more on it can be trusted.
 */
export function createClientErrorHandler(requestTimeoutMs: number) {
  const answers: Record<string, { status: number; code: string; message: string }> = {
    ERR_HTTP_REQUEST_TIMEOUT: {
      status: 408,
      code: 'request_timeout',
      message: `The request was not received completely within ${requestTimeoutMs} ms`,
    },
    HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', message: `Request headers exceed ${maxHeaderSize} bytes` },
  };
  const malformed = { status: 400, code: 'bad_request', message: 'Malformed HTTP request' };

  return function handleClientError(error: NodeJS.ErrnoException, socket: Socket): void {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // As Node's own handler does: answer only when no response has started on this connection,
    // or the answer would be spliced into another.
    const response = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (!socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, code, message } = answers[error.code ?? ''] ?? malformed;
    const body = JSON.stringify(errorBody(code, message));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    // A client that neither reads nor closes must not hold the socket (end() only half-closes it).
    socket.setTimeout(requestTimeoutMs, () => socket.destroy());
  };
}
