// DataLoaders of a request, so that a field of a list of N objects costs one query for all N
// rather than N. One loader per name and per Prisma selection (aliases of one field may select
// different things). They batch but do not cache: a subscription keeps its context for every
// event it sends, and each event must see the rows as they are then.
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';

const loadersOf = createContextCache(() => new Map<string, DataLoader<unknown, unknown>>());

export function requestLoader<Key, Value>(
  context: object,
  name: string,
  selection: unknown,
  batch: (keys: readonly Key[]) => Promise<Value[]>,
): DataLoader<Key, Value> {
  const loaders = loadersOf(context);
  const key = `${name} ${JSON.stringify(selection ?? null)}`;
  let loader = loaders.get(key) as DataLoader<Key, Value> | undefined;
  if (!loader) loaders.set(key, (loader = new DataLoader(batch, { cache: false })) as DataLoader<unknown, unknown>);
  return loader;
}
