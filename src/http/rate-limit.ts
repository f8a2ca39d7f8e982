// Per-client-IP limits with counters in PostgreSQL (rate-limiter-flexible's store), so any
// number of api processes enforce one limit together.
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

/** No limiter at all when the limit is off (null). */
export function createRateLimiter(pool: pg.Pool, options: { name: string; perMinute: number | null }): RateLimiter | null {
  const { perMinute } = options;
  if (perMinute === null) return null;
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limit_counters',
    tableCreated: true, // made by the migrations
    keyPrefix: options.name,
    points: perMinute,
    duration: 60,
  });
  const decision = (result: RateLimiterRes, allowed: boolean): RateLimitDecision => ({
    allowed,
    limit: perMinute,
    remaining: result.remainingPoints,
    resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
  });
  return async (clientIp) => {
    try {
      return decision(await limiter.consume(clientIp), true);
    } catch (rejection) {
      // The library rejects with a RateLimiterRes when the limit is hit, with an Error on failure.
      if (rejection instanceof RateLimiterRes) return decision(rejection, false);
      throw rejection;
    }
  };
}
