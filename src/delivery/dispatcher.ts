// Keeps up to `concurrency` jobs in flight: it fetches as many as there are free slots (at most
// `maxBatch` per round trip), hands each to `run`, and fetches again as slots free up. A job's
// slot is held until `run` settles, so one slow job holds one slot, never a batch. While busy,
// it waits a little (REFILL_WAIT_MS) for a quarter of the slots (or a full batch) to be free
// before fetching again, so a backlog is taken in big fetches rather than one job per finished
// job, and slots held by slow jobs never stop it for longer.
// When a fetch comes back short, the queue has drained: it waits for `wake()` (new work was
// announced) or the poll interval (work that became due with nobody announcing it).

const REFILL_WAIT_MS = 20;

export interface DispatcherOptions<Job> {
  concurrency: number;
  maxBatch: number;
  pollIntervalMs: number;
  fetch(limit: number): Promise<Job[]>;
  /** One promise per job, settled when the job is finished with (its slot is then free). */
  run(jobs: Job[]): Promise<void>[];
  /** A fetch failed (the dispatcher waits a poll interval and tries again). */
  onFetchError(error: unknown): void;
}

export interface Dispatcher {
  /** Work may be waiting: fetch now rather than at the next poll. */
  wake(): void;
  /** Jobs held now (fetched and not yet finished). */
  inFlight(): number;
  /** Stops fetching and resolves once every job in flight has finished. */
  stop(): Promise<void>;
}

export function startDispatcher<Job>(options: DispatcherOptions<Job>): Dispatcher {
  const { concurrency, maxBatch, pollIntervalMs } = options;
  const refillAt = Math.min(maxBatch, Math.ceil(concurrency / 4));
  let held = 0;
  let stopping = false;
  /** Set by wake(): a fetch in progress when work is announced is followed by another at once. */
  let woken = false;
  let waitingForSlot = false;
  /** When the dispatcher started waiting for more free slots before its next fetch. */
  let refillWaitFrom: number | undefined;
  let interruptSleep: (() => void) | undefined;
  const running = new Set<Promise<void>>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        interruptSleep = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      interruptSleep = done;
    });
  const wake = () => {
    woken = true;
    interruptSleep?.();
  };
  const slotFreed = () => {
    if (waitingForSlot) interruptSleep?.();
  };

  const loop = async () => {
    while (!stopping) {
      const free = concurrency - held;
      woken = false;
      if (free <= 0) refillWaitFrom = undefined;
      else if (held > 0 && free < refillAt) refillWaitFrom ??= Date.now();
      const refillWait = refillWaitFrom === undefined ? 0 : REFILL_WAIT_MS - (Date.now() - refillWaitFrom);
      if (free <= 0 || refillWait > 0) {
        waitingForSlot = true;
        await sleep(free <= 0 ? pollIntervalMs : refillWait);
        waitingForSlot = false;
        continue;
      }
      refillWaitFrom = undefined;
      const limit = Math.min(free, maxBatch);
      let jobs: Job[];
      try {
        jobs = await options.fetch(limit);
      } catch (error) {
        options.onFetchError(error);
        await sleep(pollIntervalMs);
        continue;
      }
      held += jobs.length;
      options.run(jobs).forEach((finished) => {
        const tracked = finished
          .catch(() => {}) // run() reports its own failures; the slot is freed either way
          .finally(() => {
            held--;
            running.delete(tracked);
            slotFreed();
          });
        running.add(tracked);
      });
      if (jobs.length < limit && !woken && !stopping) await sleep(pollIntervalMs);
    }
  };
  const looping = loop();

  return {
    wake,
    inFlight: () => held,
    async stop() {
      stopping = true;
      interruptSleep?.();
      await looping;
      await Promise.all(running);
    },
  };
}
