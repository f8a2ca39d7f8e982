// `hookline trigger TYPE`: makes an event of a type for the organization's live listeners (a
// `hookline listen`), through the public API. Any type but test.ping is the event catalogue's
// example of it, its body marked `"example": true`: a trigger stores no service, deploy or
// incident, so nothing it makes counts in DORA, the incident list or suspect ranking, and no
// endpoint gets a delivery of it (Send Example does that for one endpoint).
import { requestGraphql, type HooklineApi } from './api.ts';
import { EVENT_TYPES, type EventType } from '../domain/webhooks/events.ts';
import { graphql } from './gql/index.ts';

/** The event types a trigger can make: every type. */
export const TRIGGER_TYPES = EVENT_TYPES;
export type TriggerType = EventType;

/** What a trigger made, one line each, for the user. */
export type TriggerReport = string[];

const PING_LISTENERS = graphql(`mutation TriggerPing($eventType: String) { pingListeners(eventType: $eventType) { id } }`);

export async function trigger(api: HooklineApi, type: TriggerType): Promise<TriggerReport> {
  const { pingListeners } = await requestGraphql(api, PING_LISTENERS, { eventType: type });
  if (type === 'test.ping') return [`Stored test.ping event ${pingListeners.id} for your live listeners (no endpoint gets it).`];
  return [
    `Stored an example ${type} event ${pingListeners.id} for your live listeners, marked "example": true ` +
      '(no deploy, incident or service is made, and no endpoint gets it).',
  ];
}
