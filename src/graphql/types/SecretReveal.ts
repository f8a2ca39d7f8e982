import { builder } from '../builder.ts';

builder.prismaNode('SecretReveal', {
  id: { field: 'id' },
  nullable: true,
  description: "A read of an endpoint's signing secret through revealWebhookSecret: by which API token or person, and when.",
  select: { id: true },
  fields: (t) => ({
    revealedAt: t.expose('revealedAt', { type: 'DateTime' }),
    apiToken: t.relation('apiToken', {
      nullable: true,
      description: 'The API token of the request (its prefix and name identify it; it may since be revoked); null when a person asked.',
    }),
    person: t.relation('person', { nullable: true, description: 'The signed-in person who asked; null when an API token did.' }),
  }),
});
