// The deploy timeline: deploys and change events of an organization in one list, newest first
// (by when they happened), optionally of one service and environment. Raw SQL: one ordered page
// over the union of two tables, which Prisma's query API cannot express.
import type { PrismaClient } from '../generated/prisma/client.ts';

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

const TIMELINE_SQL = (inverted: boolean) => `
WITH entry AS (
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
  AND ($3::text IS NULL OR environment = $3)
  AND ($4::uuid IS NULL OR (at, id) < (SELECT at, id FROM after_entry))
  AND ($5::uuid IS NULL OR (at, id) > (SELECT at, id FROM before_entry))
ORDER BY at ${inverted ? 'ASC' : 'DESC'}, id ${inverted ? 'ASC' : 'DESC'}
LIMIT $6::int`;

/** One page of the timeline; the cursors are entries of the organization (checked before). */
export function loadTimeline(
  prisma: PrismaClient,
  organizationId: string,
  filter: { serviceId: string | null; environment: string | null },
  page: TimelinePage,
): Promise<TimelineEntry[]> {
  return prisma.$queryRawUnsafe<TimelineEntry[]>(
    TIMELINE_SQL(page.inverted),
    organizationId,
    filter.serviceId,
    filter.environment,
    page.afterId ?? null,
    page.beforeId ?? null,
    page.limit,
  );
}
