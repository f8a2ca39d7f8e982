// The errors the domain throws on purpose, each saying what a client did wrong. They are mapped
// once for each API: GraphQL (extensions.code) in src/graphql/errors.ts, REST (status and
// error code) in src/http/errors.ts. Anything else is a bug, and is masked.

export interface FieldError {
  field: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly code: 'BAD_USER_INPUT' | 'NOT_FOUND' | 'LIMIT_REACHED' | 'FORBIDDEN';
}

/** The input is wrong: which fields, and why (every field at fault, not only the first). */
export class InputError extends DomainError {
  readonly code = 'BAD_USER_INPUT';
  override name = 'InputError';

  constructor(
    readonly fields: FieldError[],
    message = fields.map((field) => `${field.field} ${field.message}`).join('; '),
  ) {
    super(message);
  }
}

/** The caller's organization has no such thing (another organization's counts as none). */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
  override name = 'NotFoundError';

  constructor(what: string, id: string, message = `${what} ${id} not found`) {
    super(message);
  }
}

/** The organization has as many of something as it may have: one must go before another is made. */
export class LimitReachedError extends DomainError {
  readonly code = 'LIMIT_REACHED';
  override name = 'LimitReachedError';

  constructor(
    readonly limit: number,
    message: string,
  ) {
    super(message);
  }
}

/** The caller may not do this: its role is below what it needs, or the rule protects the organization (its last owner). */
export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN';
  override name = 'ForbiddenError';
}
