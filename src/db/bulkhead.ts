// A bulkhead per key (an organization): at most `slotsPerKey` of a key's jobs hold a resource at
// once, the next wait in line for a release, and a wait past `maxWaitMs` is refused. So one key
// cannot take all of a shared resource (the database connections of a process), and its own
// excess is told so quickly instead of queueing in front of everybody else. In process memory: it
// shares out what one process holds.
//
// A key refused while it asks for twice its slots at once (a flood rather than a burst) may also be
// held to fewer slots for a while (afterRefusal): it gains nothing from running several at once on
// a process whose one event loop it already fills, and every step of everybody else's requests
// waits behind each of its running operations' steps. Held to one at a time, it gets about as much
// done and the others' requests stay quick; it regains its slots once it stops overflowing them.
// Whether a key is held (`held`) is for its callers to hold it to less of other resources too.
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
  /** Whether `key` is held to fewer slots than slotsPerKey now, after a flood's refusal (afterRefusal). */
  held(key: string): boolean;
}

interface Waiter {
  resolve(release: (() => void) | undefined): void;
  timer: NodeJS.Timeout;
}

interface KeyState {
  taken: number;
  waiting: Waiter[];
}

export interface BulkheadOptions {
  slotsPerKey: number;
  maxWaitMs: number;
  /**
   * A key refused (its wait ran out) while it held all its slots and as many more were waiting
   * holds at most `slots` at once from then on, and regains one more for every `regainEveryMs`
   * without another such refusal, up to slotsPerKey.
   */
  afterRefusal?: { slots: number; regainEveryMs: number };
}

export function createBulkhead({ slotsPerKey, maxWaitMs, afterRefusal }: BulkheadOptions): Bulkhead {
  const keys = new Map<string, KeyState>();
  /** When each key held to fewer slots was last refused. */
  const lastRefused = new Map<string, number>();

  const regainedAllAt = (refusedAt: number) => refusedAt + (slotsPerKey - (afterRefusal?.slots ?? 0)) * (afterRefusal?.regainEveryMs ?? 0);

  function slotsOf(key: string): number {
    const refusedAt = lastRefused.get(key);
    if (refusedAt === undefined || !afterRefusal) return slotsPerKey;
    const now = Date.now();
    if (now >= regainedAllAt(refusedAt)) {
      lastRefused.delete(key);
      return slotsPerKey;
    }
    return afterRefusal.slots + Math.floor((now - refusedAt) / afterRefusal.regainEveryMs);
  }

  function refuse(key: string, state: KeyState): undefined {
    // The refused one counts: it was asked for too.
    if (!afterRefusal || state.taken + state.waiting.length + 1 < 2 * slotsPerKey) return undefined;
    const now = Date.now();
    // Keys that regained all their slots are forgotten here too, not only when they come back.
    for (const [other, refusedAt] of lastRefused) if (now >= regainedAllAt(refusedAt)) lastRefused.delete(other);
    lastRefused.set(key, now);
    return undefined;
  }

  /** Gives the key's free slots to its first waiters: nobody arriving meanwhile can take them. */
  function admitWaiters(key: string, state: KeyState): void {
    while (state.waiting.length > 0 && state.taken < slotsOf(key)) {
      const next = state.waiting.shift()!;
      clearTimeout(next.timer);
      state.taken++;
      next.resolve(releaseOf(key, state));
    }
  }

  function releaseOf(key: string, state: KeyState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.taken--;
      admitWaiters(key, state);
      if (state.taken === 0) keys.delete(key);
    };
  }

  function admit(key: string): Promise<(() => void) | undefined> {
    let state = keys.get(key);
    if (!state) {
      state = { taken: 0, waiting: [] };
      keys.set(key, state);
    }
    // Slots regained with time go to those already waiting first.
    admitWaiters(key, state);
    if (state.waiting.length === 0 && state.taken < slotsOf(key)) {
      state.taken++;
      return Promise.resolve(releaseOf(key, state));
    }
    if (maxWaitMs <= 0) return Promise.resolve(refuse(key, state));
    const waiters = state.waiting;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          resolve(refuse(key, state));
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
    held: (key) => slotsOf(key) < slotsPerKey,
  };
}

/** Whether `error` is a bulkhead's refusal, or wraps one (as Prisma wraps a refused connection). */
export function isBulkheadFull(error: unknown): boolean {
  for (const current of causeChain(error)) if (current.code === BULKHEAD_FULL) return true;
  return false;
}
