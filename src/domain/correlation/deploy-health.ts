// Deploy health: what a deploy's service went through in the hour after it, against the hour
// before: the alerts that started (routed to an incident of the service) and the incidents that
// started, of the deploy's environment (its spellings and aliases) or of none. A deploy followed
// by alerts its service did not have before is the one to look at first; one followed by as many
// as before did not change much.
//
// The ranking of an incident reads it too (suspects.ts, trouble after a deploy), cut at the
// incident's start: the hour after a deploy, or the time from it to the incident when shorter,
// against as long before. So the incident never counts for itself: it starts at that cut, and so
// do its alerts (one that began earlier moves its start back).
//
// Bounded by index whatever the history (a year is about a million deploys): each deploy reads
// the organization's incidents and alerts of its two hours (incidents and alerts by
// organization and start), never the service's whole history; the deploys asked come by id.
import sql from 'sql-template-tag';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';

type Db = PrismaClient | Prisma.TransactionClient;

/** The hour after a deploy, and the hour before it to compare with. */
export const HEALTH_WINDOW_MS = 60 * 60 * 1000;

/** At most this many deploys per statement (a page of deploys is 100 at most). */
export const MAX_HEALTH_DEPLOYS = 100;

export interface HealthCounts {
  alerts: number;
  incidents: number;
}

export interface DeployHealth {
  before: HealthCounts;
  after: HealthCounts;
}

interface HealthRow {
  id: string;
  alertsBefore: number;
  alertsAfter: number;
  incidentsBefore: number;
  incidentsAfter: number;
}

/**
 * The health of each deploy of `deployIds` (of the organization; others are left out), in one
 * statement: [deployedAt − 1 h, deployedAt) against [deployedAt, deployedAt + 1 h). With `until`
 * (an incident's start), the hour after ends there at the latest, and the one before is as long.
 */
export async function loadDeployHealth(
  db: Db,
  organizationId: string,
  deployIds: readonly string[],
  until: Date | null = null,
): Promise<Map<string, DeployHealth>> {
  const health = new Map<string, DeployHealth>();
  for (let offset = 0; offset < deployIds.length; offset += MAX_HEALTH_DEPLOYS) {
    const ids = deployIds.slice(offset, offset + MAX_HEALTH_DEPLOYS);
    const query = deployHealthQuery(organizationId, ids, until);
    const rows = await db.$queryRawUnsafe<HealthRow[]>(query.text, ...query.values);
    for (const row of rows) {
      health.set(row.id, {
        before: { alerts: row.alertsBefore, incidents: row.incidentsBefore },
        after: { alerts: row.alertsAfter, incidents: row.incidentsAfter },
      });
    }
  }
  return health;
}

/** The one statement of loadDeployHealth (also to read its plan). */
export function deployHealthQuery(organizationId: string, deployIds: readonly string[], until: Date | null = null) {
  const window = `${HEALTH_WINDOW_MS} milliseconds`;
  // An incident is the service's when filed under it or affecting it; its environment matches the
  // deploy's when either has none, or both mean the same one (case aside, through the aliases).
  const ofDeploy = sql`(i.service_id = d.service_id OR i.also_affected_service_ids @> ARRAY[d.service_id])
    AND (d.environment IS NULL OR i.environment IS NULL
         OR coalesce((SELECT a.environment FROM environment_aliases a
                      WHERE a.organization_id = i.organization_id AND a.alias = lower(i.environment)), lower(i.environment)) = d.environment)`;
  return sql`
    WITH asked AS MATERIALIZED (
      -- By primary key alone: with the organization in the same condition, the planner may read
      -- the organization's deploys by time instead (a year of them).
      SELECT id, organization_id, service_id, deployed_at, environment FROM deploys WHERE id = ANY(${deployIds}::uuid[])
    ),
    d AS (
      SELECT d.id, d.service_id, d.deployed_at, w.to_at, d.deployed_at - (w.to_at - d.deployed_at) AS from_at,
             coalesce(a.environment, lower(d.environment)) AS environment
      FROM asked d
      -- least() leaves a null out: without an incident's start, the whole hour.
      CROSS JOIN LATERAL (SELECT greatest(d.deployed_at, least(d.deployed_at + ${window}::interval, ${until}::timestamptz)) AS to_at) w
      LEFT JOIN environment_aliases a ON a.organization_id = d.organization_id AND a.alias = lower(d.environment)
      WHERE d.organization_id = ${organizationId}::uuid
    )
    SELECT d.id, alerts."alertsBefore", alerts."alertsAfter", incidents."incidentsBefore", incidents."incidentsAfter"
    FROM d
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE al.starts_at < d.deployed_at)::int AS "alertsBefore",
             count(*) FILTER (WHERE al.starts_at >= d.deployed_at)::int AS "alertsAfter"
      FROM alerts al JOIN incidents i ON i.id = al.incident_id
      WHERE al.organization_id = ${organizationId}::uuid AND al.starts_at >= d.from_at AND al.starts_at < d.to_at AND ${ofDeploy}
    ) alerts
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE i.started_at < d.deployed_at)::int AS "incidentsBefore",
             count(*) FILTER (WHERE i.started_at >= d.deployed_at)::int AS "incidentsAfter"
      FROM incidents i
      WHERE i.organization_id = ${organizationId}::uuid AND i.started_at >= d.from_at AND i.started_at < d.to_at AND ${ofDeploy}
    ) incidents`;
}
