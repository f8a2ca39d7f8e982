// `totalCount` and `totalCountIsEstimate` of every connection. The prisma plugin hands each
// connection field's count to the connection as a number or as a function that counts (only
// when asked for); a related connection declared without one is counted from its parent by the
// counter its connection type registers (countConnectionsFromParent). Counted once per
// connection, however many of its fields ask.
import { COUNT_ESTIMATE_AT_MOST, COUNT_EXACT_UP_TO, isEstimatedCount } from '../domain/shared/counts.ts';
import { builder } from './builder.ts';
import type { Context } from './context.ts';

type CountedConnection = { totalCount?: number | (() => number | Promise<number>); parent?: unknown };
type ParentCounter = (parent: unknown, context: Context) => Promise<number>;

const counts = new WeakMap<object, Promise<number>>();
const parentCounters = new Map<string, ParentCounter>();

/** How the connections of `connectionType` that carry no count of their own are counted: from the row they belong to. */
export function countConnectionsFromParent(connectionType: string, count: ParentCounter): void {
  parentCounters.set(connectionType, count);
}

function connectionTotalCount(connection: object, connectionType: string, context: Context): Promise<number> {
  let count = counts.get(connection);
  if (!count) {
    const { totalCount, parent } = connection as CountedConnection;
    const countOfParent = parentCounters.get(connectionType);
    if (totalCount !== undefined) count = Promise.resolve(typeof totalCount === 'function' ? totalCount() : totalCount);
    else if (countOfParent) count = countOfParent(parent, context);
    // Every connection field must declare totalCount or have a connection type counted from its parent.
    else throw new Error(`a field of ${connectionType} declares no totalCount`);
    counts.set(connection, count);
  }
  return count;
}

const TOTAL_COUNT_RULE =
  `Exact up to ${COUNT_EXACT_UP_TO.toLocaleString('en')}; above that an estimate from how fast the newest ${COUNT_EXACT_UP_TO.toLocaleString('en')} arrived ` +
  `(totalCountIsEstimate says which; at most ${COUNT_ESTIMATE_AT_MOST.toLocaleString('en')}), ` +
  'so that counting costs the same however much history is kept.';

builder.globalConnectionFields((t) => ({
  totalCount: t.int({
    description: `How many items the list holds in all, across its pages. ${TOTAL_COUNT_RULE}`,
    resolve: (connection, _args, context, info) => connectionTotalCount(connection, info.parentType.name, context),
  }),
  totalCountIsEstimate: t.boolean({
    description: `Whether totalCount is an estimate (the list holds more than ${COUNT_EXACT_UP_TO.toLocaleString('en')} items) rather than exact.`,
    resolve: async (connection, _args, context, info) =>
      isEstimatedCount(await connectionTotalCount(connection, info.parentType.name, context)),
  }),
}));
