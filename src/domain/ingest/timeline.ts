// The deploy timeline: deploys and change events of an organization in one list, newest first
// (by when they happened), optionally of one service and environment. Raw SQL: one ordered page
// over the union of two tables, which Prisma's query API cannot express.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Statement } from '../../db/statement.ts';
import { boundedCount } from '../shared/counts.ts';

export interface TimelineEntry {
  type: 'deploy' | 'change';
  id: string;
  at: Date;
}

export interface TimelinePage {
  /** Entries strictly after this one in the order (older when not inverted). */
  afterId?: string | null;
  /** Entries strictly before this one (newer when not inverted). */
  beforeId?: string | null;
  limit: number;
  /** Oldest first (a page counted from the end). */
  inverted: boolean;
}

// NOT MATERIALIZED: the conditions reach each table's (organization_id, time) index, so a page
// reads its rows in order from both and merges them, instead of every organization's history.
const TIMELINE_SQL = (inverted: boolean) => `
WITH entry AS NOT MATERIALIZED (
  SELECT 'deploy' AS type, id, deployed_at AS at, organization_id, service_id, environment FROM deploys
  UNION ALL
  SELECT 'change', id, changed_at, organization_id, service_id, environment FROM change_events
), after_entry AS (
  SELECT at, id FROM entry WHERE organization_id = $1::uuid AND id = $4::uuid
), before_entry AS (
  SELECT at, id FROM entry WHERE organization_id = $1::uuid AND id = $5::uuid
)
SELECT type, id, at FROM entry
WHERE organization_id = $1::uuid
  AND ($2::uuid IS NULL OR service_id = $2)
  AND ($3::text[] IS NULL OR environment = ANY($3))
  AND ($4::uuid IS NULL OR (at, id) < (SELECT at, id FROM after_entry))
  AND ($5::uuid IS NULL OR (at, id) > (SELECT at, id FROM before_entry))
ORDER BY at ${inverted ? 'ASC' : 'DESC'}, id ${inverted ? 'ASC' : 'DESC'}
LIMIT $6::int`;

/** One page of the timeline; the cursors are entries of the organization (checked before). */
export function loadTimeline(
  prisma: PrismaClient,
  organizationId: string,
  /** environments: the names as stored that mean the environment asked for (null: any). */
  filter: { serviceId: string | null; environments: readonly string[] | null },
  page: TimelinePage,
): Promise<TimelineEntry[]> {
  const statement = timelinePage(organizationId, filter, page);
  return prisma.$queryRawUnsafe<TimelineEntry[]>(statement.text, ...statement.values);
}

function timelinePage(
  organizationId: string,
  filter: { serviceId: string | null; environments: readonly string[] | null },
  page: TimelinePage,
): Statement {
  return {
    text: TIMELINE_SQL(page.inverted),
    values: [organizationId, filter.serviceId, filter.environments, page.afterId ?? null, page.beforeId ?? null, page.limit],
  };
}

/** How many entries the timeline holds (boundedCount), read from its two ends as pages are. */
export function countTimeline(prisma: PrismaClient, organizationId: string, filter: Parameters<typeof loadTimeline>[2]): Promise<number> {
  return boundedCount({
    newestMadeAt: async (limit) =>
      (await loadTimeline(prisma, organizationId, filter, { limit, inverted: false })).map((entry) => entry.at),
    oldestMadeAt: async () => (await loadTimeline(prisma, organizationId, filter, { limit: 1, inverted: true }))[0]?.at ?? null,
  });
}
