// Start-up migrations: applied once, in order, safely when several processes start at once,
// and recorded the way Prisma records them.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { FINGERPRINT_SQL } from '../bench/history-fingerprint.ts';
import { applyMigrations, readMigrations } from '../src/db/migrate.ts';
import type { TestDatabase } from './support/database.ts';
import { useHookline } from './support/fixture.ts';

const hookline = useHookline({ database: false });

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

async function recorded(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(
      `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    return result.rows;
  } finally {
    await client.end();
  }
}

/**
 * A new database with every migration before the one named `…_${name}` applied, and a client on
 * it: the shape that migration finds in an existing installation.
 */
async function databaseBefore(name: string): Promise<{ url: string; client: pg.Client }> {
  database = await hookline.createDatabase({ migrated: false });
  const migrations = await readMigrations();
  const index = migrations.findIndex((migration) => migration.name.endsWith(`_${name}`));
  expect(index).toBeGreaterThan(0);
  await applyMigrations(database.url, migrations.slice(0, index));
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return { url: database.url, client };
}

describe('applyMigrations', () => {
  it('applies every migration once when five processes start at the same moment', async () => {
    database = await hookline.createDatabase({ migrated: false });
    const migrations = await readMigrations();
    const results = await Promise.all(Array.from({ length: 5 }, () => applyMigrations(database!.url)));
    expect(results.filter((applied) => applied.length > 0)).toEqual([migrations.map((m) => m.name)]);
    expect(await recorded(database.url)).toEqual(
      migrations.map((m) => ({ migration_name: m.name, checksum: m.checksum, finished: true, applied_steps_count: 1 })),
    );
    expect(await applyMigrations(database.url)).toEqual([]);
  });

  it('rolls a failing migration back whole and refuses to go on', async () => {
    database = await hookline.createDatabase({ migrated: false });
    const broken = [{ name: '20990101000000_broken', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();', checksum: 'x' }];
    await expect(applyMigrations(database.url, broken)).rejects.toThrow(
      /Migration 20990101000000_broken failed: function no_such_function\(\) does not exist/,
    );
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const table = await client.query(`SELECT to_regclass('half_done') IS NULL AS absent`);
    await client.end();
    expect(table.rows[0].absent).toBe(true);
    expect(await recorded(database.url)).toEqual([]);
  });

  it('reports not ready on /readyz while migrations are pending, ready after', async () => {
    database = await hookline.createDatabase({ migrated: false });
    const running = await hookline.startApp({}, database.url);
    try {
      const pending = await fetch(`${running.baseUrl}/readyz`);
      expect(pending.status).toBe(503);
      expect(await pending.json()).toEqual({ status: 'unavailable', reason: expect.stringMatching(/^migrations pending: \d{14}_init/) });
      await applyMigrations(database.url);
      const ready = await fetch(`${running.baseUrl}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
      expect(await (await fetch(`${running.baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    } finally {
      await running.close();
    }
  });
});

describe('the incident workflow migration', () => {
  it('gives incidents recorded before it their opening, acknowledgement and resolution, by System or their alert source', async () => {
    const { url, client } = await databaseBefore('incident_workflow');
    try {
      const { rows: organizations } = await client.query(`INSERT INTO organizations (name) VALUES ('before') RETURNING id`);
      const organizationId = organizations[0].id;
      const { rows: services } = await client.query(`INSERT INTO services (organization_id, name) VALUES ($1, 'checkout') RETURNING id`, [
        organizationId,
      ]);
      const { rows: sources } = await client.query(
        `INSERT INTO alert_sources (organization_id, name, kind, token_prefix, token_hash)
         VALUES ($1, 'Prometheus', 'ALERTMANAGER', 'hlk_abcdefgh', 'hash') RETURNING id`,
        [organizationId],
      );
      const insertIncident = async (title: string, status: string, alertSourceId: string | null) =>
        (
          await client.query(
            `INSERT INTO incidents (organization_id, service_id, title, status, started_at, opened_at, acknowledged_at, resolved_at, alert_source_id)
             VALUES ($1, $2, $3, $4::"IncidentStatus", '2026-11-01T10:00:00Z', '2026-11-01T10:05:00Z',
                     CASE WHEN $4 = 'OPEN' THEN NULL ELSE '2026-11-01T10:10:00Z'::timestamptz END,
                     CASE WHEN $4 = 'RESOLVED' THEN '2026-11-01T11:00:00Z'::timestamptz END, $5)
             RETURNING id`,
            [organizationId, services[0].id, title, status, alertSourceId],
          )
        ).rows[0].id as string;
      const byHand = await insertIncident('By hand', 'RESOLVED', null);
      const byAlerts = await insertIncident('By alerts', 'OPEN', sources[0].id);

      await applyMigrations(url);

      const { rows: incidents } = await client.query(
        `SELECT title, acknowledged_by_kind, acknowledged_by_id, resolved_by_kind, resolved_by_id FROM incidents ORDER BY title`,
      );
      expect(incidents).toEqual([
        { title: 'By alerts', acknowledged_by_kind: null, acknowledged_by_id: null, resolved_by_kind: null, resolved_by_id: null },
        { title: 'By hand', acknowledged_by_kind: 'SYSTEM', acknowledged_by_id: null, resolved_by_kind: 'SYSTEM', resolved_by_id: null },
      ]);
      const { rows: activities } = await client.query(
        `SELECT incident_id, kind, at, actor_kind, actor_id FROM incident_activities ORDER BY incident_id = $1 DESC, at`,
        [byHand],
      );
      expect(activities).toEqual([
        { incident_id: byHand, kind: 'OPENED', at: new Date('2026-11-01T10:00:00Z'), actor_kind: 'SYSTEM', actor_id: null },
        { incident_id: byHand, kind: 'ACKNOWLEDGED', at: new Date('2026-11-01T10:10:00Z'), actor_kind: 'SYSTEM', actor_id: null },
        { incident_id: byHand, kind: 'RESOLVED', at: new Date('2026-11-01T11:00:00Z'), actor_kind: 'SYSTEM', actor_id: null },
        {
          incident_id: byAlerts,
          kind: 'OPENED',
          at: new Date('2026-11-01T10:00:00Z'),
          actor_kind: 'ALERT_SOURCE',
          actor_id: sources[0].id,
        },
      ]);
    } finally {
      await client.end();
    }
  });
});

describe('the attempts-by-endpoint migration', () => {
  it('gives every attempt kept before it its delivery’s endpoint, and then requires one', async () => {
    const { url, client } = await databaseBefore('delivery_attempts_by_endpoint');
    try {
      const { rows } = await client.query(
        `WITH o AS (INSERT INTO organizations (name) VALUES ('before') RETURNING id),
         e AS (INSERT INTO webhook_endpoints (organization_id, url, name, signing_secret, event_types)
               SELECT o.id, 'https://hooks.example.test/' || n, 'endpoint ' || n, 'whsec_x', '{}' FROM o, generate_series(1, 2) n
               RETURNING id, organization_id),
         ev AS (INSERT INTO events (organization_id, type, data) SELECT id, 'test.ping', '{}' FROM o RETURNING id, organization_id),
         d AS (INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count)
               SELECT e.organization_id, ev.id, e.id, 'test.ping', 'FAILED', 2 FROM e JOIN ev USING (organization_id)
               RETURNING id, endpoint_id)
         SELECT id, endpoint_id FROM d`,
      );
      await client.query(
        `INSERT INTO delivery_attempts (delivery_id, number, succeeded, started_at, duration_ms, response_status)
         SELECT d, n, false, now(), 10 * n, 503 FROM unnest($1::uuid[]) d, generate_series(1, 2) n`,
        [rows.map((row) => row.id)],
      );

      await applyMigrations(url);

      const { rows: attempts } = await client.query(
        `SELECT a.delivery_id, a.number, a.endpoint_id FROM delivery_attempts a ORDER BY a.delivery_id, a.number`,
      );
      expect(attempts).toEqual(
        rows
          .toSorted((a, b) => (a.id < b.id ? -1 : 1))
          .flatMap((delivery) => [1, 2].map((number) => ({ delivery_id: delivery.id, number, endpoint_id: delivery.endpoint_id }))),
      );
      await expect(
        client.query(
          `INSERT INTO delivery_attempts (delivery_id, number, succeeded, started_at, duration_ms) VALUES ($1, 3, false, now(), 5)`,
          [rows[0].id],
        ),
      ).rejects.toThrow(/null value in column "endpoint_id"/);
    } finally {
      await client.end();
    }
  });
  it('moves webhook history into monthly partitions without losing or changing a row', async () => {
    const { url, client } = await databaseBefore('history_partitioned_by_month');
    try {
      // Two organizations, two endpoints each; 40 events over the last 14 months, each delivered to
      // both endpoints (one statement writes an event and its deliveries: they share created_at),
      // two attempts each; the newest deliveries still PENDING.
      await client.query(`
        WITH o AS (INSERT INTO organizations (name) SELECT 'before ' || n FROM generate_series(1, 2) n RETURNING id)
        INSERT INTO webhook_endpoints (organization_id, url, name, signing_secret, event_types)
        SELECT o.id, 'https://hooks.example.test/' || n, 'endpoint ' || n, 'whsec_x', '{}' FROM o, generate_series(1, 2) n`);
      await client.query(`
        WITH ev AS (
          INSERT INTO events (organization_id, type, data, example, created_at)
          SELECT o.id, 'deploy.ingested', jsonb_build_object('n', g), g % 7 = 0, now() - g * interval '10 days' - g * interval '1 millisecond'
          FROM generate_series(1, 40) g CROSS JOIN LATERAL (SELECT id FROM organizations ORDER BY name OFFSET g % 2 LIMIT 1) o
          RETURNING id, organization_id, type, created_at
        ), d AS (
          INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count, next_attempt_at, last_attempt_at,
                                  response_classes, created_at, updated_at)
          SELECT ev.organization_id, ev.id, e.id, ev.type, CASE WHEN ev.created_at > now() - interval '15 days' THEN 'PENDING' ELSE 'FAILED' END::"DeliveryStatus",
                 2, NULL, ev.created_at + interval '1 minute', '{SERVER_ERROR}', ev.created_at, ev.created_at + interval '2 minutes'
          FROM ev JOIN webhook_endpoints e USING (organization_id)
          RETURNING id, endpoint_id, created_at
        )
        INSERT INTO delivery_attempts (delivery_id, endpoint_id, number, succeeded, started_at, duration_ms, response_status, response_body, request_headers)
        SELECT d.id, d.endpoint_id, n, false, d.created_at + n * interval '30 seconds', 10 * n, 503, 'down ' || n, '{"webhook-id": "x"}'
        FROM d CROSS JOIN generate_series(1, 2) n`);
      const fingerprint = async () => (await client.query(FINGERPRINT_SQL)).rows;
      const before = await fingerprint();
      expect(before.map((table) => table.rows)).toEqual([40, 80, 160]);
      // Attempts queued before (pg-boss's job table, as far as the migration reads it): a waiting
      // one and a finished one of the newest delivery.
      const [newest] = (await client.query(`SELECT id, created_at FROM deliveries ORDER BY created_at DESC, id LIMIT 1`)).rows;
      await client.query(`
        CREATE SCHEMA pgboss;
        CREATE TYPE pgboss.job_state AS ENUM ('created', 'retry', 'active', 'completed', 'cancelled', 'failed');
        CREATE TABLE pgboss.job (name text NOT NULL, state pgboss.job_state NOT NULL, data jsonb)`);
      await client.query(
        `INSERT INTO pgboss.job (name, state, data) VALUES
           ('deliver', 'created', jsonb_build_object('deliveryId', $1::uuid, 'attempt', 3)),
           ('deliver', 'completed', jsonb_build_object('deliveryId', $1::uuid, 'attempt', 2))`,
        [newest.id],
      );

      await applyMigrations(url);

      expect(await fingerprint()).toEqual(before);
      // The waiting job names its delivery by (id, created_at) now, as the worker reads it.
      expect((await client.query(`SELECT state, data FROM pgboss.job ORDER BY state`)).rows).toEqual([
        { state: 'created', data: { deliveryId: newest.id, attempt: 3, deliveryCreatedAt: newest.created_at.toISOString() } },
        { state: 'completed', data: { deliveryId: newest.id, attempt: 2 } },
      ]);
      // Every row is in its month's partition (none in a default one), and the months reach two ahead.
      const { rows: placed } = await client.query(`
        SELECT 'events' AS t, tableoid::regclass::text AS partition, to_char(created_at AT TIME ZONE 'UTC', 'YYYY_MM') AS month FROM events
        UNION ALL SELECT 'deliveries', tableoid::regclass::text, to_char(created_at AT TIME ZONE 'UTC', 'YYYY_MM') FROM deliveries
        UNION ALL SELECT 'delivery_attempts', tableoid::regclass::text, to_char(delivery_created_at AT TIME ZONE 'UTC', 'YYYY_MM') FROM delivery_attempts`);
      expect(placed.filter((row) => row.partition !== `${row.t}_${row.month}`)).toEqual([]);
      const { rows: ahead } = await client.query(
        `SELECT to_regclass('deliveries_' || to_char((now() AT TIME ZONE 'UTC') + interval '2 months', 'YYYY_MM')) IS NOT NULL AS made`,
      );
      expect(ahead).toEqual([{ made: true }]);
      // Each attempt has its delivery's created_at; a delivery must be made at its event's time.
      const { rows: mismatched } = await client.query(
        `SELECT count(*)::int AS n FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE a.delivery_created_at <> d.created_at`,
      );
      expect(mismatched).toEqual([{ n: 0 }]);
      await expect(
        client.query(
          `INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, created_at)
           SELECT d.organization_id, d.event_id, d.endpoint_id, d.event_type, d.created_at + interval '1 second' FROM deliveries d LIMIT 1`,
        ),
      ).rejects.toThrow(/deliveries_event_id_created_at_fkey/);
    } finally {
      await client.end();
    }
  });
});
