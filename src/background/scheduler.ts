// Background work: the jobs a worker process runs now and then beside its deliveries (app.ts says
// which), all on this one scheduler. Each job's first pass runs at once, and each next one when the
// job says after the last ends: a job's passes never overlap, and a slow one delays the next
// instead of piling others up. That keeps one process's passes apart; a job whose passes must not
// overlap across processes either takes a lock for them or is safe to run concurrently.

export interface BackgroundJob {
  /** What it does, as its failures are logged. */
  readonly name: string;
  /** Milliseconds from the end of a pass, at `now`, to the start of the next. */
  msUntilNextPass(now: Date): number;
  /**
   * One pass. It logs its own failures (as the job's are worth: a warning, an error, metrics); one
   * it lets through is logged at error under the job's name, and the next pass comes as usual.
   * `stopping()` turns true once the jobs are stopped: a long pass may end early.
   */
  pass(stopping: () => boolean): Promise<void>;
}

export interface BackgroundJobs {
  /** Starts no more passes; resolves once the passes in progress have finished. */
  stop(): Promise<void>;
}

export function startBackgroundJobs(jobs: BackgroundJob[], log: { error(object: object, message: string): void }): BackgroundJobs {
  let stopped = false;
  const stopping = () => stopped;
  const started = jobs.map((job) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    const run = () => {
      running = job
        .pass(stopping)
        .catch((error) => log.error({ err: error, job: job.name }, `background job ${job.name} failed; its next pass tries again`))
        .finally(schedule);
    };
    const schedule = () => {
      if (stopped) return;
      timer = setTimeout(run, job.msUntilNextPass(new Date()));
    };
    run();
    return {
      async stop() {
        clearTimeout(timer);
        await running;
      },
    };
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(started.map((job) => job.stop()));
    },
  };
}
