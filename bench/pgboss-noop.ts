// The queue's own limit, for bench/delivery.ts: how fast bare pg-boss hands out and completes
// jobs whose handler does nothing, on the same PostgreSQL, in a process of its own (forked by
// the bench). `jobs` jobs are queued first (not timed); then `work()` with a no-op handler,
// taking `batchSize` jobs per fetch with `loops` fetch loops, drains them.
import { PgBoss } from 'pg-boss';
import { performance } from 'node:perf_hooks';

export interface NoopOptions {
  databaseUrl: string;
  jobs: number;
  batchSize: number;
  loops: number;
}

export interface NoopResult {
  jobsPerSecond: number;
  /** CPU of this process per job, in µs. */
  cpuMicrosPerJob: number;
}

const QUEUE = 'bench-noop';

export async function measureNoop(options: NoopOptions): Promise<NoopResult> {
  const boss = new PgBoss({ connectionString: options.databaseUrl, max: 4 });
  boss.on('error', (error) => console.error('[pg-boss no-op]', error.message));
  await boss.start();
  await boss.createQueue(QUEUE);
  for (let queued = 0; queued < options.jobs; queued += 1000) {
    const count = Math.min(1000, options.jobs - queued);
    await boss.insert(
      QUEUE,
      Array.from({ length: count }, (_, index) => ({ data: { index: queued + index } })),
    );
  }
  let done = 0;
  let finish!: () => void;
  const drained = new Promise<void>((resolve) => (finish = resolve));
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await boss.work(
    QUEUE,
    { batchSize: options.batchSize, localConcurrency: options.loops, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true },
    async (jobs) => {
      done += jobs.length;
      if (done >= options.jobs) finish();
    },
  );
  await drained;
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await boss.stop({ graceful: true });
  return { jobsPerSecond: options.jobs / seconds, cpuMicrosPerJob: (cpu.user + cpu.system) / options.jobs };
}

if (process.send) {
  process.once('message', async (options: NoopOptions) => {
    const result = await measureNoop(options);
    process.send!(result, () => process.exit(0));
  });
  process.on('disconnect', () => process.exit(0));
}
