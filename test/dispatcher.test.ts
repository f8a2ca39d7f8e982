// The worker's dispatcher on its own, on fake timers: how many jobs it asks for, and when it
// asks again (at once after a full page; after a freed slot and a short wait when work was held
// back; after the poll interval when nothing was due; at once when woken).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFILL_WAIT_MS, startDispatcher, type Dispatcher, type Fetched } from '../src/delivery/dispatcher.ts';

const POLL_MS = 1000;

interface Harness {
  dispatcher: Dispatcher;
  /** The limit of each fetch so far. */
  fetches: number[];
  /** Finishes the job (frees its slot). */
  finish(job: number): void;
  errors: unknown[];
}

/** A dispatcher whose fetches answer from `answers` in turn (then nothing), each job held until finished. */
function harness(answers: (Fetched<number> | Error)[], options: { concurrency?: number; maxBatch?: number } = {}): Harness {
  const fetches: number[] = [];
  const finishers = new Map<number, () => void>();
  const errors: unknown[] = [];
  const dispatcher = startDispatcher<number>({
    concurrency: options.concurrency ?? 10,
    maxBatch: options.maxBatch ?? 100,
    pollIntervalMs: POLL_MS,
    async fetch(limit) {
      fetches.push(limit);
      const answer = answers.shift() ?? { jobs: [], more: false };
      if (answer instanceof Error) throw answer;
      return { jobs: answer.jobs.slice(0, limit), more: answer.more };
    },
    run: (jobs) => jobs.map((job) => new Promise<void>((resolve) => finishers.set(job, resolve))),
    onFetchError: (error) => errors.push(error),
  });
  return { dispatcher, fetches, errors, finish: (job) => finishers.get(job)!() };
}

const page = (from: number, count: number, more = false): Fetched<number> => ({
  jobs: Array.from({ length: count }, (_, index) => from + index),
  more,
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the dispatcher', () => {
  it('asks for its free slots, at most a batch, and again at once after a full page', async () => {
    const { dispatcher, fetches, finish } = harness([page(1, 4), page(5, 4), page(9, 2)], { concurrency: 10, maxBatch: 4 });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toEqual([4, 4, 2]);
    expect(dispatcher.inFlight()).toBe(10);
    // Every slot held: nothing is asked for until one is free.
    await vi.advanceTimersByTimeAsync(5 * POLL_MS);
    expect(fetches).toEqual([4, 4, 2]);
    for (let job = 1; job <= 10; job++) finish(job);
    const stopped = dispatcher.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
  });

  it('after a short page with nothing more due, asks again after the poll interval, or at once when woken', async () => {
    const { dispatcher, fetches } = harness([page(1, 2)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toEqual([10]);
    await vi.advanceTimersByTimeAsync(POLL_MS - 1);
    expect(fetches).toEqual([10]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetches).toEqual([10, 8]);
    dispatcher.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toEqual([10, 8, 8]);
    void dispatcher.stop();
  });

  it('after work was held back, waits for a freed slot and then a moment, so one fetch refills the slots freed meanwhile', async () => {
    const { dispatcher, fetches, finish } = harness([page(1, 3, true), page(4, 2, true)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toEqual([10]);
    await vi.advanceTimersByTimeAsync(100);
    expect(fetches).toEqual([10]);
    finish(1);
    await vi.advanceTimersByTimeAsync(REFILL_WAIT_MS - 1);
    finish(2);
    expect(fetches).toEqual([10]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetches).toEqual([10, 9]);
    void dispatcher.stop();
  });

  it('after work was held back and no slot is freed (another worker holds them), asks again after the poll interval', async () => {
    const { dispatcher, fetches } = harness([page(1, 1, true)]);
    await vi.advanceTimersByTimeAsync(POLL_MS - 1);
    expect(fetches).toEqual([10]);
    await vi.advanceTimersByTimeAsync(1 + REFILL_WAIT_MS);
    expect(fetches).toEqual([10, 9]);
    void dispatcher.stop();
  });

  it('skips the refill wait when new work is announced', async () => {
    const { dispatcher, fetches } = harness([page(1, 3, true)]);
    await vi.advanceTimersByTimeAsync(0);
    dispatcher.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toEqual([10, 7]);
    void dispatcher.stop();
  });

  it('reports a failed fetch and tries again after the poll interval', async () => {
    const failure = new Error('connection refused');
    const { dispatcher, fetches, errors } = harness([failure, page(1, 1)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([failure]);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(fetches).toEqual([10, 10]);
    void dispatcher.stop();
  });

  it('stops fetching at once, and resolves when every slot is free', async () => {
    const { dispatcher, fetches, finish } = harness([page(1, 2)]);
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = dispatcher.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(10 * POLL_MS);
    expect(stopped).toBe(false);
    finish(1);
    finish(2);
    await stopping;
    expect(fetches).toEqual([10]);
  });
});
