import { builder } from '../builder.ts';

builder.prismaNode('SecretReveal', {
  id: { field: 'id' },
  nullable: true,
  description: "A read of an endpoint's signing secret through revealWebhookSecret: by which API token, and when.",
  select: { id: true },
  fields: (t) => ({
    revealedAt: t.expose('revealedAt', { type: 'DateTime' }),
    apiToken: t.relation('apiToken', {
      description: 'The API token of the request (its prefix and name identify it; it may since be revoked).',
    }),
  }),
});
