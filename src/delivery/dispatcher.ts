// Keeps up to `concurrency` jobs in flight: it fetches as many as there are free slots (at most
// `maxBatch` per round trip), hands each to `run`, and fetches again as slots free up. A job's
// slot is held until `run`'s promise for it settles.
// A fetch that filled every slot it asked for is followed by the next at once. One that came
// back short either left due work behind a cap (`more`: an endpoint or an organization at its
// limit, rows another worker held) or found nothing more due:
// - work held back: the next fetch waits for a slot to be freed and then REFILL_WAIT_MS, so one
//   round trip refills every slot freed meanwhile, rather than one round trip per freed slot;
// - nothing due: it waits for the poll interval (work that fell due with nobody announcing it).
// `wake()` (new work was announced) ends either wait at once, and a fetch in progress when it
// comes is followed by another.

/** After a fetch that left work held back, how long the next waits past the first freed slot. */
export const REFILL_WAIT_MS = 5;

export interface Fetched<Job> {
  jobs: Job[];
  /** Due jobs were left behind a cap: freed slots may let them go. */
  more: boolean;
}

export interface DispatcherOptions<Job> {
  concurrency: number;
  maxBatch: number;
  pollIntervalMs: number;
  fetch(limit: number): Promise<Fetched<Job>>;
  /** One promise per job, settled when its slot is free. */
  run(jobs: Job[]): Promise<void>[];
  /** A fetch failed (the dispatcher waits a poll interval and tries again). */
  onFetchError(error: unknown): void;
}

export interface Dispatcher {
  /** Work may be waiting: fetch now rather than at the next poll. */
  wake(): void;
  /** Jobs held now (fetched and their slots not yet free). */
  inFlight(): number;
  /** Stops fetching and resolves once every job's slot is free. */
  stop(): Promise<void>;
}

export function startDispatcher<Job>(options: DispatcherOptions<Job>): Dispatcher {
  const { concurrency, maxBatch, pollIntervalMs } = options;
  let held = 0;
  let stopping = false;
  /** Set by wake(): a fetch in progress when work is announced is followed by another at once. */
  let woken = false;
  let interruptWait: (() => void) | undefined;
  /** Set while a pause also ends when a slot is freed. */
  let onSlotFreed: (() => void) | undefined;
  const running = new Set<Promise<void>>();

  /** Waits `ms`, or less: until wake() or stop(), or a slot is freed if `orSlotFreed`. */
  const pause = (ms: number, orSlotFreed = false) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        interruptWait = undefined;
        onSlotFreed = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      interruptWait = done;
      if (orSlotFreed) onSlotFreed = done;
    });
  const wake = () => {
    woken = true;
    interruptWait?.();
  };

  const loop = async () => {
    while (!stopping) {
      woken = false;
      const free = concurrency - held;
      if (free <= 0) {
        await pause(pollIntervalMs, true);
        continue;
      }
      const limit = Math.min(free, maxBatch);
      let fetched: Fetched<Job>;
      try {
        fetched = await options.fetch(limit);
      } catch (error) {
        options.onFetchError(error);
        await pause(pollIntervalMs);
        continue;
      }
      const { jobs, more } = fetched;
      held += jobs.length;
      options.run(jobs).forEach((finished) => {
        const tracked = finished
          .catch(() => {}) // run() reports its own failures; the slot is freed either way
          .finally(() => {
            held--;
            running.delete(tracked);
            onSlotFreed?.();
          });
        running.add(tracked);
      });
      if (jobs.length === limit || woken || stopping) continue;
      // Work held back waits for a freed slot, then a little more for others; a freed slot may not
      // be ours (another worker's, or an outcome recorded), so the poll interval bounds the wait.
      await pause(pollIntervalMs, more);
      if (more && !woken && !stopping) await pause(REFILL_WAIT_MS);
    }
  };
  const looping = loop();

  return {
    wake,
    inFlight: () => held,
    async stop() {
      stopping = true;
      interruptWait?.();
      await looping;
      await Promise.all(running);
    },
  };
}
