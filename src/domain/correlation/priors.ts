// What past verdicts teach: per service and kind of change ("deploy", or a change event's kind
// such as "feature_flag"), how often people judged such a suspect CAUSED or DISMISSED. It nudges
// a score by at most ±PRIOR_MAX_EFFECT, so it reorders only suspects whose time and service make
// them close; it never outweighs them.
import sql, { raw } from 'sql-template-tag';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';

/** The kind of change a deploy is, for priors; change events have their own kinds. */
export const DEPLOY_KIND = 'deploy';

export interface VerdictTally {
  serviceId: string;
  kind: string;
  caused: number;
  dismissed: number;
}

/**
 * The largest share by which a prior raises or lowers a score: 15 %, so that a consistent record
 * (three verdicts each way: × 1.09 against × 0.91) decides between two changes of one service
 * minutes apart, and still below what would let it cross a gate (the closest gates are 0.7 apart:
 * 1.15 / 0.85 < 1 / 0.7), so it never lifts a change over a better service or environment.
 */
export const PRIOR_MAX_EFFECT = 0.15;

/**
 * 1 without verdicts; otherwise 1 + PRIOR_MAX_EFFECT × (2 × rate − 1), with rate the share of
 * CAUSED verdicts smoothed by one of each (Laplace's rule): one verdict moves a score by a
 * third of the maximum, ten the same way by five sixths, and it never reaches the maximum.
 */
export function priorFactor(tally: Pick<VerdictTally, 'caused' | 'dismissed'> | undefined): number {
  if (!tally || tally.caused + tally.dismissed === 0) return 1;
  const rate = (tally.caused + 1) / (tally.caused + tally.dismissed + 2);
  return 1 + PRIOR_MAX_EFFECT * (2 * rate - 1);
}

/**
 * The largest share of the size term a record takes over: half, reached slowly (one verdict a
 * quarter, three 0.375). Enough for what was learned to decide between a one-commit deploy and a
 * flag flip minutes apart; not enough to lift a dependency's change over the service's own of the
 * same moment and size.
 */
export const RECORD_MAX_SHARE = 0.5;

/**
 * The risk of a change in 0..1: its size (log-scaled commits) while nothing was learned, then
 * partly the share of CAUSED verdicts on such changes (Laplace-smoothed, as priorFactor). Size is a
 * guess about every change; the record is what this service's changes of this kind did, so it
 * takes over part of the size term as verdicts accumulate: a one-commit deploy of a service whose
 * deploys keep causing incidents is riskier than its size says.
 */
export function riskTerm(sizeTerm: number, tally: Pick<VerdictTally, 'caused' | 'dismissed'> | undefined): number {
  const verdicts = tally ? tally.caused + tally.dismissed : 0;
  if (verdicts === 0) return sizeTerm;
  const share = (RECORD_MAX_SHARE * verdicts) / (verdicts + 1);
  const causedRate = (tally!.caused + 1) / (verdicts + 2);
  return (1 - share) * sizeTerm + share * causedRate;
}

export function priorKey(serviceId: string, kind: string): string {
  return JSON.stringify([serviceId, kind]);
}

/**
 * Verdicts of the organization's incidents, counted per service and kind (one incident's left
 * out). Raw SQL: one grouping over two optional relations, which Prisma's groupBy cannot join.
 * Each incident's judged suspects are read through the partial index of judged and first-ranked
 * ones (OFFSET 0 keeps it a look-up per incident: as a join, the planner may read every
 * organization's judged suspects instead).
 */
export function loadVerdictTallies(
  db: PrismaClient | Prisma.TransactionClient,
  organizationId: string,
  exceptIncidentId: string | null,
): Promise<VerdictTally[]> {
  const tallies = sql`SELECT coalesce(d.service_id, c.service_id) AS "serviceId", coalesce(c.kind, ${raw(`'${DEPLOY_KIND}'`)}) AS kind,
            count(*) FILTER (WHERE x.verdict = 'CAUSED')::int AS caused,
            count(*) FILTER (WHERE x.verdict = 'DISMISSED')::int AS dismissed
     FROM incidents i
     CROSS JOIN LATERAL (SELECT x.verdict, x.deploy_id, x.change_event_id FROM incident_suspects x
                         WHERE x.incident_id = i.id AND x.verdict IS NOT NULL OFFSET 0) x
     LEFT JOIN deploys d ON d.id = x.deploy_id LEFT JOIN change_events c ON c.id = x.change_event_id
     WHERE i.organization_id = ${organizationId}::uuid AND i.id IS DISTINCT FROM ${exceptIncidentId}::uuid
     GROUP BY 1, 2`;
  return db.$queryRawUnsafe<VerdictTally[]>(tallies.text, ...tallies.values);
}
