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
import { COMMITS_MAX_ITEMS } from '../domain/ingest/deploys.ts';
import { ENDPOINT_HEADER_LIMITS } from '../domain/webhooks/endpoints.ts';
import { ATTEMPT_HEADERS_MAX } from '../domain/webhooks/deliveries.ts';
import { MAX_BUCKETS } from '../domain/webhooks/endpoint-charts.ts';
import { EVENT_TYPES } from '../domain/webhooks/events.ts';
import { ALERT_SOURCE_KIND_LIST } from '../domain/ingest/alert-source-kinds.ts';
import { MAX_REASONS_PER_SUSPECT, MAX_SUSPECTS } from '../domain/correlation/suspects.ts';
import { InputError } from '../domain/shared/errors.ts';
import type { AuthenticatedContext, Context } from './context.ts';
import { forbidden, queryTooComplex, unauthenticated } from './errors.ts';
import { decodeNodeId, encodeNodeId } from './nodes.ts';

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
  alertSourceKinds: ALERT_SOURCE_KIND_LIST.length,
  endpointHeaders: ENDPOINT_HEADER_LIMITS.count,
  /** Reveals of an endpoint's signing secret shown: the latest ones. */
  secretReveals: 20,
  /** The caller's live sessions shown: the most recently used ones. */
  sessions: 50,
  /** Organizations a person belongs to, as the complexity estimate counts them (people belong to a few; all are listed). */
  organizations: 50,
  /** Pending invites of an organization shown: the newest ones. */
  pendingInvites: 100,
  /** Headers kept of an attempt's request or answer. */
  attemptHeaders: ATTEMPT_HEADERS_MAX,
  /** Notes of an incident shown: the first ones. */
  notes: 200,
  /** Entries of an incident's timeline shown: the first ones. */
  timeline: 500,
  /** Buckets of an endpoint's chart: two weeks of hours at most. */
  chartBuckets: MAX_BUCKETS.HOUR,
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
const pageSizeArgument = z.number().int().min(0, 'must be 0 or more').max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`).nullish();

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  Scalars: {
    // GraphQL's ID parses every input, an integer literal included, to a string.
    ID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
  AuthScopes: { organization: boolean };
  AuthContexts: { organization: AuthenticatedContext };
}>({
  // Complexity first, so a query over the limits is refused before anything else; then scope
  // auth, so a caller without a valid token learns nothing about its arguments.
  plugins: [ComplexityPlugin, ScopeAuthPlugin, ValidationPlugin, DataloaderPlugin, PrismaPlugin, RelayPlugin],
  scopeAuth: {
    // `organization`: the request carries a live API token or session. Every root field declares
    // it (authScopes: { organization: true }); resolvers read it with context.organization. What
    // each role may change is decided by the mutation roles (roles.ts), before anything runs.
    authScopes: (context) => ({ organization: context.organization !== null }),
    authorizeOnSubscribe: true,
    unauthorizedError: (_parent, context) =>
      context.refusal === 'not_a_member'
        ? forbidden('You are not a member of the organization X-Hookline-Organization names')
        : unauthenticated(),
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
    encodeGlobalID: encodeNodeId,
    decodeGlobalID: decodeNodeId,
    defaultConnectionTypeOptions: {
      description:
        'A page of a list (a Relay connection): its edges, where it is in the list (pageInfo), and how many items the list holds (totalCount).',
    },
    defaultEdgeTypeOptions: { description: 'One item of a page (node) and the cursor of its place in the list.' },
    pageInfoTypeOptions: {
      description: 'Where a page is in its list: the cursors of its ends, and whether there is more before and after.',
    },
    idFieldOptions: { description: 'Its id: the plain UUID that every Hookline API uses for it; node(id:) finds it.' },
    nodeTypeOptions: {
      description: "Anything with an id. node(id:) and nodes(ids:) find any of them by id, among the caller organization's own.",
    },
    // Declared in types/Node.ts, which resolves them for the caller's organization only.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
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

/**
 * A shared connection type, for a root field declared with t.withAuth: Pothos types a ref by the
 * context of the builder that made it, so the ref nested fields use (plain context) is not the
 * type the narrowed field builder asks for, though it is the same GraphQL type.
 */
export function authenticatedConnection<Ref extends object>(connection: Ref): never {
  return connection as never;
}

builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('JSON', JSONResolver);
builder.queryType({ description: "Reads, each of the caller's organization only." });
builder.mutationType({
  description: "Changes, each to the caller's organization only, each needing a role (see docs/people-and-access.md).",
});
