// The deploy timeline: deploys and change events of an organization in one list, newest first
// (by when they happened), optionally of one service and environment. Raw SQL: one ordered page
// over the union of two tables, which Prisma's query API cannot express.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import sql, { raw, type Sql } from 'sql-template-tag';
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
  /** Entries passed over before the page's first (none when absent). */
  offset?: number;
  /** Oldest first (a page counted from the end). */
  inverted: boolean;
}

// NOT MATERIALIZED: the conditions reach each table's (organization_id, time) index, so a page
// reads its rows in order from both and merges them, instead of every organization's history.
function timelinePage(
  organizationId: string,
  filter: { serviceId: string | null; environments: readonly string[] | null },
  page: TimelinePage,
): Sql {
  const { serviceId, environments } = filter;
  const afterId = page.afterId ?? null;
  const beforeId = page.beforeId ?? null;
  const order = raw(page.inverted ? 'ASC' : 'DESC');
  return sql`
WITH entry AS NOT MATERIALIZED (
  SELECT 'deploy' AS type, id, deployed_at AS at, organization_id, service_id, environment FROM deploys
  UNION ALL
  SELECT 'change', id, changed_at, organization_id, service_id, environment FROM change_events
), after_entry AS (
  SELECT at, id FROM entry WHERE organization_id = ${organizationId}::uuid AND id = ${afterId}::uuid
), before_entry AS (
  SELECT at, id FROM entry WHERE organization_id = ${organizationId}::uuid AND id = ${beforeId}::uuid
)
SELECT type, id, at FROM entry
WHERE organization_id = ${organizationId}::uuid
  AND (${serviceId}::uuid IS NULL OR service_id = ${serviceId})
  AND (${environments}::text[] IS NULL OR environment = ANY(${environments}))
  AND (${afterId}::uuid IS NULL OR (at, id) < (SELECT at, id FROM after_entry))
  AND (${beforeId}::uuid IS NULL OR (at, id) > (SELECT at, id FROM before_entry))
ORDER BY at ${order}, id ${order}
LIMIT ${page.limit}::int OFFSET ${page.offset ?? 0}::int`;
}

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

/** How many entries the timeline holds (boundedCount), read from its two ends as pages are. */
export function countTimeline(prisma: PrismaClient, organizationId: string, filter: Parameters<typeof loadTimeline>[2]): Promise<number> {
  const madeAt = async (page: TimelinePage) => (await loadTimeline(prisma, organizationId, filter, page))[0]?.at ?? null;
  return boundedCount({
    countUpTo: async (limit) => {
      const statement = sql`SELECT count(*)::int AS count FROM (${timelinePage(organizationId, filter, { limit, inverted: false })}) AS page`;
      return (await prisma.$queryRawUnsafe<{ count: number }[]>(statement.text, ...statement.values))[0]!.count;
    },
    madeAtFromNewest: (offset) => madeAt({ limit: 1, offset, inverted: false }),
    oldestMadeAt: () => madeAt({ limit: 1, inverted: true }),
  });
}
