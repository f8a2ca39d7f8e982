// The SQL statements an app's own pool runs (Prisma's and hand-written alike), recorded at the
// driver with their parameters, and their plans: every statement goes through pg.Client#query.
// Clients of other pools (pg-boss, the LISTEN connection, an admin client) are left out, so
// background work is not recorded.
import pg from 'pg';

export interface Statement {
  text: string;
  values: unknown[];
}

const recordedPools = new WeakSet<object>();
const poolClients = new WeakSet<object>();
let recording: Statement[] | null = null;
const originalQuery = pg.Client.prototype.query;
let patched = false;
const SESSION_SETTING = /^(SET|RESET) statement_timeout\b/;

function patchDriver(): void {
  if (patched) return;
  patched = true;
  (pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    if (recording && poolClients.has(this)) {
      const [first, second] = args as [string | { text?: string; values?: unknown[] }, unknown];
      const statement =
        typeof first === 'string'
          ? { text: first, values: Array.isArray(second) ? second : [] }
          : { text: String(first?.text), values: first?.values ?? [] };
      // A connection's session setting (the API's statement timeout, set once per connection as
      // it first serves a request): which connection a request gets, and so whether it runs,
      // depends on the pool, not on the work recorded.
      if (!SESSION_SETTING.test(statement.text)) recording.push(statement);
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  };
}

/** Records, from now on, what `pool`'s clients run while `statementsOf` is waiting. */
export function watchPool(pool: pg.Pool): void {
  patchDriver();
  if (recordedPools.has(pool)) return;
  recordedPools.add(pool);
  pool.on('acquire', (client) => poolClients.add(client));
}

/** Runs `work` and returns the statements the watched pools ran meanwhile (one `work` at a time). */
export async function statementsOf(work: () => Promise<unknown>): Promise<Statement[]> {
  if (recording) throw new Error('statementsOf is already recording');
  const statements: Statement[] = [];
  recording = statements;
  try {
    await work();
  } finally {
    recording = null;
  }
  return statements;
}

/** Whether EXPLAIN ANALYZE can run it without changing anything: a read. */
export function isRead(statement: Statement): boolean {
  return /^\s*(SELECT|WITH)\b/i.test(statement.text) && !/\b(INSERT|UPDATE|DELETE)\b|\bFOR (UPDATE|SHARE)\b/i.test(statement.text);
}

/** One node of a JSON plan, with the fields the checks read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  /** The partition's own name, where 'Relation Name' (or 'Index Name') names its partitioned parent. */
  'Partition Relation Name'?: string;
  'Partition Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

export interface ExplainedPlan {
  Plan: PlanNode;
  'Execution Time'?: number;
}

/**
 * EXPLAIN (FORMAT JSON) of `statement`, with ANALYZE and BUFFERS when asked. A partition's table
 * or index is named as its partitioned parent's (deliveries_2026_11 as deliveries): the checks
 * judge what a statement reads of a table, whichever of its months hold the rows.
 */
export async function explainJson(
  client: pg.ClientBase,
  statement: Statement,
  options: { analyze?: boolean } = {},
): Promise<ExplainedPlan> {
  const how = options.analyze ? 'ANALYZE, BUFFERS, FORMAT JSON' : 'FORMAT JSON';
  const { rows } = await client.query({ text: `EXPLAIN (${how}) ${statement.text}`, values: statement.values });
  const plan = (rows[0]['QUERY PLAN'] as ExplainedPlan[])[0]!;
  const parents = await partitionParents(client);
  for (const node of planNodes(plan.Plan)) {
    for (const key of ['Relation Name', 'Index Name'] as const) {
      const parent = node[key] && parents.get(node[key]);
      if (parent) [node[key], node[`Partition ${key}`]] = [parent, node[key]];
    }
  }
  return plan;
}

/** Each partition (table or index) of the public schema's partitioned tables, by name, with its root's name. */
async function partitionParents(client: pg.ClientBase): Promise<Map<string, string>> {
  const { rows } = await client.query<{ name: string; root: string }>(
    `SELECT c.relname AS name, r.relname AS root
     FROM pg_class c CROSS JOIN LATERAL pg_partition_root(c.oid) AS root_oid JOIN pg_class r ON r.oid = root_oid
     WHERE c.relispartition AND c.relnamespace = 'public'::regnamespace`,
  );
  return new Map(rows.map((row) => [row.name, row.root]));
}

/** EXPLAIN (ANALYZE, BUFFERS) of `statement` as text, as a person reads it. */
export async function explainText(client: pg.ClientBase, statement: Statement): Promise<string> {
  const { rows } = await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, values: statement.values });
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** Every node of a plan, depth first. */
export function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/** The rows a scan of `relation` read in all (returned plus removed by filters), over its loops. */
export function rowsRead(plan: ExplainedPlan, relation: string): number {
  return planNodes(plan.Plan)
    .filter((node) => node['Relation Name'] === relation)
    .reduce(
      (sum, node) =>
        sum +
        ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
          (node['Actual Loops'] ?? 1),
      0,
    );
}
