// The per-key bulkhead on its own, on fake timers: slots up to the limit at once, then a wait in
// line (first come, first served) bounded in time, then a refusal. test/api-fairness.test.ts
// shows it through a real server.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { BulkheadFullError, createBulkhead } from '../src/db/bulkhead.ts';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Whether `promise` has settled, and how, once pending callbacks ran. */
async function state(promise: Promise<unknown>): Promise<'pending' | 'fulfilled' | 'rejected'> {
  let settled: 'pending' | 'fulfilled' | 'rejected' = 'pending';
  promise.then(
    () => (settled = 'fulfilled'),
    () => (settled = 'rejected'),
  );
  await vi.advanceTimersByTimeAsync(0);
  return settled;
}

it('gives a key its slots at once, then makes the next wait for a release, first come first served', async () => {
  const bulkhead = createBulkhead({ slotsPerKey: 2, maxWaitMs: 1000 });
  const first = await bulkhead.acquire('a');
  await bulkhead.acquire('a');
  expect(bulkhead.taken('a')).toBe(2);

  const third = bulkhead.acquire('a');
  const fourth = bulkhead.acquire('a');
  expect(await state(third)).toBe('pending');

  first();
  expect(await state(third)).toBe('fulfilled');
  expect(await state(fourth)).toBe('pending');
  expect(bulkhead.taken('a')).toBe(2);
});

it('refuses a waiter after the longest wait, and a later release does not go to it', async () => {
  const bulkhead = createBulkhead({ slotsPerKey: 1, maxWaitMs: 1000 });
  const release = await bulkhead.acquire('a');
  const waiting = bulkhead.acquire('a');
  const refused = expect(waiting).rejects.toThrowError(new BulkheadFullError(1, 1000));

  await vi.advanceTimersByTimeAsync(999);
  expect(await state(waiting)).toBe('pending');
  await vi.advanceTimersByTimeAsync(1);
  await refused;

  release();
  expect(bulkhead.taken('a')).toBe(0);
  await bulkhead.acquire('a');
  expect(bulkhead.taken('a')).toBe(1);
});

it('refuses at once when waiting is not allowed', async () => {
  const bulkhead = createBulkhead({ slotsPerKey: 1, maxWaitMs: 0 });
  await bulkhead.acquire('a');
  await expect(bulkhead.acquire('a')).rejects.toBeInstanceOf(BulkheadFullError);
});

it('keeps each key to its own slots', async () => {
  const bulkhead = createBulkhead({ slotsPerKey: 1, maxWaitMs: 1000 });
  await bulkhead.acquire('a');
  const waiting = bulkhead.acquire('a');
  expect(await state(bulkhead.acquire('b'))).toBe('fulfilled');
  expect(await state(waiting)).toBe('pending');
  expect(bulkhead.taken('b')).toBe(1);
});

it('counts a release once, however often it is called', async () => {
  const bulkhead = createBulkhead({ slotsPerKey: 2, maxWaitMs: 1000 });
  const release = await bulkhead.acquire('a');
  await bulkhead.acquire('a');
  release();
  release();
  expect(bulkhead.taken('a')).toBe(1);
});

it('admits like acquire, and answers a refusal with undefined rather than an error', async () => {
  const bulkhead = createBulkhead({ slotsPerKey: 1, maxWaitMs: 1000 });
  const release = await bulkhead.admit('a');
  expect(release).toBeTypeOf('function');
  const waiting = bulkhead.admit('a');
  const refused = bulkhead.admit('a');
  release!();
  expect(await waiting).toBeTypeOf('function');
  await vi.advanceTimersByTimeAsync(1000);
  expect(await refused).toBeUndefined();
  expect(bulkhead.taken('a')).toBe(1);
});
