// How many rows a list holds, at a cost that follows the bound and not the data kept: exact up
// to COUNT_EXACT_UP_TO, beyond that an estimate (always more than the bound, so a count above it
// is known to be one). A list grows with time and is read newest first, so the estimate
// extrapolates the span of the newest COUNT_EXACT_UP_TO rows over the span of the whole list:
// reads of an index that serves the page anyway, from each end. PostgreSQL counts and skips
// the rows: each read answers one row, not the thousand it passes over, which the process would
// otherwise convert one by one for every totalCount asked (most of an API process's work under
// a flood of counted pages).

export const COUNT_EXACT_UP_TO = 1000;

/** The reads a count needs of one list (its filter applied), each stopping early. */
export interface CountableList {
  /** How many rows the list holds, counting no further than `limit`. */
  countUpTo(limit: number): Promise<number>;
  /** When the row `offset` places from the newest was made (0: the newest); null when the list is shorter. */
  madeAtFromNewest(offset: number): Promise<Date | null>;
  /** When the oldest row was made; null when none is left (deleted meanwhile). */
  oldestMadeAt(): Promise<Date | null>;
}

/** The list's totalCount: exact up to COUNT_EXACT_UP_TO, an estimate above. */
export async function boundedCount(list: CountableList): Promise<number> {
  const counted = await list.countUpTo(COUNT_EXACT_UP_TO + 1);
  if (counted <= COUNT_EXACT_UP_TO) return counted;
  const [newest, boundth, oldest] = await Promise.all([
    list.madeAtFromNewest(0),
    list.madeAtFromNewest(COUNT_EXACT_UP_TO),
    list.oldestMadeAt(),
  ]);
  // Rows deleted since they were counted: more than the bound was there a moment ago.
  if (!newest || !boundth) return counted;
  return estimateCount(COUNT_EXACT_UP_TO, newest, boundth, oldest ?? boundth);
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
  count(args: never): PromiseLike<number>;
  findFirst(args: never): PromiseLike<object | null>;
}

/**
 * boundedCount of the rows of `model` that `where` selects, aged by the time column `madeAt`
 * (newest first, then by id, as the lists read them, so the count reads the index a page reads).
 */
export function countRows<Where>(model: RowReader, where: Where, madeAt: string): Promise<number> {
  const orderBy = (direction: 'asc' | 'desc') => [{ [madeAt]: direction }, { id: direction }];
  const madeAtAt = async (direction: 'asc' | 'desc', skip: number) => {
    const row = await model.findFirst({ where, orderBy: orderBy(direction), select: { [madeAt]: true }, skip } as never);
    return row ? ((row as Record<string, unknown>)[madeAt] as Date) : null;
  };
  return boundedCount({
    countUpTo: async (limit) => model.count({ where, orderBy: orderBy('desc'), take: limit } as never),
    madeAtFromNewest: (offset) => madeAtAt('desc', offset),
    oldestMadeAt: () => madeAtAt('asc', 0),
  });
}
