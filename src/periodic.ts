// A pass run at once, then `intervalMs` after each one ends: passes never overlap, and a slow one
// delays the next instead of piling others up. The pass handles its own errors.
export interface Periodic {
  /** Stops; resolves once a pass in progress has finished. */
  stop(): Promise<void>;
}

export function runPeriodically(pass: () => Promise<void>, intervalMs: number): Periodic {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(schedule);
    }, intervalMs);
  };
  running = pass().finally(schedule);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
