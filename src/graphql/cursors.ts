// Connection cursors are the caller's own. A cursor is a row id, and Prisma places a page after
// (or before) that row by reading it without any filter: a cursor of another organization's row
// would return the caller's rows relative to it, which tells whether that row exists and when it
// was made. So before a query runs, every `after`/`before` of a connection in it must name a row
// of the caller's organization; anything else (another organization's row, no row, no cursor at
// all) is BAD_USER_INPUT.
import { parsePrismaCursor } from '@pothos/plugin-prisma';
import {
  getNamedType,
  GraphQLString,
  isObjectType,
  TypeInfo,
  valueFromAST,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { isUuid } from '../domain/shared/ids.ts';
import type { Context } from './context.ts';
import { InputError } from '../domain/shared/errors.ts';
import { toClientError } from './errors.ts';

type OwnedIds = (prisma: PrismaClient, organizationId: string, ids: string[]) => Promise<{ id: string }[]>;

/** The ids among `ids` that are rows of the organization, by the node type of a connection. */
const OWNED_IDS: Record<string, OwnedIds> = {
  Service: (prisma, organizationId, ids) => prisma.service.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  Deploy: (prisma, organizationId, ids) => prisma.deploy.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  Incident: (prisma, organizationId, ids) => prisma.incident.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  WebhookEndpoint: (prisma, organizationId, ids) =>
    prisma.webhookEndpoint.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  Delivery: (prisma, organizationId, ids) => prisma.delivery.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  Event: (prisma, organizationId, ids) => prisma.event.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  ApiToken: (prisma, organizationId, ids) => prisma.apiToken.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  ChangeEvent: (prisma, organizationId, ids) =>
    prisma.changeEvent.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  AlertSource: (prisma, organizationId, ids) =>
    prisma.alertSource.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  Alert: (prisma, organizationId, ids) => prisma.alert.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  Member: (prisma, organizationId, ids) => prisma.membership.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  AuditEntry: (prisma, organizationId, ids) =>
    prisma.auditEntry.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } }),
  // The deploy timeline's entries are deploys and change events.
  TimelineEntry: async (prisma, organizationId, ids) => [
    ...(await OWNED_IDS.Deploy!(prisma, organizationId, ids)),
    ...(await OWNED_IDS.ChangeEvent!(prisma, organizationId, ids)),
  ],
};

/** The node types whose connections' cursors are checked; every connection of the schema must be one. */
export const CURSOR_CHECKED_TYPES = Object.keys(OWNED_IDS);

/** A connection's node type (`DeliveryConnection` → `Delivery`); undefined for any other type. */
export function connectionNodeType(type: GraphQLOutputType): string | undefined {
  const connection = getNamedType(type);
  if (!isObjectType(connection) || !connection.name.endsWith('Connection')) return undefined;
  const edge = connection.getFields().edges && getNamedType(connection.getFields().edges!.type);
  const node = edge && isObjectType(edge) ? edge.getFields().node : undefined;
  return node && getNamedType(node.type).name;
}

interface CursorSite {
  argument: ArgumentNode;
  nodeType: string;
}

/** Where a document passes a cursor to a connection; found once per document (Yoga caches documents). */
const sitesByDocument = new WeakMap<DocumentNode, CursorSite[]>();

function cursorSites(schema: GraphQLSchema, document: DocumentNode): CursorSite[] {
  let sites = sitesByDocument.get(document);
  if (sites) return sites;
  sites = [];
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument(argument) {
        if (argument.name.value !== 'after' && argument.name.value !== 'before') return;
        const field = typeInfo.getFieldDef();
        const nodeType = field && connectionNodeType(field.type);
        if (!nodeType) return;
        if (!OWNED_IDS[nodeType]) throw new Error(`No ownership check for cursors of ${nodeType}`);
        sites!.push({ argument, nodeType });
      },
    }),
  );
  sitesByDocument.set(document, sites);
  return sites;
}

/**
 * The row id a cursor names, or undefined when it is not a cursor of a row id. A row partitioned
 * by month (a delivery, an event) is named by its key, the tuple (id, createdAt): a cursor naming
 * an owned id with another time names no row, and its page is empty.
 */
function cursorId(cursor: string): string | undefined {
  try {
    const parsed = parsePrismaCursor(cursor);
    const id = Array.isArray(parsed) ? parsed[0] : parsed;
    return typeof id === 'string' && isUuid(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

function notACursor(argument: string) {
  const message = 'is not a cursor of this list';
  // Returned as the result of the operation, so in the form toClientError gives every InputError.
  return toClientError(new InputError([{ field: argument, message }]), '', false) as GraphQLError;
}

/** The error for the first cursor of `args` that is not the caller's own, if any (one query per node type). */
export async function foreignCursorError(args: ExecutionArgs): Promise<GraphQLError | undefined> {
  const context = args.contextValue as Context;
  if (!context.organization) return undefined; // resolvers refuse such callers themselves
  const sites = cursorSites(args.schema, args.document);
  if (sites.length === 0) return undefined;
  const byType = new Map<string, Map<string, string>>(); // node type → id → argument name
  for (const { argument, nodeType } of sites) {
    const value = valueFromAST(argument.value, GraphQLString, args.variableValues ?? undefined);
    if (value == null) continue;
    const id = typeof value === 'string' ? cursorId(value) : undefined;
    if (!id) return notACursor(argument.name.value);
    if (!byType.has(nodeType)) byType.set(nodeType, new Map());
    byType.get(nodeType)!.set(id, argument.name.value);
  }
  for (const [nodeType, ids] of byType) {
    const owned = new Set((await OWNED_IDS[nodeType]!(context.prisma, context.organization.id, [...ids.keys()])).map((row) => row.id));
    for (const [id, argument] of ids) {
      if (!owned.has(id)) return notACursor(argument);
    }
  }
  return undefined;
}

/** Checks the cursors of every operation before it runs: queries and mutations, and subscriptions over HTTP. */
export function useOwnCursors(): Plugin<Context> {
  const refuse = async ({
    args,
    setResultAndStopExecution,
  }: {
    args: ExecutionArgs;
    setResultAndStopExecution(result: ExecutionResult): void;
  }) => {
    const error = await foreignCursorError(args);
    if (error) setResultAndStopExecution({ errors: [error] });
  };
  return { onExecute: refuse, onSubscribe: refuse };
}
