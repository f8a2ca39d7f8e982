// A year of a busy customer base, written with set-based SQL (generate_series) straight into the
// tables: about 100 organizations, 2,000 services, 500 endpoints and 5,000 incidents whatever the
// size; deploys (3 commits each), change events, events, deliveries (2 per event) and attempts
// (about 2 per delivery) by size. The first organization is the one queried: it holds 12 % of
// everything, its first service is the busiest (0.7 % of all deploys, with a rollback every 50
// of its deploys) and its first endpoint takes 14 % of its deliveries.
//
// Ids are derived from the row's number (md5 → uuid), so every table refers to the others
// without a lookup. Times spread evenly over the last 365 days, in the row's order.

import type pg from 'pg';
import { foldDueDoraFigures, judgeDueRollbacks } from '../src/domain/correlation/rollback-judgement.ts';

/** The queried organization's busiest service and endpoint (the first ones). */
export const BUSY_SERVICE_ID_SQL = `md5('service' || 1)::uuid`;
export const BUSY_ENDPOINT_ID_SQL = `md5('endpoint' || 1)::uuid`;

/**
 * The second shape (`concentrated`): the year of the first one plus, whatever the size, a few
 * crowded places a dashboard opens: HOT_SERVICES services of the queried organization with
 * HOT_SERVICE_DEPLOYS deploys each over the year (a tenth of them without an environment), one
 * endpoint of it with HOT_ENDPOINT_DELIVERIES deliveries over the last 14 days, and
 * SUSPECTS_PER_INCIDENT suspects for every incident of every organization (90k in all). At every
 * size these places hold the same rows: what grows is everything around them.
 */
export type GrowthShape = 'spread' | 'concentrated';
export const GROWTH_SHAPES: readonly GrowthShape[] = ['spread', 'concentrated'];
export const HOT_SERVICES = 4;
export const HOT_SERVICE_DEPLOYS = 12_000;
export const HOT_ENDPOINT_DELIVERIES = 7_000;
export const SUSPECTS_PER_INCIDENT = 18;
const HOT_SERVICE_ID_SQL = `md5('hot service' || 1)::uuid`;
const HOT_ENDPOINT_ID_SQL = `md5('hot endpoint' || 1)::uuid`;

/** SQL: the ids the queries of a shape ask for (a service, an endpoint, and the service's latest deploy). */
export function queriedIdsSql(shape: GrowthShape): string {
  const serviceId = shape === 'spread' ? BUSY_SERVICE_ID_SQL : HOT_SERVICE_ID_SQL;
  const endpointId = shape === 'spread' ? BUSY_ENDPOINT_ID_SQL : HOT_ENDPOINT_ID_SQL;
  return `SELECT ${serviceId}::text AS "serviceId", ${endpointId}::text AS "endpointId",
    (SELECT id::text FROM deploys WHERE service_id = ${serviceId} ORDER BY deployed_at DESC, id DESC LIMIT 1) AS "deployId"`;
}

export interface GrowthSize {
  name: string;
  deploys: number;
  deliveries: number;
}

export const SIZES: Record<string, GrowthSize> = {
  S: { name: 'S', deploys: 10_000, deliveries: 50_000 },
  M: { name: 'M', deploys: 200_000, deliveries: 1_000_000 },
  L: { name: 'L', deploys: 1_000_000, deliveries: 5_000_000 },
};

export const ORGANIZATIONS = 100;
export const SERVICES = 2000;
export const ENDPOINTS = 500;
export const INCIDENTS = 5000;
/** Services, endpoints of the queried organization (the first ones). */
const QUERIED_SERVICES = 240;
const QUERIED_ENDPOINTS = 60;
/** Every BUSY_EVERY-th deploy is of the busiest service. */
const BUSY_EVERY = 143;
/** Every ROLLBACK_EVERY-th deploy of the busiest service redeploys the one ROLLBACK_DEPTH before it in its environment. */
const ROLLBACK_EVERY = 50;
const ROLLBACK_DEPTH = 5;

/** The uuid of row `n` of `kind` (the queried organization's id comes from the app: $1). */
const id = (kind: string, n: string) => `md5('${kind}' || ${n})::uuid`;
const organizationId = (n: string) => `CASE WHEN ${n} = 0 THEN $1::uuid ELSE ${id('organization', n)} END`;
/** Organization number of service or endpoint `n` (1-based), the queried one (0) holding the first `queried`. */
const ownerOf = (n: string, queried: number) =>
  `(CASE WHEN ${n} <= ${queried} THEN 0 ELSE 1 + (${n} - ${queried + 1}) % ${ORGANIZATIONS - 1} END)`;
