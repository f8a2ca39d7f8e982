// What the webhook pages share: fragments, the event types, and the URL and name rules the
// API applies (src/domain/endpoints.ts), checked here too so mistakes show before sending.
import { graphql } from './gql';

export const EVENT_TYPES = [
  { type: 'deploy.ingested', label: 'A deploy was recorded' },
  { type: 'incident.opened', label: 'An incident was opened' },
  { type: 'incident.acknowledged', label: 'An incident was acknowledged' },
  { type: 'incident.resolved', label: 'An incident was resolved' },
  { type: 'test.ping', label: 'Send Test (always delivered on Send Test)' },
] as const;

export const NAME_MAX_LENGTH = 200;
export const URL_MAX_LENGTH = 2048;

graphql(`
  fragment EndpointFields on WebhookEndpoint {
    id url name status eventTypes consecutiveFailures disabledAt disabledReason createdAt updatedAt
  }
`);

graphql(`
  fragment DeliveryFields on Delivery {
    id status attemptCount createdAt updatedAt lastAttemptAt nextAttemptAt
    event { id type createdAt }
    attempts { id number succeeded startedAt durationMs responseStatus responseBody error }
  }
`);

/** The API's checks that do not depend on the server's settings; it has the last word (https, private addresses). */
export function checkEndpointInput(url: string, name: string): Record<'url' | 'name', string | undefined> {
  const errors: Record<'url' | 'name', string | undefined> = { url: undefined, name: undefined };
  const trimmedName = name.trim();
  if (trimmedName.length === 0 || trimmedName.length > NAME_MAX_LENGTH) errors.name = `Name must be 1 to ${NAME_MAX_LENGTH} characters.`;
  if (url.length === 0) errors.url = 'URL is required.';
  else if (url.length > URL_MAX_LENGTH) errors.url = `URL must be at most ${URL_MAX_LENGTH} characters long.`;
  else if (!URL.canParse(url)) errors.url = 'URL must be a valid absolute address, such as https://example.com/hooks.';
  else {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') errors.url = 'URL must use https.';
    else if (parsed.username || parsed.password) errors.url = 'URL must not contain credentials.';
  }
  return errors;
}
