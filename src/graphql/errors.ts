// What GraphQL clients see of errors: the domain's refusals with their extensions.code
// (BAD_USER_INPUT with the fields at fault, NOT_FOUND), a lost database as DATABASE_UNAVAILABLE,
// a statement past its timeout as STATEMENT_TIMEOUT, an organization past its share of the
// connections as TOO_MANY_OPERATIONS, and anything else masked as "Unexpected error."
// (INTERNAL_SERVER_ERROR), its cause logged.
import { GraphQLError } from 'graphql';
import { maskError, type MaskError, type YogaLogger } from 'graphql-yoga';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  isStatementTimeout,
  STATEMENT_TIMEOUT_MESSAGE,
  STATEMENT_TIMEOUT_RETRY_AFTER_SECONDS,
  unavailabilityCause,
} from '../db/availability.ts';
import { isBulkheadFull } from '../db/bulkhead.ts';
import type { ThrottledWarnings } from '../db/throttled-warnings.ts';
import { DomainError, InputError, LimitReachedError } from '../domain/shared/errors.ts';

export function unauthenticated(): GraphQLError {
  return new GraphQLError('A valid API token (Authorization: Bearer hla_...) or a live sign-in session is required', {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
  });
}

/** The caller may not do this (its role), or X-Hookline-Organization names an organization it is not a member of. */
export function forbidden(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } });
}

/**
 * A query over the depth, complexity or alias limit (see QUERY_LIMITS in builder.ts). Its own code
 * rather than BAD_USER_INPUT: no argument is wrong, the query as a whole asks for too much;
 * `limit`, `value` and `max` say which limit and by how much, so a client can split or trim the query.
 */
export function queryTooComplex(limit: 'depth' | 'breadth' | 'complexity' | 'aliases', value: number, max: number): GraphQLError {
  const measure = limit === 'aliases' ? 'number of aliases' : limit;
  return new GraphQLError(
    `Query is too complex: its ${measure} is ${value}, at most ${max} is allowed. Select fewer nested fields or smaller pages (first), or split the query.`,
    { extensions: { code: 'QUERY_TOO_COMPLEX', limit, value, max } },
  );
}

/**
 * The organization ran more mutation fields this minute than MUTATION_RATE_LIMIT_PER_MINUTE: the
 * whole request is refused (nothing ran), HTTP 429 with Retry-After, as the ingest limit does.
 */
export function rateLimited(limit: number, retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(
    `Too many mutations: an organization may run ${limit} mutation fields a minute (each alias counts); retry in ${retryAfterSeconds} s`,
    {
      extensions: {
        code: 'RATE_LIMITED',
        limit,
        retryAfterSeconds,
        http: { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } },
      },
    },
  );
}

/**
 * Too many failed password checks for this email from this address (sign-ins and password changes
 * together): refused, nothing checked, until the window ends; HTTP 429 with Retry-After, as sign-in.
 */
export function tooManyPasswordFailures(retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(`Too many wrong passwords for this email from this address; retry in ${retryAfterSeconds} s`, {
    extensions: { code: 'RATE_LIMITED', retryAfterSeconds, http: { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } } },
  });
}

/** What an organization over its share of operations or connections is told to wait. */
export const OPERATION_RETRY_AFTER_SECONDS = 1;

/**
 * The organization runs GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION operations already, and none
 * ended within GRAPHQL_OPERATION_WAIT_MS: this one is refused (nothing ran), HTTP 429.
 */
export function tooManyOperations(max: number): GraphQLError {
  return new GraphQLError(
    `Too many GraphQL operations at once: an organization may run ${max} at a time; retry in ${OPERATION_RETRY_AFTER_SECONDS} s`,
    {
      extensions: {
        code: 'TOO_MANY_OPERATIONS',
        max,
        retryAfterSeconds: OPERATION_RETRY_AFTER_SECONDS,
        http: { status: 429, headers: { 'retry-after': String(OPERATION_RETRY_AFTER_SECONDS) } },
      },
    },
  );
}

