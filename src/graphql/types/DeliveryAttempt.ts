import { builder } from '../builder.ts';

builder.prismaObject('DeliveryAttempt', {
  description: 'One HTTP request of a delivery, as it went.',
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number', { description: '1 for the first attempt of the delivery.' }),
    succeeded: t.exposeBoolean('succeeded', { description: 'Whether the receiver answered 2xx in time.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs'),
    responseStatus: t.exposeInt('responseStatus', {
      nullable: true,
      description: 'The HTTP status of the answer; null when there was none (timeout, connection error, refused destination).',
    }),
    responseBody: t.exposeString('responseBody', { nullable: true, description: 'The first 4 KB of the response body.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why the attempt failed, when it did not get an answer.' }),
  }),
});
