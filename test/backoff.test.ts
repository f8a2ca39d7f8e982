// Retry timing: the default schedule or an exponential series, with jitter, and a receiver's
// Retry-After on 429/503.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_DELAYS_MS,
  MAX_RETRY_AFTER_MS,
  nextAttemptDelayMs,
  parseRetryAfterMs,
  retryDelayMs,
} from '../src/delivery/backoff.ts';
import { loadConfig } from '../src/config.ts';

const defaults = { schedule: { baseMs: 10_000, factor: 4 } };
const noJitter = () => 0.5;
const now = new Date('2026-01-15T12:00:00Z');

const HOUR = 3_600_000;
const sum = (delays: number[]) => delays.reduce((total, delay) => total + delay, 0);

describe('the default retry schedule', () => {
  const schedule = loadConfig({}).retrySchedule;
  const retries = (random: () => number) => [1, 2, 3, 4, 5].map((attempt) => retryDelayMs({ attempt, schedule, random }));

  it('is 1 min, 10 min, 2 h, 8 h, 20 h: the five retries outlast a day-long outage', () => {
    expect(schedule).toEqual({ delaysMs: DEFAULT_RETRY_DELAYS_MS });
    expect(retries(noJitter)).toEqual([60_000, 600_000, 2 * HOUR, 8 * HOUR, 20 * HOUR]);
    expect(sum(retries(noJitter))).toBe(30 * HOUR + 11 * 60_000);
  });

  it('spans at least 24 hours even when the jitter shortens every delay', () => {
    expect(sum(retries(() => 0))).toBeGreaterThanOrEqual(24 * HOUR);
    expect(sum(retries(() => 1))).toBeLessThanOrEqual(37 * HOUR);
  });

  it('repeats its last delay when DELIVERY_MAX_RETRIES asks for more retries than it lists', () => {
    expect(retryDelayMs({ attempt: 9, schedule, random: noJitter })).toBe(20 * HOUR);
  });
});

describe('the retry schedule from the configuration', () => {
  it('DELIVERY_RETRY_SCHEDULE: durations in order', () => {
    expect(loadConfig({ DELIVERY_RETRY_SCHEDULE: '5s, 5m,30m,2h,1d' }).retrySchedule).toEqual({
      delaysMs: [5_000, 300_000, 1_800_000, 2 * HOUR, 24 * HOUR],
    });
  });

  it('DELIVERY_BACKOFF_BASE_MS or DELIVERY_BACKOFF_FACTOR: the exponential series, the other one at its default', () => {
    expect(loadConfig({ DELIVERY_BACKOFF_BASE_MS: '20' }).retrySchedule).toEqual({ baseMs: 20, factor: 4 });
    expect(loadConfig({ DELIVERY_BACKOFF_FACTOR: '2' }).retrySchedule).toEqual({ baseMs: 10_000, factor: 2 });
    expect(loadConfig({ DELIVERY_BACKOFF_BASE_MS: '1000', DELIVERY_BACKOFF_FACTOR: '3' }).retrySchedule).toEqual({
      baseMs: 1000,
      factor: 3,
    });
  });

  it('refuses a schedule that is not durations, and a schedule beside the exponential settings', () => {
    for (const value of ['soon', '1m,,2h', '1m,-5m', '1.5ms']) {
      expect(() => loadConfig({ DELIVERY_RETRY_SCHEDULE: value }), value).toThrow(
        'Invalid configuration:\n  DELIVERY_RETRY_SCHEDULE: must be comma-separated durations such as 1m,10m,2h,8h,20h',
      );
    }
    expect(() => loadConfig({ DELIVERY_RETRY_SCHEDULE: '1m', DELIVERY_BACKOFF_BASE_MS: '10' })).toThrow(
      'DELIVERY_RETRY_SCHEDULE: set either DELIVERY_RETRY_SCHEDULE or DELIVERY_BACKOFF_BASE_MS/DELIVERY_BACKOFF_FACTOR, not both',
    );
  });
});

