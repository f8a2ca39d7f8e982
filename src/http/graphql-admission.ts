// GraphQL over HTTP is admitted per credential (API token or session) before anything of the request reaches the database:
// a token's requests run GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION at a time, and one more waits at
// most GRAPHQL_OPERATION_WAIT_MS before it is answered 429 TOO_MANY_OPERATIONS. A flood from one
// token is so refused without a token check each, which would otherwise take connections from
// everyone else; the organization's own limit (graphql/plugins.ts) still counts all its tokens.
import type { FastifyReply } from 'fastify';
import { BulkheadFullError, type Bulkhead } from '../db/bulkhead.ts';
import { credentialKey, type Credentials } from '../auth/caller.ts';
import { forWebSocket, OPERATION_RETRY_AFTER_SECONDS, tooManyOperations } from '../graphql/errors.ts';

/** Resolves with the release of the request's slot, or undefined when it was refused (and answered). */
export type GraphqlAdmission = (credentials: Credentials, reply: FastifyReply) => Promise<(() => void) | undefined>;

export function createGraphqlAdmission(operations: Bulkhead, maxOperations: number): GraphqlAdmission {
  return async (credentials, reply) => {
    const key = credentialKey(credentials);
    // Anonymous requests (GraphiQL's page, a missing token) read nothing of any organization.
    if (!key) return () => {};
    try {
      return await operations.acquire(key);
    } catch (error) {
      if (!(error instanceof BulkheadFullError)) throw error;
      // The body GraphQL over HTTP gives a request refused whole: errors only, no data.
      reply
        .status(429)
        .header('retry-after', OPERATION_RETRY_AFTER_SECONDS)
        .send({ errors: [forWebSocket(tooManyOperations(maxOperations)).toJSON()] });
      return undefined;
    }
  };
}
