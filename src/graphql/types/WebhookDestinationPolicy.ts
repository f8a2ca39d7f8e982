// The destinations this server accepts for webhook endpoints, so that a form can state (and
// check) the rules that apply here before the API refuses a URL.
import { builder } from '../builder.ts';
import type { DestinationPolicy } from '../../domain/destinations.ts';

const WebhookDestinationPolicy = builder.objectRef<DestinationPolicy>('WebhookDestinationPolicy').implement({
  description: 'Which endpoint URLs this server accepts besides public https addresses (development and test settings).',
  fields: (t) => ({
    allowHttp: t.exposeBoolean('allowHttp', { description: 'http:// URLs are accepted too (WEBHOOK_ALLOW_HTTP).' }),
    allowPrivate: t.exposeBoolean('allowPrivate', {
      description: 'Private, loopback, link-local and other non-public destinations are accepted (WEBHOOK_ALLOW_PRIVATE).',
    }),
  }),
});

builder.queryField('webhookDestinationPolicy', (t) =>
  t.field({
    authScopes: { organization: true },
    type: WebhookDestinationPolicy,
    description: 'The rules every endpoint URL must meet on this server; without both flags: https to a public address only.',
    resolve: (_root, _args, context) => context.destination,
  }),
);
