// A flood of the same warning (every request answered 503 while the database is away) is one line
// at once, with its error, then one line per interval counting the rest: read from a real pino
// logger writing to a stream, on fake timers.
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createThrottledWarnings } from '../src/db/throttled-warnings.ts';

const INTERVAL_MS = 10_000;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A pino logger and the records it wrote so far. */
function logger() {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const log = pino({ level: 'warn' }, stream);
  return { log, records: () => lines.map((line) => JSON.parse(line)) };
}

function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
}

it('logs the first of a kind at once with its error, then one line per interval with the count of the rest', async () => {
  const { log, records } = logger();
  const warnings = createThrottledWarnings(log, INTERVAL_MS);

  for (let index = 0; index < 1000; index++) warnings.warn('database unavailable: network error (ECONNREFUSED)', refused());
  await vi.advanceTimersByTimeAsync(0);
  expect(records()).toHaveLength(1);
  expect(records()[0]).toMatchObject({
    level: 40,
    msg: 'database unavailable: network error (ECONNREFUSED)',
    err: { message: 'connect ECONNREFUSED 127.0.0.1:5432', stack: expect.stringContaining('Error: connect ECONNREFUSED') },
  });

  await vi.advanceTimersByTimeAsync(INTERVAL_MS);
  expect(records()).toHaveLength(2);
  expect(records()[1]).toMatchObject({
    level: 40,
    msg: '999 more database unavailable: network error (ECONNREFUSED) in the last 10 s',
    kind: 'database unavailable: network error (ECONNREFUSED)',
    count: 999,
  });
  expect(records()[1].err).toBeUndefined();

  // Still going: counted for the next interval, not logged one by one.
  for (let index = 0; index < 5; index++) warnings.warn('database unavailable: network error (ECONNREFUSED)', refused());
  await vi.advanceTimersByTimeAsync(INTERVAL_MS);
  expect(records().map((record) => record.msg)).toEqual([
    'database unavailable: network error (ECONNREFUSED)',
    '999 more database unavailable: network error (ECONNREFUSED) in the last 10 s',
    '5 more database unavailable: network error (ECONNREFUSED) in the last 10 s',
  ]);

  // A quiet interval ends it: the next one is news again, logged at once.
  await vi.advanceTimersByTimeAsync(INTERVAL_MS);
  expect(records()).toHaveLength(3);
  warnings.warn('database unavailable: network error (ECONNREFUSED)', refused());
  await vi.advanceTimersByTimeAsync(0);
  expect(records()).toHaveLength(4);
  expect(records()[3].err).toBeDefined();
});

it('counts each kind on its own', async () => {
  const { log, records } = logger();
  const warnings = createThrottledWarnings(log, INTERVAL_MS);
  warnings.warn('database unavailable: network error (ECONNREFUSED)', refused());
  warnings.warn('statement timeout', new Error('canceling statement due to statement timeout'));
  warnings.warn('statement timeout', new Error('canceling statement due to statement timeout'));
  await vi.advanceTimersByTimeAsync(INTERVAL_MS);
  expect(records().map((record) => record.msg)).toEqual([
    'database unavailable: network error (ECONNREFUSED)',
    'statement timeout',
    '1 more statement timeout in the last 10 s',
  ]);
});
