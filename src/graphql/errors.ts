// What GraphQL clients see of errors: the domain's refusals with their extensions.code
// (BAD_USER_INPUT with the fields at fault, NOT_FOUND), a lost database as DATABASE_UNAVAILABLE,
// and anything else masked as "Unexpected error." (INTERNAL_SERVER_ERROR), its cause logged.
import { GraphQLError } from 'graphql';
import { maskError, type MaskError, type YogaLogger } from 'graphql-yoga';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/availability.ts';
import { DomainError, InputError, LimitReachedError } from '../domain/shared/errors.ts';

export function unauthenticated(): GraphQLError {
  return new GraphQLError('A valid API token is required (Authorization: Bearer hla_...)', {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
  });
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
  if (!(original instanceof GraphQLError) && isDatabaseUnavailable(original)) {
    return new GraphQLError(`The database is unavailable; retry in ${DATABASE_RETRY_AFTER_SECONDS} s`, {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: {
        code: 'DATABASE_UNAVAILABLE',
        http: { status: 503, headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) } },
      },
    });
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
 * client can act on: NOT_FOUND, BAD_USER_INPUT, and every other code but these two) at debug,
 * one short record without a stack, since any token holder can cause them at request rate; a
 * database that cannot serve at warn; anything unexpected at error, with its stack. `log` is
 * pino's (Fastify's) logger: an object first, then the message.
 */
export function logGraphqlError(log: YogaLogger, error: unknown): void {
  const presented = toClientError(error, 'Unexpected error.', false) as GraphQLError;
  const code = presented.extensions.code;
  if (code === 'INTERNAL_SERVER_ERROR') log.error(error);
  else if (code === 'DATABASE_UNAVAILABLE') log.warn({ err: error }, 'database unavailable');
  else log.debug({ code }, presented.message);
}

/**
 * Yoga's logger over the process's: Yoga logs every error whose presentation changed (the
 * domain's refusals among them) with `error(error)`; those go through logGraphqlError.
 */
export function yogaLogger(log: YogaLogger): YogaLogger {
  return {
    debug: (...args) => log.debug(...args),
    info: (...args) => log.info(...args),
    warn: (...args) => log.warn(...args),
    error: (...args) => (args.length === 1 ? logGraphqlError(log, args[0]) : log.error(...args)),
  };
}
