// WebhookEndpoint.pendingRetries: what is failing at an endpoint right now, beside
// consecutiveFailures (which counts only deliveries that gave up). Batched for every endpoint of
// a request in one query.
import { builder } from '../builder.ts';
import { viewerOf, type Context } from '../context.ts';
import { pendingRetries } from '../../domain/deliveries.ts';

builder.prismaObjectField('WebhookEndpoint', 'pendingRetries', (t) =>
  t.loadable({
    type: 'Int',
    description: 'Its deliveries still PENDING after at least one failed attempt: each is waiting for its next retry.',
    load: (endpointIds: string[], context: Context) => pendingRetries(context.prisma, viewerOf(context).id, endpointIds),
    // As the endpoint's other loaders: a subscription keeps its context, each event must see counts as they are then.
    loaderOptions: { cache: false },
    resolve: (endpoint) => endpoint.id,
  }),
);
