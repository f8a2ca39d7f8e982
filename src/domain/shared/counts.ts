// How many rows a list holds, at a cost that follows the bound and not the data kept: exact up
// to COUNT_EXACT_UP_TO, beyond that an estimate (always more than the bound, so a count above it
// is known to be one). A list grows with time and is read newest first, so the estimate
// extrapolates the span of the newest COUNT_EXACT_UP_TO rows over the span of the whole list:
// two reads of an index that serves the page anyway, one from each end.

export const COUNT_EXACT_UP_TO = 1000;

/** The reads a count needs of one list (its filter applied), each stopping early. */
export interface CountableList {
  /** When the newest `limit` rows were made, newest first (fewer when the list holds fewer). */
  newestMadeAt(limit: number): Promise<Date[]>;
  /** When the oldest row was made; null when none is left (deleted meanwhile). */
  oldestMadeAt(): Promise<Date | null>;
}

/** The list's totalCount: exact up to COUNT_EXACT_UP_TO, an estimate above. */
export async function boundedCount(list: CountableList): Promise<number> {
  const newest = await list.newestMadeAt(COUNT_EXACT_UP_TO + 1);
  if (newest.length <= COUNT_EXACT_UP_TO) return newest.length;
  const boundth = newest[COUNT_EXACT_UP_TO]!;
  return estimateCount(COUNT_EXACT_UP_TO, newest[0]!, boundth, (await list.oldestMadeAt()) ?? boundth);
}

/**
 * The largest estimate: counts are 32-bit integers in the API (GraphQL's Int), and a burst after a
 * long quiet history stretches the burst's pace over years (billions of rows).
 */
export const COUNT_ESTIMATE_AT_MOST = 2 ** 31 - 1;

/**
 * The rows made from `oldest` to `newest`, when the newest `counted` + 1 of them span `newest`
 * back to `boundth` and keep that rate; never the bound or less, nor more than COUNT_ESTIMATE_AT_MOST.
 */
export function estimateCount(counted: number, newest: Date, boundth: Date, oldest: Date): number {
  const sampled = newest.getTime() - boundth.getTime();
  const whole = newest.getTime() - oldest.getTime();
  if (sampled <= 0) return counted + 1;
  return Math.min(COUNT_ESTIMATE_AT_MOST, Math.max(counted + 1, Math.round((counted * whole) / sampled)));
}

/** Whether a totalCount is an estimate (see boundedCount). */
export function isEstimatedCount(totalCount: number): boolean {
  return totalCount > COUNT_EXACT_UP_TO;
}

/** What countRows needs of a Prisma model delegate (any model's: its own argument types are checked by Prisma at run time). */
export interface RowReader {
  findMany(args: never): PromiseLike<object[]>;
  findFirst(args: never): PromiseLike<object | null>;
}

/**
 * boundedCount of the rows of `model` that `where` selects, aged by the time column `madeAt`
 * (newest first, then by id, as the lists read them, so the count reads the index a page reads).
 */
export function countRows<Where>(model: RowReader, where: Where, madeAt: string): Promise<number> {
  const madeAtOf = (row: object | null) => (row ? ((row as Record<string, unknown>)[madeAt] as Date) : null);
  const read = (direction: 'asc' | 'desc', take?: number) =>
    ({
      where,
      orderBy: [{ [madeAt]: direction }, { id: direction }],
      select: { [madeAt]: true },
      ...(take === undefined ? {} : { take }),
    }) as never;
  return boundedCount({
    newestMadeAt: async (limit) => (await model.findMany(read('desc', limit))).map((row) => madeAtOf(row)!),
    oldestMadeAt: async () => madeAtOf(await model.findFirst(read('asc'))),
  });
}
