// `totalCount` of a shared connection object: the prisma plugin hands each connection field's
// count to the connection as a number or as a function that counts (only when asked for).
export function connectionTotalCount(connection: object): number | Promise<number> {
  const { totalCount } = connection as { totalCount?: number | (() => number | Promise<number>) };
  // Every field of a connection type with this field must declare totalCount.
  if (totalCount === undefined) throw new Error('a connection field without totalCount uses a connection type that shows it');
  return typeof totalCount === 'function' ? totalCount() : totalCount;
}
