// Envelop plugins of /graphql, for both transports (Yoga over HTTP, and graphql-ws through Yoga's
// envelop): a document is parsed, limited and judged the same whichever way it came.
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { getOperationAST, GraphQLError, Kind, parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { BulkheadFullError, type Bulkhead } from '../db/bulkhead.ts';
import { inRequestScope } from '../db/request-scope.ts';
import { LimitReachedError } from '../domain/shared/errors.ts';
import { checkRoomForEndpoints } from '../domain/webhooks/endpoints.ts';
import { QUERY_LIMITS } from './builder.ts';
import type { Context } from './context.ts';
import { useOwnCursors } from './cursors.ts';
import { queryTooComplex, rateLimited, toClientError, tooManyOperations } from './errors.ts';
import { useMutationRoles } from './roles.ts';

export const PARSE_FAILED = 'GRAPHQL_PARSE_FAILED';

/**
 * Every parse failure carries GRAPHQL_PARSE_FAILED and HTTP 400, whichever transport parsed the
 * text first. Yoga adds these only to HTTP requests' errors, after its parse cache has kept the
 * error object: a text that first failed over WebSocket was then answered over HTTP with 200 and
 * no code. Marking the error as it is made, before anyone reads it, keeps the cache right.
 */
function useParseFailureCode(): Plugin<Context> {
  return {
    onParse:
      () =>
      ({ result }) => {
        if (!(result instanceof GraphQLError)) return;
        const extensions = result.extensions as Record<string, unknown>;
        extensions.code ??= PARSE_FAILED;
        extensions.http ??= { status: 400, spec: true };
      },
  };
}

/**
 * At most QUERY_LIMITS.tokens lexical tokens (graphql-js's own `maxTokens`): parsing a document
 * is paid before any other limit can look at it, so its size in tokens is the first limit.
 */
function useTokenLimit(): Plugin<Context> {
  return {
    onParse: ({ setParseFn }) => setParseFn((source, options) => parse(source, { ...options, maxTokens: QUERY_LIMITS.tokens })),
  };
}

/**
 * At most QUERY_LIMITS.aliases aliases (graphql-armor): each alias runs its field once more, so
 * the complexity estimate alone would let a cheap-looking field be asked for a thousand times.
 * Reported as a validation error (not thrown, which would end a WebSocket with 4500).
 */
function useAliasLimit(): Plugin<Context> {
  const rule = maxAliasesRule({
    n: QUERY_LIMITS.aliases,
    propagateOnRejection: false,
    onReject: [
      (context, error) => {
        const found = Number(/found (\d+)/.exec(error.message)?.[1]);
        context?.reportError(queryTooComplex('aliases', found, QUERY_LIMITS.aliases));
      },
    ],
  });
  return { onValidate: ({ addValidationRule }) => addValidationRule(rule) };
}

/** The fields (those named `fieldName`, if given) a selection set runs, fragments spread: each aliased field once. */
function countFields(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, fieldName?: string): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) count += fieldName === undefined || selection.name.value === fieldName ? 1 : 0;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += countFields(selection.selectionSet, fragments, fieldName);
    else {
      const fragment = fragments.get(selection.name.value);
      if (fragment) count += countFields(fragment.selectionSet, fragments, fieldName);
    }
  }
  return count;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(
    document.definitions
      .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
}

/** Counts `points` against an organization's limit and says whether they fit (the server's rate limiter). */
export type MutationLimiter = (
  organizationId: string,
  points: number,
) => Promise<{ allowed: boolean; limit: number; resetSeconds: number }>;

/**
 * At most MUTATION_RATE_LIMIT_PER_MINUTE mutation fields per organization and minute, each alias
 * counted (15 aliased createWebhookEndpoint are 15): a request over the limit runs none of them
 * and gets RATE_LIMITED. Without an organization, scope-auth refuses the mutation anyway.
 */
function useMutationRateLimit(limiter: MutationLimiter): Plugin<Context> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const organization = args.contextValue.organization;
      if (!organization) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'mutation') return;
      const decision = await limiter(organization.id, countFields(operation.selectionSet, fragmentsOf(args.document)));
      if (!decision.allowed) setResultAndStopExecution({ errors: [rateLimited(decision.limit, decision.resetSeconds)] });
    },
  };
}

