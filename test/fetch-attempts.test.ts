// The worker's fair fetch (fetchAttempts), on pg-boss's real job table: which seeded jobs it
// claims under each isolation rule (an endpoint's cap across workers, an open circuit and its
// probe, organizations' shares, the fair order, rows another worker holds), and that its cost
// follows the jobs it takes, never the backlog behind them.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectPool } from '../src/db/pool.ts';
import { fetchAttempts, type FairFetch } from '../src/delivery/queue.ts';
import { useHookline } from './support/fixture.ts';
import { explainJson, planNodes, type PlanNode } from './support/statements.ts';

const hookline = useHookline({ app: false, tenant: false });
let pool: pg.Pool;

beforeAll(() => {
  // Connected as the worker's pool is (JIT off among its settings).
  pool = connectPool(hookline.database.url, { maxConnections: 3 });
});
afterAll(() => pool.end());
beforeEach(() => pool.query(`DELETE FROM pgboss.job WHERE name = 'deliver'`));

interface SeededJob {
  /** A name the case refers to the job by. */
  job: string;
  endpoint: string;
  organization: string;
  state?: 'created' | 'retry' | 'active';
  /** Seconds from now it falls due (negative: due since then). */
  dueIn?: number;
  blocked?: boolean;
}

const ids = new Map<string, string>();
const idOf = (name: string) => {
  if (!ids.has(name)) ids.set(name, randomUUID());
  return ids.get(name)!;
};
const nameOf = (id: string) => [...ids].find(([, value]) => value === id)?.[0] ?? id;

/** Inserts jobs as the queue writes them (endpoint as group, organization in the data), oldest first. */
async function seed(jobs: SeededJob[]): Promise<void> {
  for (const [index, job] of jobs.entries()) {
    await pool.query(
      `INSERT INTO pgboss.job (name, id, data, group_id, state, start_after, created_on, started_on, blocked)
       VALUES ('deliver', $1, $2, $3, $4, now() + make_interval(secs => $5), now() - make_interval(secs => 1000 - $6::int), $7, $8)`,
      [
        idOf(job.job),
        { deliveryId: randomUUID(), attempt: 1, organizationId: idOf(job.organization) },
        idOf(job.endpoint),
        job.state ?? 'created',
        job.dueIn ?? -1,
        index,
        job.state === 'active' ? new Date() : null,
        job.blocked ?? false,
      ],
    );
  }
}

function fairFetch(options: {
  limit?: number;
  cap?: number;
  caps?: Record<string, number>;
  held?: Record<string, number>;
  share?: number;
  finished?: string[];
}): FairFetch {
  return {
    limit: options.limit ?? 100,
    defaultEndpointCap: options.cap ?? 10,
    endpointCaps: new Map(Object.entries(options.caps ?? {}).map(([endpoint, cap]) => [idOf(endpoint), cap])),
    finishedJobIds: (options.finished ?? []).map(idOf),
    heldByOrganization: new Map(Object.entries(options.held ?? {}).map(([organization, held]) => [idOf(organization), held])),
    organizationShare: options.share ?? 100,
  };
}

const due = (job: string, endpoint: string, organization = 'org-x'): SeededJob => ({ job, endpoint, organization });
const activeOn = (job: string, endpoint: string, organization = 'org-x'): SeededJob => ({ job, endpoint, organization, state: 'active' });

interface Case {
  name: string;
  jobs: SeededJob[];
  fetch: Parameters<typeof fairFetch>[0];
  claimed: string[];
  heldBack: boolean;
}

const CASES: Case[] = [
  {
    name: 'takes due jobs oldest first, up to the limit',
    jobs: [due('a1', 'a'), due('a2', 'a'), due('a3', 'a')],
    fetch: { limit: 2 },
    claimed: ['a1', 'a2'],
    heldBack: true,
  },
  {
    name: 'leaves jobs not yet due, and blocked ones',
    jobs: [due('a1', 'a'), { ...due('later', 'a'), dueIn: 60 }, { ...due('blocked', 'a'), blocked: true }],
    fetch: {},
    claimed: ['a1'],
    heldBack: false,
  },
  {
    name: "keeps an endpoint under its cap, counting other workers' attempts in flight",
    jobs: [activeOn('busy1', 'a'), activeOn('busy2', 'a'), due('a1', 'a'), due('a2', 'a'), due('b1', 'b')],
    fetch: { cap: 3 },
    claimed: ['a1', 'b1'],
    heldBack: true,
  },
  {
    name: "an endpoint's own cap (learned from its answers) replaces the default",
    jobs: [due('a1', 'a'), due('a2', 'a'), due('a3', 'a'), due('b1', 'b'), due('b2', 'b')],
    fetch: { cap: 1, caps: { a: 3 } },
    claimed: ['a1', 'a2', 'a3', 'b1'],
    heldBack: true,
  },
  {
    name: "counts no slot for this worker's attempts made whose outcomes are not written yet",
    jobs: [activeOn('answered', 'a'), activeOn('sending', 'a'), due('a1', 'a'), due('a2', 'a')],
    fetch: { cap: 2, finished: ['answered'] },
    claimed: ['a1'],
    heldBack: true,
  },
  {
    name: 'skips an endpoint whose circuit is open (cap 0)',
    jobs: [due('a1', 'a'), due('b1', 'b')],
    fetch: { caps: { a: 0 } },
    claimed: ['b1'],
    heldBack: false,
  },
  {
    name: 'a probing endpoint (cap 1) gets one attempt',
    jobs: [due('a1', 'a'), due('a2', 'a')],
    fetch: { caps: { a: 1 } },
    claimed: ['a1'],
    heldBack: true,
  },
  {
    name: 'a probing endpoint whose probe is in flight gets none',
    jobs: [activeOn('probe', 'a'), due('a1', 'a')],
    fetch: { caps: { a: 1 } },
    claimed: [],
    heldBack: true,
  },
  {
    name: 'an organization holds at most its share of the worker',
    jobs: [due('x1', 'a', 'org-x'), due('x2', 'b', 'org-x'), due('x3', 'c', 'org-x'), due('y1', 'd', 'org-y')],
    fetch: { held: { 'org-x': 2 }, share: 3 },
    claimed: ['x1', 'y1'],
    heldBack: true,
  },
  {
    name: 'the organization holding fewest goes first, whatever the age of its jobs',
    jobs: [due('x1', 'a', 'org-x'), due('x2', 'a', 'org-x'), due('y1', 'b', 'org-y'), due('y2', 'b', 'org-y')],
    fetch: { limit: 2, held: { 'org-x': 5 } },
    claimed: ['y1', 'y2'],
    heldBack: true,
  },
  {
    name: 'organizations alternate when they hold as many',
    jobs: [due('x1', 'a', 'org-x'), due('x2', 'a', 'org-x'), due('x3', 'a', 'org-x'), due('y1', 'b', 'org-y'), due('y2', 'b', 'org-y')],
    fetch: { limit: 3 },
    claimed: ['x1', 'y1', 'x2'],
    heldBack: true,
  },
  {
    name: 'takes a job that expired with its worker again (state retry)',
    jobs: [{ ...due('retried', 'a'), state: 'retry' }],
    fetch: {},
    claimed: ['retried'],
    heldBack: false,
  },
];

