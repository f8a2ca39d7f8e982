// node(id:) and nodes(ids:): any of the caller's rows by id (ids as ../nodes.ts decodes them).
import { resolveNodes } from '@pothos/plugin-relay';
import type { GraphQLResolveInfo } from 'graphql';
import { InputError } from '../../domain/shared/errors.ts';
import { ownedNodeKinds } from '../../domain/shared/nodes.ts';
import { monthKeyedId } from '../../domain/webhooks/history-keys.ts';
import type { AuthenticatedContext } from '../context.ts';
import { builder, listOf } from '../builder.ts';
import { ANY_TYPE, type NodeId } from '../nodes.ts';

/** The most ids one `nodes` takes: a page of a connection. */
export const MAX_NODES = 100;

/**
 * The caller's rows named by `ids`, in order (null where none): one statement finds which table
 * holds each id among the organization's rows, then each type's rows load together.
 */
async function resolveOwnNodes(context: AuthenticatedContext, info: GraphQLResolveInfo, ids: readonly (NodeId | null | undefined)[]) {
  if (ids.length > MAX_NODES) throw new InputError([{ field: 'ids', message: `must hold at most ${MAX_NODES} ids` }]);
  const kinds = await ownedNodeKinds(
    context.prisma,
    context.organization.id,
    ids.map((requested) => requested?.id ?? ''),
    context.organization.actor.kind === 'person' ? context.organization.actor.personId : null,
  );
  const found = ids.map((requested) => {
    const owned = requested ? kinds.get(requested.id) : undefined;
    // A global id names its type too: one naming another type than the row's names nothing.
    if (!owned || (requested!.typename !== ANY_TYPE && requested!.typename !== owned.kind)) return null;
    // A row partitioned by month is loaded by its whole key, found by the same statement.
    return { typename: owned.kind, id: owned.month ? monthKeyedId(requested!.id, owned.month) : requested!.id };
  });
  return resolveNodes(builder, context, info, found);
}

builder.queryFields((t) => ({
  node: t.withAuth({ organization: true }).field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description:
      'The caller organization\'s row with this id (a plain UUID, or a Relay global id: base64 of "Type:uuid"); null when it has none.',
    args: { id: t.arg.globalID({ required: true }) },
    resolve: async (_root, { id }, context, info) => (await resolveOwnNodes(context, info, [id]))[0] ?? null,
  }),
  nodes: t.withAuth({ organization: true }).field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description: `node(id:) for each of at most ${MAX_NODES} ids, in order; null for each that names none of the caller's rows.`,
    args: { ids: t.arg.globalIDList({ required: true }) },
    complexity: listOf(MAX_NODES),
    resolve: (_root, { ids }, context, info) => resolveOwnNodes(context, info, ids),
  }),
}));
