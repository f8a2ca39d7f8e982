// A bulkhead per key (an organization): at most `slotsPerKey` of a key's jobs hold a resource at
// once, the next wait in line for a release, and a wait past `maxWaitMs` is refused. So one key
// cannot take all of a shared resource (the database connections of a process), and its own
// excess is told so quickly instead of queueing in front of everybody else. In process memory: it
// shares out what one process holds.
import { causeChain } from './availability.ts';

const BULKHEAD_FULL = 'BULKHEAD_FULL';

/** A key's slots stayed taken for the whole wait. */
export class BulkheadFullError extends Error {
  override name = 'BulkheadFullError';
  /** Prisma keeps a driver error's code when it wraps it: how the refusal is recognised behind it. */
  readonly code = BULKHEAD_FULL;

  constructor(
    readonly slotsPerKey: number,
    readonly waitedMs: number,
  ) {
    super(`All ${slotsPerKey} slots of the key stayed taken for ${waitedMs} ms`);
  }
}

export interface Bulkhead {
  /** Takes one of `key`'s slots, waiting if need be; resolves with its release (counted once). */
  acquire(key: string): Promise<() => void>;
  /**
   * acquire without an error for a refusal: resolves with undefined instead. For callers that
   * refuse a flood, where an Error (and its stack) made per refused request is a cost of its own.
   */
  admit(key: string): Promise<(() => void) | undefined>;
  /** The slots of `key` taken now. */
  taken(key: string): number;
}

interface Waiter {
  resolve(release: (() => void) | undefined): void;
  timer: NodeJS.Timeout;
}

interface KeyState {
  taken: number;
  waiting: Waiter[];
}

export function createBulkhead({ slotsPerKey, maxWaitMs }: { slotsPerKey: number; maxWaitMs: number }): Bulkhead {
  const keys = new Map<string, KeyState>();

  function releaseOf(key: string, state: KeyState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = state.waiting.shift();
      if (next) {
        // The slot passes straight to the first in line: nobody arriving meanwhile can take it.
        clearTimeout(next.timer);
        next.resolve(releaseOf(key, state));
        return;
      }
      state.taken--;
      if (state.taken === 0) keys.delete(key);
    };
  }

  function admit(key: string): Promise<(() => void) | undefined> {
    let state = keys.get(key);
    if (!state) {
      state = { taken: 0, waiting: [] };
      keys.set(key, state);
    }
    if (state.taken < slotsPerKey) {
      state.taken++;
      return Promise.resolve(releaseOf(key, state));
    }
    if (maxWaitMs <= 0) return Promise.resolve(undefined);
    const waiters = state.waiting;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          resolve(undefined);
        }, maxWaitMs),
      };
      waiters.push(waiter);
    });
  }

  return {
    async acquire(key) {
      const release = await admit(key);
      if (!release) throw new BulkheadFullError(slotsPerKey, maxWaitMs);
      return release;
    },
    admit,
    taken: (key) => keys.get(key)?.taken ?? 0,
  };
}

/** Whether `error` is a bulkhead's refusal, or wraps one (as Prisma wraps a refused connection). */
export function isBulkheadFull(error: unknown): boolean {
  for (const current of causeChain(error)) if (current.code === BULKHEAD_FULL) return true;
  return false;
}
