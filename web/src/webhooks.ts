// What the webhook pages share: fragments, and the URL and name rules the
// API applies (src/domain/webhooks/endpoints.ts, with this server's destination policy), checked here
// too so mistakes show before sending.
import { graphql } from './gql';

export const NAME_MAX_LENGTH = 200;
export const URL_MAX_LENGTH = 2048;

graphql(`
  fragment EndpointFields on WebhookEndpoint {
    id url name status eventTypes consecutiveFailures pendingRetries overdueDeliveries disabledAt disabledReason createdAt updatedAt
    headers { name value } timeoutMs rateLimitPerSecond
  }
`);

graphql(`
  fragment DeliveryFields on Delivery {
    id status attemptCount createdAt updatedAt lastAttemptAt nextAttemptAt
    event { id type createdAt }
    attempts { id number succeeded startedAt durationMs responseStatus responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded error }
  }
`);

/** Which destinations this server accepts (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE). */
export interface DestinationPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/** The URL rules that apply on this server, said once it is known which. */
export function destinationHint(policy: DestinationPolicy | undefined): string {
  const length = `at most ${URL_MAX_LENGTH} characters`;
  if (!policy) return `An address of ${length}.`;
  const scheme = policy.allowHttp ? 'An http or https address' : 'An https address';
  if (!policy.allowPrivate) return `${scheme}, ${length}, that is not a private or local network address.`;
  if (!policy.allowHttp) return `${scheme}, ${length}. This server also accepts private or local network addresses.`;
  return `At most ${URL_MAX_LENGTH} characters. This server also accepts http and private or local network addresses.`;
}

/**
 * The API's checks that a browser can make: the URL's form, and https when the server wants it.
 * The API has the last word (private addresses need DNS).
 */
export function checkEndpointInput(
  url: string,
  name: string,
  policy: DestinationPolicy | undefined,
): Record<'url' | 'name', string | undefined> {
  const errors: Record<'url' | 'name', string | undefined> = { url: undefined, name: undefined };
  const trimmedName = name.trim();
  if (trimmedName.length === 0 || trimmedName.length > NAME_MAX_LENGTH) errors.name = `Name must be 1 to ${NAME_MAX_LENGTH} characters.`;
  if (url.length === 0) errors.url = 'URL is required.';
  else if (url.length > URL_MAX_LENGTH) errors.url = `URL must be at most ${URL_MAX_LENGTH} characters long.`;
  else if (!URL.canParse(url)) errors.url = 'URL must be a valid absolute address, such as https://example.com/hooks.';
  else {
    const parsed = new URL(url);
    const httpAllowed = policy?.allowHttp ?? true;
    // The API's words: "must use https or http" where WEBHOOK_ALLOW_HTTP is on, "must use https" elsewhere.
    if (parsed.protocol !== 'https:' && !(httpAllowed && parsed.protocol === 'http:'))
      errors.url = httpAllowed ? 'URL must use https or http.' : 'URL must use https.';
    else if (parsed.username || parsed.password) errors.url = 'URL must not contain credentials.';
  }
  return errors;
}

/** "none", "1 delivery", "3 deliveries". */
/** How late a PENDING delivery's attempt must be to count as overdue (the API's overdueDeliveries). */
export const OVERDUE_AFTER_MS = 60_000;

export function isOverdue(delivery: { status: string; nextAttemptAt: string | null }, now = Date.now()): boolean {
  return delivery.status === 'PENDING' && delivery.nextAttemptAt !== null && now - Date.parse(delivery.nextAttemptAt) > OVERDUE_AFTER_MS;
}

export function deliveryCount(count: number): string {
  return count === 0 ? 'none' : `${count} deliver${count === 1 ? 'y' : 'ies'}`;
}

/** Custom headers as the endpoint form shows them: one `Name: value` per line. */
export function headersToText(headers: readonly { name: string; value: string }[]): string {
  return headers.map((header) => `${header.name}: ${header.value}`).join('\n');
}

/** The form's lines back into headers (blank lines skipped); a line without a colon is all name, and the API says what is wrong. */
export function headersFromText(text: string): { name: string; value: string }[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0 ? { name: line.trim(), value: '' } : { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
    });
}
