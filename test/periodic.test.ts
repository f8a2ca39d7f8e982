// runPeriodically (the reconciler's and the rollback judgement's passes) on vitest's fake clock:
// a pass at once, the next one interval after each ends, never two at a time, and stop waits
// for the pass in progress and starts no other.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { runPeriodically } from '../src/periodic.ts';

const INTERVAL_MS = 1_000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A pass that records when it starts and ends, and takes `durationMs` of the fake clock. */
function recordedPass(durationMs: number) {
  const log: string[] = [];
  const pass = async () => {
    log.push(`start ${Date.now()}`);
    await new Promise((resolve) => setTimeout(resolve, durationMs));
    log.push(`end ${Date.now()}`);
  };
  return { log, pass };
}

it('runs a pass at once, then the interval after each one ends: a slow pass delays the next, none overlap', async () => {
  vi.setSystemTime(0);
  const { log, pass } = recordedPass(2_500);
  const periodic = runPeriodically(pass, INTERVAL_MS);
  await vi.advanceTimersByTimeAsync(8_000);
  expect(log).toEqual(['start 0', 'end 2500', 'start 3500', 'end 6000', 'start 7000']);
  const stopped = periodic.stop();
  await vi.advanceTimersByTimeAsync(2_500);
  await stopped;
  expect(log.at(-1)).toBe('end 9500');
  await vi.advanceTimersByTimeAsync(10_000);
  expect(log).toHaveLength(6);
});

it('stop between passes ends at once, and no pass starts after it', async () => {
  vi.setSystemTime(0);
  const { log, pass } = recordedPass(100);
  const periodic = runPeriodically(pass, INTERVAL_MS);
  await vi.advanceTimersByTimeAsync(500);
  expect(log).toEqual(['start 0', 'end 100']);
  await periodic.stop();
  await vi.advanceTimersByTimeAsync(10_000);
  expect(log).toEqual(['start 0', 'end 100']);
});
