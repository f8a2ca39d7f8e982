import { builder } from '../builder.ts';

builder.prismaObject('Event', {
  description: 'Something that happened, stored once; each subscribed endpoint gets one delivery of it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The `id` of the webhook body.' }),
    type: t.exposeString('type', { description: 'deploy.ingested, incident.opened, incident.acknowledged, incident.resolved or test.ping.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    data: t.expose('data', { type: 'JSON', description: 'The `data` of the webhook body.' }),
  }),
});
