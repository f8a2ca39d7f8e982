// An endpoint's deliveries over time, for its charts: by hour or by day (UTC), how many
// deliveries were made and how they ended, how many attempts went out and how long they took.
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import { InputError } from '../shared/errors.ts';
import { parseInput, storableDate } from '../shared/input.ts';
import { z } from 'zod';

export type ChartInterval = 'HOUR' | 'DAY';

/** The most buckets one call answers: two weeks of hours, or 90 days. */
export const MAX_BUCKETS: Record<ChartInterval, number> = { HOUR: 14 * 24, DAY: 90 };

const INTERVAL_MS: Record<ChartInterval, number> = { HOUR: 3_600_000, DAY: 86_400_000 };

export interface ChartBucket {
  /** Start of the hour or day (UTC). */
  start: Date;
  /** Deliveries made in it, whatever their status. */
  deliveries: number;
  succeeded: number;
  failed: number;
  /** succeeded / (succeeded + failed); null while none of them has finished. */
  successRate: number | null;
  /** Attempts that started in it. */
  attempts: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

const chartWindow = z
  .object({ from: storableDate, to: storableDate })
  .refine(({ from, to }) => from < to, { path: ['to'], message: 'must be after from' });

/** The start of the hour or UTC day `date` falls in. */
function bucketStart(date: Date, interval: ChartInterval): Date {
  return new Date(Math.floor(date.getTime() / INTERVAL_MS[interval]) * INTERVAL_MS[interval]);
}

/** Every bucket of [from, to), empty ones included, oldest first. */
export async function endpointChart(
  prisma: PrismaClient,
  endpointId: string,
  input: { interval: ChartInterval; from: Date; to: Date },
): Promise<ChartBucket[]> {
  const { from, to } = parseInput(chartWindow, { from: input.from, to: input.to });
  const { interval } = input;
  const first = bucketStart(from, interval);
  const count = Math.ceil((to.getTime() - first.getTime()) / INTERVAL_MS[interval]);
  if (count > MAX_BUCKETS[interval]) {
    const message = `at most ${MAX_BUCKETS[interval]} ${interval === 'HOUR' ? 'hours' : 'days'} per call`;
    throw new InputError([{ field: 'to', message }], message);
  }
  const unit = Prisma.raw(interval === 'HOUR' ? "'hour'" : "'day'");
  const [deliveries, attempts] = await Promise.all([
    prisma.$queryRaw<{ start: Date; deliveries: number; succeeded: number; failed: number }[]>`
      SELECT date_trunc(${unit}, created_at, 'UTC') AS start, count(*)::int AS deliveries,
             count(*) FILTER (WHERE status = 'SUCCEEDED')::int AS succeeded, count(*) FILTER (WHERE status = 'FAILED')::int AS failed
      FROM deliveries
      WHERE endpoint_id = ${endpointId}::uuid AND created_at >= ${from} AND created_at < ${to}
      GROUP BY 1`,
    // One range of the attempts' (endpoint, start, duration) index, read without the table; the
    // percentiles are exact (percentile_cont over every duration of the bucket).
    prisma.$queryRaw<{ start: Date; attempts: number; p50: number | null; p95: number | null }[]>`
      SELECT date_trunc(${unit}, started_at, 'UTC') AS start, count(*)::int AS attempts,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95
      FROM delivery_attempts
      WHERE endpoint_id = ${endpointId}::uuid AND started_at >= ${from} AND started_at < ${to}
      GROUP BY 1`,
  ]);
  const made = new Map(deliveries.map((row) => [row.start.getTime(), row]));
  const tried = new Map(attempts.map((row) => [row.start.getTime(), row]));
  return Array.from({ length: count }, (_, index) => {
    const start = new Date(first.getTime() + index * INTERVAL_MS[interval]);
    const delivered = made.get(start.getTime());
    const attempted = tried.get(start.getTime());
    const finished = (delivered?.succeeded ?? 0) + (delivered?.failed ?? 0);
    return {
      start,
      deliveries: delivered?.deliveries ?? 0,
      succeeded: delivered?.succeeded ?? 0,
      failed: delivered?.failed ?? 0,
      successRate: finished === 0 ? null : delivered!.succeeded / finished,
      attempts: attempted?.attempts ?? 0,
      latencyP50Ms: attempted?.p50 ?? null,
      latencyP95Ms: attempted?.p95 ?? null,
    };
  });
}
