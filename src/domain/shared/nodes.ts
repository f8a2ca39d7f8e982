// Which kind of row an id names, among the organization's own rows: ids are plain UUIDs shared
// by every table, so a lookup by id alone (GraphQL's node/nodes) first finds the table. Rows of
// other organizations, and endpoints that were deleted, are not found, exactly like unknown ids.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import sql, { join, raw, type Sql } from 'sql-template-tag';
import { isUuid } from './ids.ts';

/** Whose rows a look-up may find: the organization's, and for sessions the person's own (null for an API token). */
interface Caller {
  organizationId: string;
  personId: string | null;
}

/**
 * Each kind of row found by id, and how to find the caller's rows of it among `ids`: a session is
 * found only by its own person, a person only by a fellow member.
 */
const OWNED_ROWS = {
  Organization: ({ organizationId }, ids) =>
    sql`SELECT id FROM organizations WHERE id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  ApiToken: ({ organizationId }, ids) =>
    sql`SELECT id FROM api_tokens WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  Service: ({ organizationId }, ids) =>
    sql`SELECT id FROM services WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  Deploy: ({ organizationId }, ids) =>
    sql`SELECT id FROM deploys WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  ChangeEvent: ({ organizationId }, ids) =>
    sql`SELECT id FROM change_events WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  Incident: ({ organizationId }, ids) =>
    sql`SELECT id FROM incidents WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  WebhookEndpoint: ({ organizationId }, ids) =>
    sql`SELECT id FROM webhook_endpoints WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[]) AND deleted_at IS NULL`,
  Event: ({ organizationId }, ids) =>
    sql`SELECT id, created_at AS month FROM events WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  Delivery: ({ organizationId }, ids) =>
    sql`SELECT id, created_at AS month FROM deliveries WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  DeliveryAttempt: ({ organizationId }, ids) =>
    sql`SELECT a.id, a.delivery_created_at AS month FROM delivery_attempts a
        JOIN deliveries d ON d.id = a.delivery_id AND d.created_at = a.delivery_created_at
        WHERE d.organization_id = ${organizationId}::uuid AND a.id = ANY(${ids}::uuid[])`,
  SecretReveal: ({ organizationId }, ids) =>
    sql`SELECT r.id FROM secret_reveals r JOIN webhook_endpoints e ON e.id = r.endpoint_id
        WHERE e.organization_id = ${organizationId}::uuid AND r.id = ANY(${ids}::uuid[])`,
  Listener: ({ organizationId }, ids) =>
    sql`SELECT id FROM listeners WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  AlertSource: ({ organizationId }, ids) =>
    sql`SELECT id FROM alert_sources WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  Alert: ({ organizationId }, ids) =>
    sql`SELECT id FROM alerts WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  Member: ({ organizationId }, ids) =>
    sql`SELECT id FROM memberships WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  Invite: ({ organizationId }, ids) =>
    sql`SELECT id FROM invites WHERE organization_id = ${organizationId}::uuid AND kind = 'INVITE' AND id = ANY(${ids}::uuid[])`,
  Person: ({ organizationId }, ids) =>
    sql`SELECT person_id AS id FROM memberships WHERE organization_id = ${organizationId}::uuid AND person_id = ANY(${ids}::uuid[])`,
  Session: ({ organizationId, personId }, ids) =>
    sql`SELECT id FROM sessions WHERE organization_id = ${organizationId}::uuid AND person_id = ${personId}::uuid AND id = ANY(${ids}::uuid[])`,
  AuditEntry: ({ organizationId }, ids) =>
    sql`SELECT id FROM audit_entries WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])`,
  IncidentNote: ({ organizationId }, ids) =>
    sql`SELECT n.id FROM incident_notes n JOIN incidents i ON i.id = n.incident_id
        WHERE i.organization_id = ${organizationId}::uuid AND n.id = ANY(${ids}::uuid[])`,
} satisfies Record<string, (caller: Caller, ids: string[]) => Sql>;

export type NodeKind = keyof typeof OWNED_ROWS;

/** The kinds partitioned by month: their rows are keyed by id and the time naming their month. */
const BY_MONTH: NodeKind[] = ['Event', 'Delivery', 'DeliveryAttempt'];

/** A row found by id: its kind, and for a kind partitioned by month, the time in its key. */
export interface OwnedNode {
  kind: NodeKind;
  month: Date | null;
}

/** Every kind of row node(id:) finds: every GraphQL type with an id. */
export const NODE_KINDS = Object.keys(OWNED_ROWS) as NodeKind[];

/** The kind of each of `ids` that is a row of the organization (lower-case ids); ids it does not own are absent. */
export async function ownedNodeKinds(
  prisma: PrismaClient,
  organizationId: string,
  ids: readonly string[],
  personId: string | null = null,
): Promise<Map<string, OwnedNode>> {
  const uuids = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (uuids.length === 0) return new Map();
  // Every kind in one statement: each branch is a primary-key probe of its table.
  const branches = NODE_KINDS.map(
    (kind) =>
      sql`SELECT ${kind}::text AS kind, owned.id::text AS id, ${raw(BY_MONTH.includes(kind) ? 'owned.month' : 'NULL::timestamptz')} AS month
          FROM (${OWNED_ROWS[kind]({ organizationId, personId }, uuids)}) owned`,
  );
  const statement = join(branches, '\nUNION ALL\n');
  const rows = await prisma.$queryRawUnsafe<{ kind: NodeKind; id: string; month: Date | null }[]>(statement.text, ...statement.values);
  return new Map(rows.map((row) => [row.id, { kind: row.kind, month: row.month }]));
}
