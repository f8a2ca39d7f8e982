// Envelop plugins of /graphql, for both transports (Yoga over HTTP, and graphql-ws through Yoga's
// envelop): a document is parsed, limited and judged the same whichever way it came.
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { GraphQLError, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { QUERY_LIMITS } from './builder.ts';
import type { Context } from './context.ts';
import { useOwnCursors } from './cursors.ts';
import { queryTooComplex } from './errors.ts';

export const PARSE_FAILED = 'GRAPHQL_PARSE_FAILED';

/**
 * Every parse failure carries GRAPHQL_PARSE_FAILED and HTTP 400, whichever transport parsed the
 * text first. Yoga adds these only to HTTP requests' errors, after its parse cache has kept the
 * error object: a text that first failed over WebSocket was then answered over HTTP with 200 and
 * no code. Marking the error as it is made, before anyone reads it, keeps the cache right.
 */
function useParseFailureCode(): Plugin<Context> {
  return {
    onParse: () => ({ result }) => {
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

export const graphqlPlugins: Plugin<Context>[] = [useParseFailureCode(), useTokenLimit(), useAliasLimit(), useOwnCursors()];
