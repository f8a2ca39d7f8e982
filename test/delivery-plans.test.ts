// The statements of a delivery's attempts read and write only its month's partitions of
// deliveries and events, however many months are kept. They name the deliveries they touch by
// (id, created_at); where those come in rows of the statement's own (unnest, a CTE), PostgreSQL
// would otherwise plan, and probe for every row, each month's partition: a year kept made every
// recorded attempt plan fifteen partitions with seven indexes each. Here a year of months exists
// (empty: what a plan names does not depend on the rows), one delivery is retried and then
// succeeds, and each statement the worker ran for it is explained.
import { beforeAll, describe, expect, it } from 'vitest';
import { listenForDeliveryChanges } from '../src/delivery/notifications.ts';
import { cancelDeliveries, deferDeliveries } from '../src/delivery/store.ts';
import { deliveryAsOf } from '../src/domain/webhooks/deliveries.ts';
import type { DeliveryChange } from '../src/domain/webhooks/delivery-changes.ts';
import { HISTORY_TABLES, makeHistoryMonths } from '../src/domain/webhooks/retention.ts';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { explainJson, planNodes, statementsOf, watchPool, type Statement } from './support/statements.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, ingest } from './support/operations.ts';
import { eventually } from './support/receiver.ts';

const hookline = useHookline({ receiver: true, environment: { ...LOCAL_RECEIVERS, DELIVERY_BACKOFF_BASE_MS: '20' } });
const historyTables: readonly string[] = HISTORY_TABLES;

/**
 * The partitions of webhook history a statement's plan scans (an update's or delete's targets
 * are the rows its scans find; an insert routes each row to its month as it runs).
 */
async function partitionsPlanned(statement: Statement): Promise<string[]> {
  const client = await hookline.app.database.pool.connect();
  const plan = await explainJson(client, statement).finally(() => client.release());
  const partitions = planNodes(plan.Plan)
    .filter((node) => node['Node Type'] !== 'ModifyTable' && historyTables.includes(String(node['Relation Name'])))
    .map((node) => String(node['Partition Relation Name'] ?? node['Relation Name']));
  return [...new Set(partitions)].sort();
}

let statements: Statement[];
let delivery: { id: string; createdAt: Date; month: string };

beforeAll(async () => {
  const { pool } = hookline.app.database;
  const now = new Date();
  await makeHistoryMonths(pool, new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), 1)), now);
  await createEndpoint(hookline, hookline.tenant.apiToken, { url: `${hookline.receiver.url}/plans`, name: 'Plans' });
  // The first attempt fails (a retry is recorded and queued), the second succeeds.
  let answered = 0;
  hookline.receiver.respond((_request, response) => {
    answered += 1;
    response.writeHead(answered === 1 ? 503 : 200).end();
  });
  watchPool(pool);
  statements = await statementsOf(async () => {
    await ingest(hookline, hookline.tenant.deployToken, { commit_sha: 'a1b2c3d' });
    await eventually(async () => {
      const { rows } = await pool.query(`SELECT 1 FROM deliveries WHERE status = 'SUCCEEDED'`);
      return rows[0];
    });
  });
  const { rows } = await pool.query<{ id: string; created_at: Date; month: string }>(
    `SELECT id, created_at, to_char(created_at AT TIME ZONE 'UTC', 'YYYY_MM') AS month FROM deliveries`,
  );
  delivery = { id: rows[0]!.id, createdAt: rows[0]!.created_at, month: rows[0]!.month };
});

/** The first statement the worker ran whose text matches `marker`. */
function ranStatement(marker: RegExp): Statement {
  const matching = statements.filter((statement) => marker.test(statement.text));
  expect(matching.length, `statements matching ${marker}`).toBeGreaterThan(0);
  return matching[0]!;
}

describe('an attempt’s statements plan only its delivery’s month', () => {
  const ofItsMonth = () => [`deliveries_${delivery.month}`, `events_${delivery.month}`];

  it('reads the delivery and its event for the attempt (the worker’s batch read)', async () => {
    const load = ranStatement(/rate_limit_next_slot_at/);
    expect(await partitionsPlanned(load)).toEqual(ofItsMonth());
  });

  it('records a failed attempt with a retry, and the success that follows', async () => {
    const retry = ranStatement(/next_attempt_at = i\.next_attempt_at/);
    expect(await partitionsPlanned(retry)).toEqual([`deliveries_${delivery.month}`]);
    const success = ranStatement(/SET status = 'SUCCEEDED'/);
    expect(await partitionsPlanned(success)).toEqual([`deliveries_${delivery.month}`]);
  });

  it('reads the owners of the retry it queues', async () => {
    const owners = ranStatement(/AS "organizationId"\s+FROM deliveries/);
    expect(await partitionsPlanned(owners)).toEqual([`deliveries_${delivery.month}`]);
  });

  it('defers a delivery to its rate limit’s turn, and cancels one whose endpoint stopped', async () => {
    const key = { deliveryId: delivery.id, deliveryCreatedAt: delivery.createdAt };
    const deferred = deferDeliveries([{ ...key, startAfter: new Date() }]);
    expect(await partitionsPlanned({ text: deferred.text, values: deferred.values })).toEqual([`deliveries_${delivery.month}`]);
    const cancelled = cancelDeliveries([key, key]);
    expect(await partitionsPlanned({ text: cancelled.text, values: cancelled.values })).toEqual([`deliveries_${delivery.month}`]);
  });

  it('loads a delivery and its attempts as a live change (a subscription’s update) names it', async () => {
    const changes = await listenForDeliveryChanges(hookline.database.url, { warn: () => {} });
    hookline.onClose(() => changes.close());
    const seen: DeliveryChange[] = [];
    changes.watch((change) => seen.push(change));
    // A change as the recorder makes one: the trigger on deliveries notifies every process.
    await hookline.app.database.pool.query('UPDATE deliveries SET attempt_count = attempt_count + 1 WHERE id = $1', [delivery.id]);
    const change = await eventually(async () => seen.find((candidate) => candidate.id === delivery.id));
    const loads = await statementsOf(() => deliveryAsOf(hookline.app.database.prisma, change, { include: { attempts: true } }));
    const planned = await Promise.all(loads.map(partitionsPlanned));
    expect(planned.filter((partitions) => partitions.length > 0)).toEqual([
      [`deliveries_${delivery.month}`],
      [`delivery_attempts_${delivery.month}`],
    ]);
  });
});
