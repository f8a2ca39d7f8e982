// Expected errors carry extensions.code; anything else is masked by Yoga.
import { GraphQLError } from 'graphql';
import type { Context } from './context.ts';

export function unauthenticated(): GraphQLError {
  return new GraphQLError('A valid API token is required (Authorization: Bearer hla_...)', {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
  });
}

export function notFound(what: string, id: string): GraphQLError {
  return new GraphQLError(`${what} ${id} not found`, { extensions: { code: 'NOT_FOUND' } });
}

export function badUserInput(message: string, fields: { field: string; message: string }[]): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', fields } });
}

/** The caller's organization id; refuses callers without a valid API token. */
export function viewerOrganizationId(context: Context): string {
  if (!context.organization) throw unauthenticated();
  return context.organization.id;
}
