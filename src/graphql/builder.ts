// The schema builder: plugins and scalars only. Types live in ./types, one file each.
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin, { ComplexityErrorKind } from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import { getNamedType, type GraphQLField } from 'graphql';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { z } from 'zod';
import type PrismaTypes from '../generated/pothos-types.ts';
import { getDatamodel } from '../generated/pothos-types.ts';
import { COMMITS_MAX_ITEMS } from '../domain/deploys.ts';
import { ENDPOINT_HEADER_LIMITS } from '../domain/endpoints.ts';
import { EVENT_TYPES } from '../domain/events.ts';
import { MAX_REASONS_PER_SUSPECT, MAX_SUSPECTS } from '../domain/suspects.ts';
import { InputError } from '../domain/errors.ts';
import type { Context } from './context.ts';
import { queryTooComplex, unauthenticated } from './errors.ts';

/** Connections: `first`/`last` default to this... */
export const DEFAULT_PAGE_SIZE = 20;
/** ...and may not ask for more than this (BAD_USER_INPUT; never silently clamped). */
export const MAX_PAGE_SIZE = 100;

/**
 * The most items each list field (other than connections) returns: what the data allows (commits
 * of a deploy, event types, reasons of a suspect) or what the field takes (suspects, attempts).
 * The complexity estimate counts a list's selection this many times.
 */
export const LIST_BOUNDS = {
  suspects: MAX_SUSPECTS,
  /** Incidents a deploy is listed as a suspect of: the most recently opened ones. */
  suspectIn: 20,
  reasons: MAX_REASONS_PER_SUSPECT,
  commits: COMMITS_MAX_ITEMS,
  /** Attempts of a delivery shown: the latest ones (1 + DELIVERY_MAX_RETRIES per round; manual retries add more). */
  attempts: 20,
  eventTypes: EVENT_TYPES.length,
  endpointHeaders: ENDPOINT_HEADER_LIMITS.count,
  /** Reveals of an endpoint's signing secret shown: the latest ones. */
  secretReveals: 20,
} as const;

/** The complexity of a list field: its selection counted `max` times. */
export const listOf = (max: number) => ({ field: 1, multiplier: max });

/**
 * Query limits, checked before any field resolves: at most `tokens` lexical tokens (checked while
 * parsing) and `aliases` aliases, a depth of `depth`, and an estimated `complexity`. Complexity
 * estimates the work: every field costs 1, and a selection under a list costs its size times over:
 * a connection's `first`/`last` (or DEFAULT_PAGE_SIZE), any other list its LIST_BOUNDS maximum;
 * fields that compute over many rows cost what they do (dora: DORA_COST). A dashboard page of 50
 * endpoints, each with its latest delivery, stats and 10 deliveries with their attempts, costs
 * about 37,000; an incident's suspects, their other incidents and those incidents' suspects, about
 * 17,000.
 */
export const QUERY_LIMITS = { depth: 10, complexity: 50_000, aliases: 15, tokens: 2_000 } as const;

/**
 * `dora` reads every deploy, commit and incident of its period: as much work as a few thousand
 * fields, so a query holds at most a handful (and the alias limit caps them anyway).
 */
export const DORA_COST = 2_500;

function pageSize(args: Record<string, unknown>): number {
  const requested = typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : DEFAULT_PAGE_SIZE;
  // Above the maximum the field itself refuses with BAD_USER_INPUT; its cost stays that of a full page,
  // so that the more helpful error is the one a client sees.
  return Math.max(0, Math.min(requested, MAX_PAGE_SIZE));
}

/** Connections cost their page size; their edges are counted by it. Other lists declare `listOf`. */
function fieldComplexity(args: Record<string, unknown>, _context: Context, field: GraphQLField<unknown, Context>) {
  const named = getNamedType(field.type);
  const isConnection = named.name.endsWith('Connection') && field.args.some((arg) => arg.name === 'first');
  if (isConnection) return { field: 1, multiplier: pageSize(args) };
  if (field.name === 'edges' && named.name.endsWith('Edge')) return { field: 1, multiplier: 1 };
  return 1;
}

const COMPLEXITY_KIND = {
  [ComplexityErrorKind.Depth]: 'depth',
  [ComplexityErrorKind.Breadth]: 'breadth',
  [ComplexityErrorKind.Complexity]: 'complexity',
} as const;

/** `first` and `last` of every connection: at most MAX_PAGE_SIZE, never negative. */
const pageSizeArgument = z
  .number()
  .int()
  .min(0, 'must be 0 or more')
  .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
  .nullish();

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
  AuthScopes: { organization: boolean };
}>({
  // Complexity first, so a query over the limits is refused before anything else; then scope
  // auth, so a caller without a valid token learns nothing about its arguments.
  plugins: [ComplexityPlugin, ScopeAuthPlugin, ValidationPlugin, DataloaderPlugin, PrismaPlugin, RelayPlugin],
  scopeAuth: {
    // `organization`: the request carries a live API token. Every root field declares it
    // (authScopes: { organization: true }); resolvers read it with viewerOf(context).
    authScopes: (context) => ({ organization: context.organization !== null }),
    authorizeOnSubscribe: true,
    unauthorizedError: () => unauthenticated(),
  },
  defaultFieldNullability: false,
  prisma: {
    client: (context) => context.prisma,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    defaultConnectionSize: DEFAULT_PAGE_SIZE,
    maxConnectionSize: MAX_PAGE_SIZE,
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    firstArgOptions: { description: `At most ${MAX_PAGE_SIZE}; default ${DEFAULT_PAGE_SIZE}.`, validate: pageSizeArgument },
    lastArgOptions: { description: `At most ${MAX_PAGE_SIZE}; default ${DEFAULT_PAGE_SIZE}.`, validate: pageSizeArgument },
  },
  complexity: {
    fieldComplexity,
    limit: { depth: QUERY_LIMITS.depth, complexity: QUERY_LIMITS.complexity },
    // The plugin's own errors are not GraphQLErrors, so Yoga would mask them as "Unexpected
    // error."; ours say what was exceeded, with extensions.code QUERY_TOO_COMPLEX (not
    // BAD_USER_INPUT: no single argument is at fault, the client must ask for less).
    complexityError: (kind, result) => {
      const limit = COMPLEXITY_KIND[kind];
      const max = result[`max${kind}`] ?? 0;
      return queryTooComplex(limit, result[limit], max);
    },
  },
  validation: {
    validationError: (failure) => {
      const fields = failure.issues.map((issue) => ({
        field: (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.'),
        message: issue.message,
      }));
      return new InputError(fields);
    },
  },
});

builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('JSON', JSONResolver);
builder.queryType({});
builder.mutationType({});