describe('fetchAttempts claims', () => {
  it.each(CASES)('$name', async ({ jobs, fetch, claimed, heldBack }) => {
    await seed(jobs);
    const result = await fetchAttempts(pool, fairFetch(fetch));
    expect(result.jobs.map((job) => nameOf(job.id)).sort()).toEqual([...claimed].sort());
    expect(result.heldBack).toBe(heldBack);
    const { rows } = await pool.query<{ id: string; state: string }>(
      `SELECT id::text, state::text FROM pgboss.job WHERE name = 'deliver' AND id = ANY ($1::uuid[]) ORDER BY id`,
      [claimed.map(idOf)],
    );
    expect(rows.every((row) => row.state === 'active')).toBe(true);
  });

  it('skips the rows another worker has locked', async () => {
    await seed([due('a1', 'a'), due('a2', 'a'), due('b1', 'b')]);
    const other = await pool.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT id FROM pgboss.job WHERE name = 'deliver' AND id = $1 FOR UPDATE`, [idOf('a1')]);
      const result = await fetchAttempts(pool, fairFetch({}));
      expect(result.jobs.map((job) => nameOf(job.id)).sort()).toEqual(['a2', 'b1']);
    } finally {
      await other.query('ROLLBACK');
      other.release();
    }
  });

  it("counts a job claimed again after its worker died as a retry (pg-boss's fence)", async () => {
    await seed([{ ...due('expired', 'a'), state: 'retry' }]);
    await pool.query(`UPDATE pgboss.job SET started_on = now() - interval '1 minute' WHERE id = $1`, [idOf('expired')]);
    const [job] = (await fetchAttempts(pool, fairFetch({}))).jobs;
    expect(job).toMatchObject({ id: idOf('expired'), retryCount: 1 });
  });
});

describe('the cost of a fetch', () => {
  const BACKLOG = 50_000;
  const LIMIT = 100;
  /** Rows of the job table a fetch may read per job it could take: its page, each endpoint's one extra, and index look-ups. */
  const ROWS_PER_PAGE_ROW = 5;

  it(`follows the page it claims, not a backlog of ${BACKLOG} due jobs`, async () => {
    // One endpoint with the backlog, nine more with a few jobs each, all of one organization but one.
    const busy = randomUUID();
    await pool.query(
      `INSERT INTO pgboss.job (name, data, group_id, start_after, created_on)
       SELECT 'deliver', jsonb_build_object('deliveryId', gen_random_uuid(), 'attempt', 1, 'organizationId', $2::text), $1::text,
              now() - make_interval(secs => $3 - n), now() - make_interval(secs => $3 - n)
       FROM generate_series(1, $3) AS n`,
      [busy, randomUUID(), BACKLOG],
    );
    for (let endpoint = 0; endpoint < 9; endpoint++) await seed([due(`small-${endpoint}-1`, `small-${endpoint}`, `org-${endpoint % 2}`)]);
    await pool.query('ANALYZE pgboss.job');
    const caps = new Map([[busy, 50]]);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const fetch = fairFetch({ limit: LIMIT });
      const statement = await fetchStatement({ ...fetch, endpointCaps: caps });
      const plan = await explainJson(client, statement, { analyze: true });
      const jobRows = planNodes(plan.Plan)
        .filter((node: PlanNode) => node['Relation Name']?.startsWith('job'))
        .reduce((sum, node) => sum + ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1), 0);
      expect(jobRows).toBeLessThanOrEqual(ROWS_PER_PAGE_ROW * LIMIT);
      expect(plan).not.toHaveProperty('JIT');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});

/** The statement fetchAttempts runs for `fetch`, as it sends it. */
async function fetchStatement(fetch: FairFetch): Promise<{ text: string; values: unknown[] }> {
  let sent: { text: string; values: unknown[] } | undefined;
  await fetchAttempts(
    {
      query: (async (config: { text: string; values: unknown[] }) => {
        sent = config;
        return { rows: [{ jobs: [], heldBack: false }] };
      }) as unknown as pg.Pool['query'],
    },
    fetch,
  );
  return sent!;
}
