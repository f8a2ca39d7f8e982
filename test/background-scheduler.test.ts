// The scheduler of the background jobs on vitest's fake clock: a pass at once, the next one
// interval after each ends, never two at a time, and stop waits for the pass in progress and
// starts no other.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { startBackgroundJobs } from '../src/background/scheduler.ts';

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

/** The scheduler running `pass` alone, `INTERVAL_MS` after each pass ends. */
function runPeriodically(pass: () => Promise<void>) {
  return startBackgroundJobs([{ name: 'recorded', msUntilNextPass: () => INTERVAL_MS, pass }], { error: () => {} });
}

it('runs a pass at once, then the interval after each one ends: a slow pass delays the next, none overlap', async () => {
  vi.setSystemTime(0);
  const { log, pass } = recordedPass(2_500);
  const periodic = runPeriodically(pass);
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
  const periodic = runPeriodically(pass);
  await vi.advanceTimersByTimeAsync(500);
  expect(log).toEqual(['start 0', 'end 100']);
  await periodic.stop();
  await vi.advanceTimersByTimeAsync(10_000);
  expect(log).toEqual(['start 0', 'end 100']);
});

it('runs each job on its own: a slow job delays only its own passes', async () => {
  vi.setSystemTime(0);
  const slow = recordedPass(2_500);
  const quick = recordedPass(100);
  const jobs = startBackgroundJobs(
    [
      { name: 'slow', msUntilNextPass: () => INTERVAL_MS, pass: slow.pass },
      { name: 'quick', msUntilNextPass: () => INTERVAL_MS, pass: quick.pass },
    ],
    { error: () => {} },
  );
  await vi.advanceTimersByTimeAsync(3_000);
  expect(slow.log).toEqual(['start 0', 'end 2500']);
  expect(quick.log).toEqual(['start 0', 'end 100', 'start 1100', 'end 1200', 'start 2200', 'end 2300']);
  await jobs.stop();
  await vi.advanceTimersByTimeAsync(10_000);
  expect(slow.log).toHaveLength(2);
  expect(quick.log).toHaveLength(6);
});

it('asks the job when its next pass is, from the end of the last', async () => {
  vi.setSystemTime(0);
  const { log, pass } = recordedPass(100);
  const asked: number[] = [];
  const jobs = startBackgroundJobs(
    [
      {
        name: 'on the hour',
        msUntilNextPass: (now) => {
          asked.push(now.getTime());
          return 3_600_000 - (now.getTime() % 3_600_000);
        },
        pass,
      },
    ],
    { error: () => {} },
  );
  await vi.advanceTimersByTimeAsync(7_300_000);
  await jobs.stop();
  expect(asked).toEqual([100, 3_600_100, 7_200_100]);
  expect(log).toEqual(['start 0', 'end 100', 'start 3600000', 'end 3600100', 'start 7200000', 'end 7200100']);
});

it("logs a pass that fails under its job's name, and runs the next one as usual", async () => {
  vi.setSystemTime(0);
  const logged: { object: object; message: string }[] = [];
  let passes = 0;
  const jobs = startBackgroundJobs(
    [
      {
        name: 'failing',
        msUntilNextPass: () => INTERVAL_MS,
        pass: async () => {
          passes += 1;
          throw new Error(`pass ${passes} failed`);
        },
      },
    ],
    { error: (object, message) => logged.push({ object, message }) },
  );
  await vi.advanceTimersByTimeAsync(1_500);
  await jobs.stop();
  expect(passes).toBe(2);
  expect(logged).toEqual([
    { object: { err: new Error('pass 1 failed'), job: 'failing' }, message: 'background job failing failed; its next pass tries again' },
    { object: { err: new Error('pass 2 failed'), job: 'failing' }, message: 'background job failing failed; its next pass tries again' },
  ]);
});
