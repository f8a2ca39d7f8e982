// The executable schema: importing each type file registers it on the builder.
import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
import './total-count.ts';
import './types/Organization.ts';
import './types/Service.ts';
import './types/WebhookEndpoint.ts';
import './types/Delivery.ts';
import './types/DeliveryAttempt.ts';
import './types/Event.ts';
import './types/EventType.ts';
import './types/Subscription.ts';
import './types/Listener.ts';
import './types/Deploy.ts';
import './types/Incident.ts';
import './types/Dora.ts';
import './types/DoraFailedDeploy.ts';
import './types/DoraServiceKeys.ts';
import './types/ApiToken.ts';
import './types/PendingRetries.ts';
import './types/WebhookDestinationPolicy.ts';
import './types/ServiceDependencies.ts';
import './types/Environment.ts';
import './types/ChangeEvent.ts';
import './types/Rollbacks.ts';
import './types/DeployHealth.ts';
import './types/SecretReveal.ts';
import './types/Alert.ts';
import './types/AlertSource.ts';
import './types/Role.ts';
import './types/Person.ts';
import './types/Invite.ts';
import './types/Session.ts';
import './types/System.ts';
import './types/Actor.ts';
import './types/AuditEntry.ts';
import './types/IncidentNote.ts';
import './types/IncidentTimelineEntry.ts';
import './types/Node.ts';

export const schema = builder.toSchema();

/** The SDL committed as schema.graphql (sorted, so diffs stay readable). */
export function printSchemaSdl(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