describe('retryDelayMs', () => {
  it('spreads ±20 % around the base: random 0, 0.5, 1', () => {
    expect(retryDelayMs({ attempt: 1, ...defaults, random: () => 0 })).toBe(8_000);
    expect(retryDelayMs({ attempt: 1, ...defaults, random: () => 0.5 })).toBe(10_000);
    expect(retryDelayMs({ attempt: 1, ...defaults, random: () => 1 })).toBe(12_000);
    expect(retryDelayMs({ attempt: 3, ...defaults, random: () => 0 })).toBe(128_000);
    expect(retryDelayMs({ attempt: 3, ...defaults, random: () => 1 })).toBe(192_000);
  });

  it('grows by the factor: 10 s, 40 s, 160 s, 640 s, 2560 s', () => {
    const delays = [1, 2, 3, 4, 5].map((attempt) => retryDelayMs({ attempt, ...defaults, random: noJitter }));
    expect(delays).toEqual([10_000, 40_000, 160_000, 640_000, 2_560_000]);
  });

  it('rounds to whole ms, stays within the spread, and is never negative', () => {
    expect(retryDelayMs({ attempt: 1, schedule: { baseMs: 1_001, factor: 2 }, random: () => 0.3 })).toBe(921);
    for (let i = 0; i < 100; i++) {
      const delay = retryDelayMs({ attempt: 2, ...defaults });
      expect(Number.isInteger(delay)).toBe(true);
      expect(delay).toBeGreaterThanOrEqual(32_000);
      expect(delay).toBeLessThanOrEqual(48_000);
    }
    expect(retryDelayMs({ attempt: 1, ...defaults, jitter: 2, random: () => 0 })).toBe(0);
    expect(retryDelayMs({ attempt: 1, ...defaults, jitter: 0, random: () => 1 })).toBe(10_000);
  });

  it('refuses an attempt below 1', () => {
    expect(() => retryDelayMs({ attempt: 0, ...defaults })).toThrow(RangeError);
    expect(() => retryDelayMs({ attempt: 1.5, ...defaults })).toThrow(RangeError);
  });
});

describe('parseRetryAfterMs', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfterMs('120', now)).toBe(120_000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
  });

  it('reads the HTTP-date forms, relative to now, never negative', () => {
    expect(parseRetryAfterMs('Thu, 15 Jan 2026 12:02:00 GMT', now)).toBe(120_000);
    expect(parseRetryAfterMs('Thursday, 15-Jan-26 12:02:00 GMT', now)).toBe(120_000);
    expect(parseRetryAfterMs('Thu Jan 15 12:02:00 2026', now)).toBe(120_000);
    expect(parseRetryAfterMs('Thu, 15 Jan 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('is null when absent, garbage or negative', () => {
    for (const header of [undefined, null, '', '   ', 'soon', 'soon 12', '1.5', '-5', '10s', '2026-01-15T12:02:00Z']) {
      expect(parseRetryAfterMs(header, now), String(header)).toBeNull();
    }
  });
});

describe('nextAttemptDelayMs', () => {
  const attempt = { attempt: 1, ...defaults, now, random: noJitter };

  it('honours a longer Retry-After on 429 and 503', () => {
    expect(nextAttemptDelayMs({ ...attempt, status: 429, retryAfterHeader: '120' })).toBe(120_000);
    expect(nextAttemptDelayMs({ ...attempt, status: 503, retryAfterHeader: 'Thu, 15 Jan 2026 12:05:00 GMT' })).toBe(300_000);
  });

  it('keeps the backoff when Retry-After is shorter, invalid or absent', () => {
    expect(nextAttemptDelayMs({ ...attempt, status: 429, retryAfterHeader: '5' })).toBe(10_000);
    expect(nextAttemptDelayMs({ ...attempt, status: 503, retryAfterHeader: 'later' })).toBe(10_000);
    expect(nextAttemptDelayMs({ ...attempt, status: 429 })).toBe(10_000);
  });

  it('ignores Retry-After on other statuses and on no answer', () => {
    for (const status of [500, 502, 200, 301, 404, undefined, null]) {
      expect(nextAttemptDelayMs({ ...attempt, status, retryAfterHeader: '120' })).toBe(10_000);
    }
  });

  it('caps the honoured Retry-After at an hour', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(3_600_000);
    expect(nextAttemptDelayMs({ ...attempt, status: 429, retryAfterHeader: '86400' })).toBe(3_600_000);
    expect(nextAttemptDelayMs({ ...attempt, status: 503, retryAfterHeader: 'Fri, 16 Jan 2026 12:00:00 GMT' })).toBe(3_600_000);
  });
});