/** Organization number of row `g` of a spread table (events, incidents): 12 % the queried one. */
const spreadOwner = (g: string) => `(CASE WHEN ${g} % 100 < 12 THEN 0 ELSE 1 + ${g} % ${ORGANIZATIONS - 1} END)`;
/** When row `g` of `count` happened: evenly over the last year, oldest first. */
const at = (g: string, count: string) => `(now() - (1 - ${g}::float8 / ${count}) * interval '365 days')`;
/** The type of event `g` (and of its deliveries). */
const EVENT_TYPE = `CASE WHEN g % 10 < 8 THEN 'deploy.ingested' WHEN g % 10 = 8 THEN 'incident.opened' ELSE 'incident.resolved' END`;
/** Service number of deploy or change `g`: the busiest one, or spread over all. */
const serviceOf = (g: string) => `(CASE WHEN ${g} % ${BUSY_EVERY} = 0 THEN 1 ELSE 1 + (${g}::bigint * 7919) % ${SERVICES} END)`;

/** Fills an empty migrated database; the queried organization is made by the caller (the app). */
export async function fillDatabase(
  client: pg.ClientBase,
  size: GrowthSize,
  organizationId: string,
  log: (line: string) => void = () => {},
  shape: GrowthShape = 'spread',
): Promise<void> {
  await client.query(`SET synchronous_commit = off; SET maintenance_work_mem = '256MB'`);
  // Every statement's now() is this one instant: an event and its deliveries, written by separate
  // statements, share their created_at (a delivery references its event by (id, created_at)).
  const now = `'${new Date().toISOString()}'::timestamptz`;
  for (const { label, sql } of [...growthStatements(size), ...(shape === 'concentrated' ? concentratedStatements() : [])]) {
    const started = performance.now();
    // Multi-statement strings run as a simple query, which takes no parameters.
    await client.query(sql.replaceAll('$1::uuid', `'${organizationId}'::uuid`).replaceAll('now()', now));
    log(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  const started = performance.now();
  await catchUpAfterIngest(client);
  log(`worker's pass after ingest (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  await client.query('VACUUM (ANALYZE)');
}

/** What a worker process does after ingest: the app that reads these databases runs as an api. */
export async function catchUpAfterIngest(client: pg.ClientBase): Promise<void> {
  await judgeDueRollbacks(client);
  await foldDueDoraFigures(client);
}

/** The statements that fill an empty migrated database ($1: the queried organization). */
function growthStatements(size: GrowthSize): { label: string; sql: string }[] {
  const deploys = size.deploys;
  const events = size.deliveries / 2;
  const changes = Math.round(deploys / 10);
  return [
    {
      label: 'organizations, services, tokens, endpoints',
      sql: `
INSERT INTO organizations (id, name) SELECT ${id('organization', 'n')}, 'organization ' || n FROM generate_series(1, ${ORGANIZATIONS - 1}) n;
INSERT INTO services (id, organization_id, name)
  SELECT ${id('service', 'n')}, ${organizationId(ownerOf('n', QUERIED_SERVICES))}, 'service-' || n FROM generate_series(1, ${SERVICES}) n;
INSERT INTO deploy_tokens (id, service_id, prefix, token_hash)
  SELECT ${id('token', 'n')}, ${id('service', 'n')}, 'hld_' || left(md5('p' || n), 6), md5('token' || n) FROM generate_series(1, ${SERVICES}) n;
INSERT INTO webhook_endpoints (id, organization_id, url, name, signing_secret, event_types)
  SELECT ${id('endpoint', 'n')}, ${organizationId(ownerOf('n', QUERIED_ENDPOINTS))}, 'https://hooks.example.com/' || n, 'endpoint ' || n,
         'whsec_' || md5('secret' || n), '{}' FROM generate_series(1, ${ENDPOINTS}) n;`,
    },
    {
      label: `${deploys} deploys`,
      sql: `
INSERT INTO deploys (id, organization_id, service_id, deploy_token_id, commit_sha, commit_message, branch, deployed_by, environment, version, url, deployed_at, received_at)
SELECT ${id('deploy', 'g')}, ${organizationId(ownerOf('s', QUERIED_SERVICES))}, ${id('service', 's')}, ${id('token', 's')},
       md5(restored::text), 'Change number ' || restored, 'main', 'dev-' || g % 40,
       CASE WHEN g % 5 < 3 THEN 'production' ELSE 'staging' END, 'v' || restored, 'https://ci.example.com/runs/' || g, ${at('g', String(deploys))}, ${at('g', String(deploys))}
FROM generate_series(1, ${deploys}) g
CROSS JOIN LATERAL (SELECT ${serviceOf('g')} AS s,
  CASE WHEN g % ${BUSY_EVERY * ROLLBACK_EVERY} = 0 THEN g - ${BUSY_EVERY * ROLLBACK_DEPTH} ELSE g END AS restored) x;`,
    },
    {
      label: `${deploys * 3} commits`,
      sql: `
INSERT INTO commits (deploy_id, position, sha, message, author, timestamp)
SELECT ${id('deploy', 'g')}, p, md5(g || '.' || p), 'Commit ' || p || ' of change ' || g, 'dev-' || (g + p) % 40,
       ${at('g', String(deploys))} - ((p + 1) * 3 + g % 7) * interval '1 hour'
FROM generate_series(1, ${deploys}) g CROSS JOIN generate_series(0, 2) p;`,
    },
    {
      label: `${changes} change events`,
      sql: `
INSERT INTO change_events (id, organization_id, service_id, deploy_token_id, kind, summary, environment, changed_at, received_at)
SELECT ${id('change', 'g')}, ${organizationId(ownerOf('s', QUERIED_SERVICES))}, ${id('service', 's')}, ${id('token', 's')},
       'feature_flag', 'flag-' || g % 300 || ': on for ' || g % 100 || ' %', 'production', ${at('g', String(changes))}, ${at('g', String(changes))}
FROM generate_series(1, ${changes}) g CROSS JOIN LATERAL (SELECT ${serviceOf('g * 10')} AS s) x;`,
    },
    {
      label: `${events} events`,
      sql: `
-- The months of the year of webhook history (the migration made this one and those ahead).
SELECT hookline_history_partition(t, m::date)
FROM unnest(ARRAY['events', 'deliveries', 'delivery_attempts']) t,
     generate_series(date_trunc('month', (now() - interval '365 days') AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') m;
INSERT INTO events (id, organization_id, type, data, created_at)
SELECT ${id('event', 'g')}, ${organizationId(spreadOwner('g'))},
       ${EVENT_TYPE},
       jsonb_build_object('deploy', jsonb_build_object('id', ${id('deploy', 'g')}, 'commit_sha', md5(g::text), 'environment', 'production',
         'version', 'v' || g, 'url', 'https://ci.example.com/runs/' || g, 'deployed_by', 'dev-' || g % 40,
         'commits', jsonb_build_array(jsonb_build_object('sha', md5(g || '.0'), 'message', 'Commit 0 of change ' || g))),
         'service', jsonb_build_object('id', ${id('service', 'g % 2000 + 1')}, 'name', 'service-' || g % 2000)),
       ${at('g', String(events))}
FROM generate_series(1, ${events}) g;`,
    },
    {
      label: `${size.deliveries} deliveries`,
      sql: `
-- The answer of attempt n of a delivery (its last one succeeds when the delivery did).
CREATE FUNCTION pg_temp.attempt_status(delivery uuid, n int, status text, attempts int) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status = 'SUCCEEDED' AND n = attempts THEN 200 ELSE (ARRAY[500, 503, NULL, 404])[1 + (abs(hashtext(delivery::text)) + n) % 4] END
$$;
INSERT INTO deliveries (id, organization_id, event_id, endpoint_id, event_type, status, attempt_count, next_attempt_at, last_attempt_at,
                        response_classes, created_at, updated_at)
SELECT ${id('delivery', "g || '.' || k")}, ${organizationId('o')}, ${id('event', 'g')}, ${id('endpoint', 'e')}, ${EVENT_TYPE}, status::"DeliveryStatus",
       attempts, CASE WHEN status = 'PENDING' THEN created + interval '1 hour' END, created + interval '1 minute',
       (SELECT array_agg(DISTINCT response_status_class(pg_temp.attempt_status(${id('delivery', "g || '.' || k")}, n, status, attempts)))
        FROM generate_series(1, attempts) n),
       created, created + interval '1 minute'
FROM generate_series(1, ${events}) g CROSS JOIN generate_series(1, 2) k
CROSS JOIN LATERAL (SELECT ${spreadOwner('g')} AS o, ${at('g', String(events))} AS created,
  CASE WHEN (g * 13 + k * 7) % 200 = 0 THEN 'PENDING' WHEN (g * 13 + k * 7) % 100 < 7 THEN 'FAILED' ELSE 'SUCCEEDED' END AS status) x
CROSS JOIN LATERAL (SELECT
  CASE WHEN o = 0 THEN (CASE WHEN k = 1 AND g % 4 = 0 THEN 1 ELSE 1 + (g * 31 + k) % ${QUERIED_ENDPOINTS} END)
       ELSE ${QUERIED_ENDPOINTS + 1} + (o - 1) + ${ORGANIZATIONS - 1} * ((g + k) % 4) END AS e,
  CASE WHEN status = 'FAILED' THEN 6 WHEN status = 'PENDING' THEN 1 WHEN (g + k) % 10 < 7 THEN 1 WHEN (g + k) % 10 < 9 THEN 3 ELSE 4 END AS attempts) y;`,
    },
    {
      label: 'attempts',
      sql: `
INSERT INTO delivery_attempts (delivery_id, delivery_created_at, endpoint_id, number, succeeded, started_at, duration_ms, response_status, response_body)
SELECT d.id, d.created_at, d.endpoint_id, n, d.status = 'SUCCEEDED' AND n = d.attempt_count, d.created_at + n * interval '10 seconds', 40 + n * 13 % 200,
       pg_temp.attempt_status(d.id, n, d.status::text, d.attempt_count),
       CASE WHEN d.status = 'SUCCEEDED' AND n = d.attempt_count THEN '{"ok":true}' ELSE 'upstream unavailable' END
FROM deliveries d CROSS JOIN generate_series(1, d.attempt_count) n;`,
    },
    {
      label: `${INCIDENTS} incidents and their top suspects`,
      sql: `
INSERT INTO incidents (id, organization_id, service_id, title, severity, environment, status, started_at, opened_at, resolved_at)
SELECT ${id('incident', 'n')}, ${organizationId('o')}, ${id('service', 's')}, 'Incident ' || n, 'SEV3', 'production',
       CASE WHEN n % 20 = 0 THEN 'OPEN' ELSE 'RESOLVED' END::"IncidentStatus", started, started,
       CASE WHEN n % 20 = 0 THEN NULL ELSE started + (1 + n % 10) * interval '1 hour' END
FROM generate_series(1, ${INCIDENTS}) n
CROSS JOIN LATERAL (SELECT ${spreadOwner('n')} AS o, ${at('n', String(INCIDENTS))} AS started) x
CROSS JOIN LATERAL (SELECT CASE WHEN o = 0 THEN 1 + n % ${QUERIED_SERVICES}
                                ELSE ${QUERIED_SERVICES + 1} + (o - 1) + ${ORGANIZATIONS - 1} * (n % 17) END AS s) y;
INSERT INTO incident_suspects (incident_id, deploy_id, rank, score, reasons)
SELECT i.id, d.id, 1, 0.8, '[]'::jsonb FROM incidents i
CROSS JOIN LATERAL (SELECT id FROM deploys WHERE service_id = i.service_id AND environment = i.environment AND deployed_at <= i.started_at
                    ORDER BY deployed_at DESC LIMIT 1) d;`,
    },
  ];
}

/** The crowded places of the `concentrated` shape, added to a filled year ($1: the queried organization). */
function concentratedStatements(): { label: string; sql: string }[] {
  const deploys = HOT_SERVICES * HOT_SERVICE_DEPLOYS;
  const hotDeploy = (g: string) => id('hot deploy', g);
  return [
    {
      label: `${HOT_SERVICES} services with ${HOT_SERVICE_DEPLOYS} deploys each, and an endpoint`,
      sql: `
INSERT INTO services (id, organization_id, name) SELECT ${id('hot service', 'n')}, $1::uuid, 'hot-service-' || n FROM generate_series(1, ${HOT_SERVICES}) n;
INSERT INTO deploy_tokens (id, service_id, prefix, token_hash)
  SELECT ${id('hot token', 'n')}, ${id('hot service', 'n')}, 'hld_' || left(md5('hot p' || n), 6), md5('hot token' || n) FROM generate_series(1, ${HOT_SERVICES}) n;
INSERT INTO webhook_endpoints (id, organization_id, url, name, signing_secret, event_types)
  VALUES (${HOT_ENDPOINT_ID_SQL}, $1::uuid, 'https://hooks.example.com/hot', 'hot endpoint', 'whsec_' || md5('hot secret'), '{}');
INSERT INTO deploys (id, organization_id, service_id, deploy_token_id, commit_sha, commit_message, branch, deployed_by, environment, version, url, deployed_at, received_at)
SELECT ${hotDeploy('g')}, $1::uuid, ${id('hot service', 's')}, ${id('hot token', 's')}, md5('hot ' || g), 'Hot change ' || g, 'main', 'dev-' || g % 40,
       CASE WHEN g % 10 = 0 THEN NULL WHEN g % 10 < 6 THEN 'production' ELSE 'staging' END, 'hv' || g,
       'https://ci.example.com/hot/' || g, ${at('g', String(deploys))}, ${at('g', String(deploys))}
FROM generate_series(1, ${deploys}) g CROSS JOIN LATERAL (SELECT 1 + g % ${HOT_SERVICES} AS s) x;
INSERT INTO commits (deploy_id, position, sha, message, author, timestamp)
SELECT ${hotDeploy('g')}, 0, md5('hot ' || g || '.0'), 'Hot commit of change ' || g, 'dev-' || g % 40,
       ${at('g', String(deploys))} - (3 + g % 7) * interval '1 hour'
FROM generate_series(1, ${deploys}) g;`,
    },
    {
      label: `${HOT_ENDPOINT_DELIVERIES} deliveries to one endpoint in 14 days`,
      sql: `
INSERT INTO events (id, organization_id, type, data, created_at)
SELECT ${id('hot event', 'g')}, $1::uuid, 'deploy.ingested', '{}'::jsonb, now() - (1 - g::float8 / ${HOT_ENDPOINT_DELIVERIES}) * interval '14 days'
FROM generate_series(1, ${HOT_ENDPOINT_DELIVERIES}) g;
INSERT INTO deliveries (id, organization_id, event_id, endpoint_id, event_type, status, attempt_count, next_attempt_at, last_attempt_at,
                        response_classes, created_at, updated_at)
SELECT ${id('hot delivery', 'g')}, $1::uuid, ${id('hot event', 'g')}, ${HOT_ENDPOINT_ID_SQL}, 'deploy.ingested',
       CASE WHEN g % 10 = 0 THEN 'FAILED' ELSE 'SUCCEEDED' END::"DeliveryStatus", CASE WHEN g % 10 = 0 THEN 3 ELSE 1 + g % 2 END, NULL,
       created + interval '1 minute', CASE WHEN g % 10 = 0 THEN '{SERVER_ERROR}' ELSE '{SUCCESS}' END::text[], created, created + interval '1 minute'
FROM generate_series(1, ${HOT_ENDPOINT_DELIVERIES}) g
CROSS JOIN LATERAL (SELECT now() - (1 - g::float8 / ${HOT_ENDPOINT_DELIVERIES}) * interval '14 days' AS created) x;
INSERT INTO delivery_attempts (delivery_id, delivery_created_at, endpoint_id, number, succeeded, started_at, duration_ms, response_status, response_body)
SELECT d.id, d.created_at, d.endpoint_id, n, d.status = 'SUCCEEDED' AND n = d.attempt_count, d.created_at + n * interval '10 seconds', 40 + n * 13 % 200,
       CASE WHEN d.status = 'SUCCEEDED' AND n = d.attempt_count THEN 200 ELSE 503 END, NULL
FROM deliveries d CROSS JOIN generate_series(1, d.attempt_count) n WHERE d.endpoint_id = ${HOT_ENDPOINT_ID_SQL};`,
    },
    {
      label: `${SUSPECTS_PER_INCIDENT} suspects per incident`,
      sql: `
INSERT INTO incident_suspects (incident_id, deploy_id, rank, score, reasons)
SELECT i.id, d.id, 1 + d.n, 0.5 / (1 + d.n), '[]'::jsonb FROM incidents i
CROSS JOIN LATERAL (SELECT id, row_number() OVER (ORDER BY deployed_at DESC) AS n FROM deploys
                    WHERE organization_id = i.organization_id AND deployed_at <= i.started_at AND service_id <> i.service_id
                    ORDER BY deployed_at DESC LIMIT ${SUSPECTS_PER_INCIDENT - 1}) d;`,
    },
  ];
}
