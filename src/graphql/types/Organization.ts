import { viewerOf } from '../context.ts';
import { builder } from '../builder.ts';

builder.prismaObject('Organization', {
  description: 'A tenant: everything in Hookline belongs to exactly one organization.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('viewer', (t) =>
  t.prismaField({
    authScopes: { organization: true },
    type: 'Organization',
    description: 'The organization of the API token making the request.',
    resolve: (query, _root, _args, context) =>
      context.prisma.organization.findUniqueOrThrow({ ...query, where: { id: viewerOf(context).id } }),
  }),
);
