// The destinations this server accepts for webhook endpoints, so that a form can state (and
// check) the rules that apply here before the API refuses a URL.
import { builder } from '../builder.ts';
import type { DestinationPolicy } from '../../domain/webhooks/destinations.ts';
import { ENDPOINT_MAX_RATE_PER_SECOND, ENDPOINT_MIN_TIMEOUT_MS, maxEndpointTimeoutMs } from '../../domain/webhooks/endpoints.ts';

const WebhookDestinationPolicy = builder.objectRef<DestinationPolicy>('WebhookDestinationPolicy').implement({
  description:
    'Which endpoint URLs this server accepts besides public https addresses (development and test settings), and the bounds of endpoint settings.',
  fields: (t) => ({
    allowHttp: t.exposeBoolean('allowHttp', { description: 'http:// URLs are accepted too (WEBHOOK_ALLOW_HTTP).' }),
    allowPrivate: t.exposeBoolean('allowPrivate', {
      description: 'Private, loopback, link-local and other non-public destinations are accepted (WEBHOOK_ALLOW_PRIVATE).',
    }),
    minTimeoutMs: t.int({ description: 'The shortest attempt timeout an endpoint may set.', resolve: () => ENDPOINT_MIN_TIMEOUT_MS }),
    maxTimeoutMs: t.int({
      description: 'The longest attempt timeout an endpoint may set, and the timeout of those that set none (DELIVERY_TIMEOUT_MS).',
      resolve: (policy) => maxEndpointTimeoutMs(policy),
    }),
    maxRateLimitPerSecond: t.int({
      description: 'The highest rate limit an endpoint may set.',
      resolve: () => ENDPOINT_MAX_RATE_PER_SECOND,
    }),
  }),
});

builder.queryField('webhookDestinationPolicy', (t) =>
  t.withAuth({ organization: true }).field({
    type: WebhookDestinationPolicy,
    description: 'The rules every endpoint URL must meet on this server; without both flags: https to a public address only.',
    resolve: (_root, _args, context) => context.destination,
  }),
);
