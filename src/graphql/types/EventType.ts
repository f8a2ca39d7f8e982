// The event-type catalogue, and sending one of its examples to an endpoint.
import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { audited } from '../audit.ts';
import { eventTypeCatalogue, type EventTypeEntry } from '../../domain/webhooks/event-catalogue.ts';
import { sendExampleEvent } from '../../domain/webhooks/endpoints.ts';

const EventTypeRef = builder.objectRef<{ name: string } & EventTypeEntry>('EventType').implement({
  description: 'A kind of webhook event: what it means, the JSON Schema of its `data`, and an example.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The `type` of the webhook body, e.g. incident.opened.' }),
    label: t.exposeString('label', { description: 'A few words saying what happened, e.g. "An incident was opened".' }),
    description: t.exposeString('description'),
    schema: t.expose('schema', { type: 'JSON', description: 'JSON Schema (draft 2020-12) of the `data` of its webhook body.' }),
    example: t.expose('example', { type: 'JSON', description: 'An example `data`, valid against `schema`; sendExample sends it.' }),
  }),
});

builder.queryField('eventTypes', (t) =>
  t.withAuth({ organization: true }).field({
    type: [EventTypeRef],
    description: 'Every webhook event type, in a fixed order.',
    complexity: listOf(LIST_BOUNDS.eventTypes),
    resolve: () => eventTypeCatalogue(),
  }),
);

builder.mutationField('sendExample', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: 'Delivery',
    description:
      'Queues the example of an event type to an ACTIVE endpoint, whatever its event types, signed like any delivery; ' +
      'its body says `"example": true`.',
    args: { endpointId: t.arg.id({ required: true }), eventType: t.arg.string({ required: true }) },
    resolve: async (query, _root, { endpointId, eventType }, context) => {
      const deliveryId = await audited(
        context,
        'webhookEndpoint.sendExample',
        (scoped) => sendExampleEvent(scoped, scoped.organization.id, endpointId, eventType),
        () => ({ objectId: endpointId, summary: `Sent the example of ${eventType} to webhook endpoint ${endpointId}` }),
      );
      return context.prisma.delivery.findFirstOrThrow({ ...query, where: { id: deliveryId } });
    },
  }),
);
