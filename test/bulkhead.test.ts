// The per-key bulkhead on its own, on fake timers: slots up to the limit at once, then a wait in
// line (first come, first served) bounded in time, then a refusal. test/api-fairness.test.ts
// shows it through a real server.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

describe('a key refused, with afterRefusal', () => {
  const options = { slotsPerKey: 3, maxWaitMs: 100, afterRefusal: { slots: 1, regainEveryMs: 1000 } };

  /** A bulkhead whose key 'a' asked for `asked` slots at once: the three it has, the rest refused after the wait. */
  async function refusedAsking(asked: number) {
    const bulkhead = createBulkhead(options);
    const releases = await Promise.all([1, 2, 3].map(() => bulkhead.acquire('a')));
    const refused = Array.from({ length: asked - 3 }, () => bulkhead.admit('a'));
    await vi.advanceTimersByTimeAsync(100);
    for (const refusal of refused) expect(await refusal).toBeUndefined();
    return { bulkhead, releases };
  }
  const refusedOnce = () => refusedAsking(6);

  it('keeps all its slots after a refusal that asked for less than twice them (a burst)', async () => {
    const { bulkhead, releases } = await refusedAsking(5);
    for (const release of releases) release();
    await Promise.all([1, 2, 3].map(() => bulkhead.acquire('a')));
    expect(bulkhead.taken('a')).toBe(3);
  });

  it('holds one slot at most once refused asking for twice them (a flood): a release goes to a waiter only once the key is under it', async () => {
    const { bulkhead, releases } = await refusedOnce();
    const waiting = bulkhead.acquire('a');
    releases[0]!();
    releases[1]!();
    expect(await state(waiting)).toBe('pending');
    expect(bulkhead.taken('a')).toBe(1);
    releases[2]!();
    expect(await state(waiting)).toBe('fulfilled');
    expect(bulkhead.taken('a')).toBe(1);
    expect(await state(bulkhead.acquire('b'))).toBe('fulfilled');
  });

  it('regains one slot for every interval without a refusal, its waiters first', async () => {
    const { bulkhead, releases } = await refusedOnce();
    const refusedAt = Date.now();
    for (const release of releases) release();
    await bulkhead.acquire('a');
    const waiting = bulkhead.acquire('a');
    expect(await state(waiting)).toBe('pending');

    // The clock (not the waiters' timers) at 1,000 ms after the refusal: two slots, the second to
    // the one waiting rather than to a newcomer.
    vi.setSystemTime(refusedAt + 1000);
    const newcomer = bulkhead.admit('a');
    expect(await state(waiting)).toBe('fulfilled');
    expect(await state(newcomer)).toBe('pending');
    await vi.advanceTimersByTimeAsync(100);
    expect(await newcomer).toBeUndefined();
  });

  it('has all its slots again once it goes that long without a refusal', async () => {
    const { bulkhead, releases } = await refusedOnce();
    for (const release of releases) release();
    vi.setSystemTime(Date.now() + 2000);
    await Promise.all([1, 2, 3].map(() => bulkhead.acquire('a')));
    expect(bulkhead.taken('a')).toBe(3);
  });

  it('tells whether a key is held to fewer slots: after a flood, not after a burst, nor once it regained them all', async () => {
    const flooded = await refusedOnce();
    expect(flooded.bulkhead.held('a')).toBe(true);
    expect(flooded.bulkhead.held('b')).toBe(false);
    vi.setSystemTime(Date.now() + 1999);
    expect(flooded.bulkhead.held('a')).toBe(true);
    vi.setSystemTime(Date.now() + 1);
    expect(flooded.bulkhead.held('a')).toBe(false);

    const burst = await refusedAsking(5);
    expect(burst.bulkhead.held('a')).toBe(false);
  });
});
