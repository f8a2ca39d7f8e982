// Which kind of row an id names, among the organization's own rows: ids are plain UUIDs shared
// by every table, so a lookup by id alone (GraphQL's node/nodes) first finds the table. Rows of
// other organizations, and endpoints that were deleted, are not found, exactly like unknown ids.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { isUuid } from './ids.ts';

/**
 * Each kind of row found by id, and how to find the organization's rows of it among `$2` (uuid[]);
 * `$1` is the organization, `$3` the person calling (null for an API token): a session is found
 * only by its own person, a person only by a fellow member.
 */
const OWNED_ROWS_SQL = {
  Organization: 'SELECT id FROM organizations WHERE id = $1 AND id = ANY($2)',
  ApiToken: 'SELECT id FROM api_tokens WHERE organization_id = $1 AND id = ANY($2)',
  Service: 'SELECT id FROM services WHERE organization_id = $1 AND id = ANY($2)',
  Deploy: 'SELECT id FROM deploys WHERE organization_id = $1 AND id = ANY($2)',
  ChangeEvent: 'SELECT id FROM change_events WHERE organization_id = $1 AND id = ANY($2)',
  Incident: 'SELECT id FROM incidents WHERE organization_id = $1 AND id = ANY($2)',
  WebhookEndpoint: 'SELECT id FROM webhook_endpoints WHERE organization_id = $1 AND id = ANY($2) AND deleted_at IS NULL',
  Event: 'SELECT id FROM events WHERE organization_id = $1 AND id = ANY($2)',
  Delivery: 'SELECT id FROM deliveries WHERE organization_id = $1 AND id = ANY($2)',
  DeliveryAttempt:
    'SELECT a.id FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.organization_id = $1 AND a.id = ANY($2)',
  SecretReveal:
    'SELECT r.id FROM secret_reveals r JOIN webhook_endpoints e ON e.id = r.endpoint_id WHERE e.organization_id = $1 AND r.id = ANY($2)',
  Listener: 'SELECT id FROM listeners WHERE organization_id = $1 AND id = ANY($2)',
  AlertSource: 'SELECT id FROM alert_sources WHERE organization_id = $1 AND id = ANY($2)',
  Alert: 'SELECT id FROM alerts WHERE organization_id = $1 AND id = ANY($2)',
  Member: 'SELECT id FROM memberships WHERE organization_id = $1 AND id = ANY($2)',
  Invite: "SELECT id FROM invites WHERE organization_id = $1 AND kind = 'INVITE' AND id = ANY($2)",
  Person: 'SELECT person_id AS id FROM memberships WHERE organization_id = $1 AND person_id = ANY($2)',
  Session: 'SELECT id FROM sessions WHERE organization_id = $1 AND person_id = $3::uuid AND id = ANY($2)',
  AuditEntry: 'SELECT id FROM audit_entries WHERE organization_id = $1 AND id = ANY($2)',
  IncidentNote:
    'SELECT n.id FROM incident_notes n JOIN incidents i ON i.id = n.incident_id WHERE i.organization_id = $1 AND n.id = ANY($2)',
} as const;

export type NodeKind = keyof typeof OWNED_ROWS_SQL;

/** Every kind of row node(id:) finds: every GraphQL type with an id. */
export const NODE_KINDS = Object.keys(OWNED_ROWS_SQL) as NodeKind[];

/** Every kind in one statement: each branch is a primary-key probe of its table. */
const OWNED_NODES_SQL = Object.entries(OWNED_ROWS_SQL)
  .map(([kind, select]) => `SELECT '${kind}' AS kind, owned.id::text AS id FROM (${select}) owned`)
  .join('\nUNION ALL\n');

/** The kind of each of `ids` that is a row of the organization (lower-case ids); ids it does not own are absent. */
export async function ownedNodeKinds(
  prisma: PrismaClient,
  organizationId: string,
  ids: readonly string[],
  personId: string | null = null,
): Promise<Map<string, NodeKind>> {
  const uuids = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (uuids.length === 0) return new Map();
  const rows = await prisma.$queryRawUnsafe<{ kind: NodeKind; id: string }[]>(OWNED_NODES_SQL, organizationId, uuids, personId);
  return new Map(rows.map((row) => [row.id, row.kind]));
}
