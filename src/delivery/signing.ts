// Webhook signatures in the Standard Webhooks scheme, so receivers verify with any Standard
// Webhooks library: `v1,` + base64 HMAC-SHA256 of `<delivery id>.<timestamp>.<raw body>`, keyed
// with the secret's bytes, under both the X-Service-* and the webhook-* header names.
import { createHmac } from 'node:crypto';
import { signingKey } from '../domain/webhooks/signing-secrets.ts';

/**
 * The signature header value: `v1,<base64 HMAC-SHA256>` per secret, space-separated.
 * Several secrets only during a rotation's grace period, newest first.
 */
export function signPayload({
  deliveryId,
  timestamp,
  body,
  secrets,
}: {
  deliveryId: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
  secrets: string[];
}): string {
  if (secrets.length === 0) throw new Error('at least one signing secret is needed');
  if (!Number.isSafeInteger(timestamp)) throw new Error('the timestamp must be whole unix seconds');
  const signedContent = `${deliveryId}.${timestamp}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', signingKey(secret)).update(signedContent).digest('base64')}`).join(' ');
}

/** Every header of one delivery attempt; `timestamp` is the attempt's, in unix seconds. */
export function webhookHeaders({
  deliveryId,
  eventType,
  timestamp,
  body,
  secrets,
  version,
}: {
  deliveryId: string;
  eventType: string;
  timestamp: number;
  body: string;
  secrets: string[];
  version: string;
}): Record<string, string> {
  const signature = signPayload({ deliveryId, timestamp, body, secrets });
  return {
    'content-type': 'application/json',
    'user-agent': `Hookline-Webhooks/${version}`,
    'x-service-event': eventType,
    'x-service-delivery': deliveryId,
    'x-service-timestamp': String(timestamp),
    'x-service-signature': signature,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  };
}
