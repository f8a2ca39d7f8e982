// Per-key limits (a client's address, an organization) with counters in PostgreSQL
// (rate-limiter-flexible's store), so any number of api processes enforce one limit together.
//
// Every decision is PostgreSQL's count, but one process never has more than one round trip in
// flight per key: requests for that key arriving meanwhile wait and are counted
// together in the next one (`consume(key, n)` adds n atomically and returns the new total), then
// each learns its own place in the window. So a burst for one key costs a round trip per
// batch instead of one per request, and the count stays exact across processes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { FailureLimiter } from '../domain/shared/people.ts';
import { HttpError } from './errors.ts';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

/** Counts `points` (1 unless said: a request may be worth several) against `key`'s limit. */
export type RateLimiter = (key: string, points?: number) => Promise<RateLimitDecision>;

interface Waiter {
  points: number;
  resolve(decision: RateLimitDecision): void;
  reject(error: unknown): void;
}

/** A key with a round trip in flight, and the requests waiting for the next. */
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
      const points = batch.reduce((sum, waiter) => sum + waiter.points, 0);
      let result: RateLimiterRes;
      try {
        result = await limiter.consume(key, points);
      } catch (rejection) {
        // The library rejects with a RateLimiterRes when the limit is passed, with an Error on failure.
        if (!(rejection instanceof RateLimiterRes)) {
          for (const waiter of batch) waiter.reject(rejection);
          continue;
        }
        result = rejection;
      }
      let place = result.consumedPoints - points;
      const resetSeconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
      for (const waiter of batch) {
        place += waiter.points;
        waiter.resolve({ allowed: place <= perMinute, limit: perMinute, remaining: Math.max(perMinute - place, 0), resetSeconds });
      }
    }
    busy.delete(key);
  }

  return (key, points = 1) =>
    new Promise<RateLimitDecision>((resolve, reject) => {
      const state = busy.get(key);
      if (state) {
        state.waiting.push({ points, resolve, reject });
        return;
      }
      const started: KeyState = { waiting: [{ points, resolve, reject }] };
      busy.set(key, started);
      void countBatches(key, started);
    });
}

/** Step 2: the rate limit (unless off), with its headers on every answer that gets this far. */
export async function enforceRateLimit(request: FastifyRequest, reply: FastifyReply, rateLimiter: RateLimiter | null): Promise<void> {
  if (!rateLimiter) return;
  const limit = await rateLimiter(request.ip);
  reply.headers({
    'ratelimit-limit': limit.limit,
    'ratelimit-remaining': limit.remaining,
    'ratelimit-reset': limit.resetSeconds,
  });
  if (!limit.allowed) {
    reply.header('retry-after', limit.resetSeconds);
    throw new HttpError(429, 'rate_limited', `Rate limit of ${limit.limit} requests per minute exceeded; retry in ${limit.resetSeconds} s`);
  }
}

/** Failures counted per key in a window (failed password checks): PostgreSQL's count, shared by every process. */
export function createFailureLimiter(pool: pg.Pool, options: { name: string; maxFailures: number; windowSeconds: number }): FailureLimiter {
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limit_counters',
    tableCreated: true,
    keyPrefix: options.name,
    points: options.maxFailures,
    duration: options.windowSeconds,
  });
  return {
    async blockedFor(key) {
      const counted = await limiter.get(key);
      if (!counted || counted.consumedPoints < options.maxFailures) return null;
      return Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
    },
    async recordFailure(key) {
      // Over the limit the library rejects with its result: the failure is counted all the same.
      await limiter.consume(key).catch((rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
      });
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}
