// What the audit log says of changes to webhook endpoints, over GraphQL and REST alike. An endpoint
// is named by its name and id, never by its URL (a URL may carry a token in its path or query) nor
// its headers (they may carry credentials).
import type { WebhookEndpoint } from '../../generated/prisma/client.ts';
import { quoted, type AuditSubject } from '../shared/audit.ts';

export function endpointCreated(endpoint: WebhookEndpoint): AuditSubject {
  return { objectId: endpoint.id, summary: `Created webhook endpoint ${quoted(endpoint.name)}` };
}

/** Says which settings a change gave (`input`'s fields present), not their values. */
export function endpointChanged(endpoint: WebhookEndpoint, input: object): AuditSubject {
  const fields = Object.entries(input)
    .filter(([, value]) => value !== undefined)
    .map(([field]) => field);
  return { objectId: endpoint.id, summary: `Changed webhook endpoint ${quoted(endpoint.name)}: ${fields.join(', ') || 'nothing'}` };
}

export function endpointDeleted(endpoint: WebhookEndpoint): AuditSubject {
  return { objectId: endpoint.id, summary: `Deleted webhook endpoint ${quoted(endpoint.name)}` };
}
