// GraphQL over HTTP is admitted per credential (API token or session) as soon as its headers are
// read, before its body is read or parsed and before anything of it reaches the database: a
// token's requests run GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION at a time, and one more waits at
// most GRAPHQL_OPERATION_WAIT_MS before it is answered 429 TOO_MANY_OPERATIONS. A flood from one
// token so costs the process what a REST 429 costs (no body, no GraphQL parse, no token check, one
// answer written out once), which would otherwise take the event loop and connections from
// everyone else; the organization's own limit (graphql/plugins.ts) still counts all its tokens.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Bulkhead } from '../db/bulkhead.ts';
import { credentialKey } from '../auth/caller.ts';
import { forWebSocket, OPERATION_RETRY_AFTER_SECONDS, tooManyOperations } from '../graphql/errors.ts';
import { credentialsOf } from './sessions.ts';

export interface GraphqlAdmission {
  /** An onRequest hook: takes the request's slot, or answers the refusal. */
  admit(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Gives back the request's slot, once its operation has run (the handler's end). */
  release(request: FastifyRequest): void;
}

export function createGraphqlAdmission(operations: Bulkhead, maxOperations: number): GraphqlAdmission {
  // The body GraphQL over HTTP gives a request refused whole (errors only, no data), the same for
  // every refusal: serialized once.
  const refusal = JSON.stringify({ errors: [forWebSocket(tooManyOperations(maxOperations)).toJSON()] });
  const releases = new WeakMap<FastifyRequest, () => void>();
  return {
    async admit(request, reply) {
      const key = credentialKey(credentialsOf(request.headers));
      // Anonymous requests (GraphiQL's page, a missing token) read nothing of any organization.
      if (!key) return undefined;
      const release = await operations.admit(key);
      if (!release) {
        return reply.status(429).header('retry-after', OPERATION_RETRY_AFTER_SECONDS).type('application/json; charset=utf-8').send(refusal);
      }
      releases.set(request, release);
      // A request whose handler never runs (its body refused, the client gone) gives its slot
      // back when its answer ends; the release counts once.
      reply.raw.once('close', release);
      return undefined;
    },
    release(request) {
      releases.get(request)?.();
    },
  };
}
