// The recorder's group commit on its own, on fake timers and a stand-in database that records
// each transaction's statements: which outcomes are written together, and what happens while
// the database cannot be reached. test/delivery-outcomes.test.ts shows the same on PostgreSQL.
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMetrics } from '../src/metrics.ts';
import type { AttemptJob } from '../src/delivery/queue.ts';
import { createRecorder, type Recorder } from '../src/delivery/recorder.ts';

/** A refused connection, as pg reports it. */
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

interface StandInDatabase {
  pool: pg.Pool;
  boss: PgBoss;
  /** The jobs each committed transaction completed, in order. */
  committed: string[][];
  /** While set, connecting fails as a database that is down. */
  down: boolean;
  /** While set, every COMMIT waits for it. */
  commitGate?: Promise<void>;
}

function standInDatabase(): StandInDatabase {
  const database: StandInDatabase = { committed: [], down: false } as unknown as StandInDatabase;
  let completing: string[] = [];
  const client = {
    async query(statement: string | { text: string }) {
      const text = typeof statement === 'string' ? statement : statement.text;
      if (text === 'BEGIN') completing = [];
      if (text === 'COMMIT') {
        await database.commitGate;
        database.committed.push(completing);
      }
      return { rows: [] };
    },
    release() {},
  };
  database.pool = {
    async connect() {
      if (database.down) throw refused();
      return client;
    },
  } as unknown as pg.Pool;
  // pg-boss completes the jobs in the recorder's transaction.
  database.boss = {
    async complete(_queue: string, jobs: AttemptJob[]) {
      completing.push(...jobs.map((job) => job.id));
    },
  } as unknown as PgBoss;
  return database;
}

const job = (id: string): AttemptJob => ({ id, retryCount: 0, data: { deliveryId: `delivery-${id}`, attempt: 1 } });
const log = { warn: vi.fn(), error: vi.fn() };

let database: StandInDatabase;
let recorder: Recorder;

beforeEach(() => {
  vi.useFakeTimers();
  log.warn.mockClear();
  log.error.mockClear();
  database = standInDatabase();
  recorder = createRecorder({
    pool: database.pool,
    boss: database.boss,
    metrics: createMetrics(database.pool),
    log,
    disableAfterFailures: 10,
  });
});
afterEach(() => vi.useRealTimers());

describe('the recorder', () => {
  it('writes the outcomes of attempts that finish in the same turn in one transaction', async () => {
    const stored = ['a', 'b', 'c'].map((id) => recorder.record(job(id), { kind: 'stale' }));
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all(stored);
    expect(database.committed).toEqual([['a', 'b', 'c']]);
  });

  it('writes the outcomes that finish while a write is in progress together, in the next one', async () => {
    let openGate!: () => void;
    database.commitGate = new Promise((resolve) => (openGate = resolve));
    const first = recorder.record(job('a'), { kind: 'stale' });
    await vi.advanceTimersByTimeAsync(0);
    const waiting = ['b', 'c', 'd'].map((id) => recorder.record(job(id), { kind: 'stale' }));
    await vi.advanceTimersByTimeAsync(100);
    expect(database.committed).toEqual([]);
    database.commitGate = undefined;
    openGate();
    await first;
    await Promise.all(waiting);
    expect(database.committed).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('keeps outcomes while the database is down, trying again after 100, 200, 400 ms…, and writes them once it is back', async () => {
    database.down = true;
    let stored = false;
    const storing = recorder.record(job('a'), { kind: 'stale' }).then(() => (stored = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(log.warn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(100 + 200 + 400);
    expect(stored).toBe(false);
    const joining = recorder.record(job('b'), { kind: 'stale' });
    database.down = false;
    await vi.advanceTimersByTimeAsync(800);
    await storing;
    await joining;
    expect(database.committed).toEqual([['a'], ['b']]);
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it('gives the outcomes up at shutdown once the grace period is over, if the database is still down', async () => {
    database.down = true;
    let settled = false;
    const storing = recorder.record(job('a'), { kind: 'stale' }).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    recorder.giveUpAfter(1000);
    await vi.advanceTimersByTimeAsync(500);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(2000);
    await storing;
    expect(database.committed).toEqual([]);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ outcomes: 1 }),
      'database unavailable at shutdown: delivery outcomes not recorded; their jobs expire and the attempts are made again',
    );
  });
});