/**
 * A mutation whose aliased createWebhookEndpoint fields would pass the organization's endpoint
 * limit is refused whole with LIMIT_REACHED before any runs: all or nothing, so no endpoint is
 * made whose signing secret the answer would not show. One creation is checked by itself, as it
 * is made. (Two requests racing for the last places are each checked here first, then each
 * creation as it is made.)
 */
function useEndpointRoomForWholeRequest(): Plugin<Context> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const { organization, prisma, maxEndpointsPerOrganization } = args.contextValue;
      if (!organization) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'mutation') return;
      const creating = countFields(operation.selectionSet, fragmentsOf(args.document), 'createWebhookEndpoint');
      if (creating < 2) return;
      try {
        await checkRoomForEndpoints(prisma, organization.id, creating, maxEndpointsPerOrganization);
      } catch (error) {
        if (!(error instanceof LimitReachedError)) throw error;
        setResultAndStopExecution({ errors: [toClientError(error, error.message, false) as GraphQLError] });
      }
    },
  };
}

/** How an organization's operations share the process (the settings of the same names). */
export interface OperationLimits {
  /** GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION slots per organization, GRAPHQL_OPERATION_WAIT_MS the wait for one. */
  operations: Bulkhead;
  maxOperations: number;
  /** API_STATEMENT_TIMEOUT_MS; undefined: none. */
  statementTimeoutMs: number | undefined;
}

/**
 * An organization's queries and mutations run at most GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION at
 * a time: one more waits for one of them to end, at most GRAPHQL_OPERATION_WAIT_MS, and is then
 * refused whole with TOO_MANY_OPERATIONS (429, Retry-After), so a flood is told so within the
 * wait instead of queueing for the database in front of everyone. An operation runs in its
 * organization's request scope: its statements hold at most the organization's share of the
 * connections, under the API's statement timeout. Subscriptions are limited per socket instead.
 * Taken as execution starts (after every other plugin's say), so an operation stopped earlier
 * holds nothing.
 *
 * A query of a credential or organization whose flood is held (one operation at a time) also
 * reads on one connection at a time: its fields' statements, which would otherwise run side by
 * side on the organization's whole share, run one after another. Each statement running at once
 * is a PostgreSQL process on the machine's few cores; several of them, one flood's, slow every
 * other organization's statements far more than one does. Mutations are left their share: a
 * transaction may check out a second connection while it holds one, and their rate is limited
 * anyway (MUTATION_RATE_LIMIT_PER_MINUTE).
 */
function useOperationLimit({ operations, maxOperations, statementTimeoutMs }: OperationLimits): Plugin<Context> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const { organization, credential } = args.contextValue;
      if (!organization) return;
      setExecuteFn(async (executeArgs) => {
        let release: () => void;
        try {
          release = await operations.acquire(organization.id);
        } catch (error) {
          if (error instanceof BulkheadFullError) return { errors: [tooManyOperations(maxOperations)] };
          throw error;
        }
        const heldKey =
          getOperationAST(executeArgs.document, executeArgs.operationName)?.operation === 'query'
            ? [credential, organization.id].find((key): key is string => key !== null && operations.held(key))
            : undefined;
        try {
          return await inRequestScope({ organizationId: organization.id, oneConnectionKey: heldKey, statementTimeoutMs }, () =>
            executeFn(executeArgs),
          );
        } finally {
          release();
        }
      });
    },
  };
}

/** The plugins of /graphql; `mutationRateLimiter` null: mutations are not limited. */
export function graphqlPlugins({
  mutationRateLimiter,
  operationLimits,
}: {
  mutationRateLimiter: MutationLimiter | null;
  operationLimits: OperationLimits;
}): Plugin<Context>[] {
  return [
    useParseFailureCode(),
    useTokenLimit(),
    useAliasLimit(),
    useOwnCursors(),
    // A mutation the caller's role may not run is refused before it counts against any limit.
    useMutationRoles(),
    ...(mutationRateLimiter ? [useMutationRateLimit(mutationRateLimiter)] : []),
    useEndpointRoomForWholeRequest(),
    useOperationLimit(operationLimits),
  ];
}
