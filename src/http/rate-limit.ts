// Per-client-IP limits with counters in PostgreSQL (rate-limiter-flexible's store), so any
// number of api processes enforce one limit together.
//
// Every decision is PostgreSQL's count, but one process never has more than one round trip in
// flight per client address: requests from that address arriving meanwhile wait and are counted
// together in the next one (`consume(key, n)` adds n atomically and returns the new total), then
// each learns its own place in the window. So a burst from one address costs a round trip per
// batch instead of one per request, and the count stays exact across processes.
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

export type RateLimiter = (clientIp: string) => Promise<RateLimitDecision>;

interface Waiter {
  resolve(decision: RateLimitDecision): void;
  reject(error: unknown): void;
}

/** A client address with a round trip in flight, and the requests waiting for the next. */
interface KeyState {
  waiting: Waiter[];
}

/** No limiter at all when the limit is off (null). */
export function createRateLimiter(pool: pg.Pool, options: { name: string; perMinute: number | null }): RateLimiter | null {
  if (options.perMinute === null) return null;
  const perMinute = options.perMinute;
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limit_counters',
    tableCreated: true, // made by the migrations
    keyPrefix: options.name,
    points: perMinute,
    duration: 60,
  });
  const busy = new Map<string, KeyState>();

  /** Counts the waiting requests of `key` in one round trip, then the next batch, until none wait. */
  async function countBatches(key: string, state: KeyState): Promise<void> {
    while (state.waiting.length > 0) {
      const batch = state.waiting;
      state.waiting = [];
      let result: RateLimiterRes;
      try {
        result = await limiter.consume(key, batch.length);
      } catch (rejection) {
        // The library rejects with a RateLimiterRes when the limit is passed, with an Error on failure.
        if (!(rejection instanceof RateLimiterRes)) {
          for (const waiter of batch) waiter.reject(rejection);
          continue;
        }
        result = rejection;
      }
      const countBefore = result.consumedPoints - batch.length;
      const resetSeconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
      batch.forEach((waiter, index) => {
        const place = countBefore + index + 1;
        waiter.resolve({ allowed: place <= perMinute, limit: perMinute, remaining: Math.max(perMinute - place, 0), resetSeconds });
      });
    }
    busy.delete(key);
  }

  return (clientIp) =>
    new Promise<RateLimitDecision>((resolve, reject) => {
      const state = busy.get(clientIp);
      if (state) {
        state.waiting.push({ resolve, reject });
        return;
      }
      const started: KeyState = { waiting: [{ resolve, reject }] };
      busy.set(clientIp, started);
      void countBatches(clientIp, started);
    });
}