/** An error of the database's making, as a client gets it: its code, HTTP status and Retry-After. */
function databaseError(error: unknown, message: string, code: string, status: number, retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(message, {
    nodes: error instanceof GraphQLError ? error.nodes : undefined,
    path: error instanceof GraphQLError ? error.path : undefined,
    extensions: { code, http: { status, headers: { 'retry-after': String(retryAfterSeconds) } } },
  });
}

/**
 * Yoga's error masking (used on every transport): a DomainError becomes its code (and fields),
 * a lost database is said as such (HTTP 503 with Retry-After: the client should retry, not
 * report a bug), and anything else is masked by Yoga.
 */
export const toClientError: MaskError = (error, message, isDev) => {
  const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  if (original instanceof DomainError) {
    return new GraphQLError(original.message, {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: {
        code: original.code,
        ...(original instanceof InputError ? { fields: original.fields } : {}),
        ...(original instanceof LimitReachedError ? { limit: original.limit } : {}),
      },
    });
  }
  if (!(original instanceof GraphQLError)) {
    if (isDatabaseUnavailable(original)) {
      const message = `The database is unavailable; retry in ${DATABASE_RETRY_AFTER_SECONDS} s`;
      return databaseError(error, message, 'DATABASE_UNAVAILABLE', 503, DATABASE_RETRY_AFTER_SECONDS);
    }
    if (isStatementTimeout(original)) {
      return databaseError(error, STATEMENT_TIMEOUT_MESSAGE, 'STATEMENT_TIMEOUT', 503, STATEMENT_TIMEOUT_RETRY_AFTER_SECONDS);
    }
    // A field whose statement waited past CONNECTION_WAIT_MS for the organization's share of the pool.
    if (isBulkheadFull(original)) {
      const message = `Too many GraphQL operations at once: the organization's operations hold all the database connections it may have; retry in ${OPERATION_RETRY_AFTER_SECONDS} s`;
      return databaseError(error, message, 'TOO_MANY_OPERATIONS', 429, OPERATION_RETRY_AFTER_SECONDS);
    }
  }
  return maskError(error, message, isDev);
};

/**
 * The error as a graphql-ws client gets it: without what Yoga keeps for its own HTTP responses
 * and removes from them (the HTTP status, the `unexpected` mark of a masked error).
 */
export function forWebSocket(error: GraphQLError): GraphQLError {
  const { http: _http, unexpected: _unexpected, ...extensions } = error.extensions;
  const { nodes, source, positions, path } = error;
  return new GraphQLError(error.message, { nodes, source, positions, path, extensions });
}

/**
 * An error as its client got it decides how it is logged: the client's own mistake (a code the
 * client can act on: NOT_FOUND, BAD_USER_INPUT, and every other code but these three) at debug,
 * one short record without a stack, since any token holder can cause them at request rate; a
 * database that cannot serve, or a statement past its timeout, at warn, one line per cause and
 * interval (`warnings`); anything unexpected at error, with its stack. `log` is pino's
 * (Fastify's) logger: an object first, then the message.
 */
export function logGraphqlError(log: YogaLogger, warnings: ThrottledWarnings, error: unknown): void {
  const presented = toClientError(error, 'Unexpected error.', false) as GraphQLError;
  const code = presented.extensions.code;
  if (code === 'INTERNAL_SERVER_ERROR') log.error(error);
  else if (code === 'DATABASE_UNAVAILABLE') warnings.warn(`database unavailable: ${unavailabilityCause(error)}`, error);
  else if (code === 'STATEMENT_TIMEOUT') warnings.warn('statement timeout', error);
  else log.debug({ code }, presented.message);
}

/**
 * Yoga's logger over the process's: Yoga logs every error whose presentation changed (the
 * domain's refusals among them) with `error(error)`; those go through logGraphqlError.
 */
export function yogaLogger(log: YogaLogger, warnings: ThrottledWarnings): YogaLogger {
  return {
    debug: (...args) => log.debug(...args),
    info: (...args) => log.info(...args),
    warn: (...args) => log.warn(...args),
    error: (...args) => (args.length === 1 ? logGraphqlError(log, warnings, args[0]) : log.error(...args)),
  };
}
