// API tokens of the caller's organization: list, create (the plaintext returned once), revoke.
import { authenticatedConnection, builder } from '../builder.ts';
import type { ApiToken } from '../../generated/prisma/client.ts';
import { apiTokenName, issueApiToken, revokeApiToken } from '../../domain/shared/api-tokens.ts';
import { quoted } from '../../domain/shared/audit.ts';
import { countRows } from '../../domain/shared/counts.ts';
import { audited } from '../audit.ts';
import { ApiTokenScope } from './Role.ts';

export const ApiTokenRef = builder.prismaNode('ApiToken', {
  id: { field: 'id' },
  nullable: true,
  description: 'A Bearer token of the organization (hla_…). Only a hash is stored: the token itself is shown once, when made.',
  // Select mode: only the columns the requested fields need are read (never the hash).
  select: { id: true },
  fields: (t) => ({
    name: t.exposeString('name', {
      nullable: true,
      description: 'What it is for, as its maker called it; null for tokens made by the CLI.',
    }),
    scope: t.expose('scope', { type: ApiTokenScope, description: 'What it may do; tokens made before scopes existed are ADMIN.' }),
    prefix: t.exposeString('prefix', { description: 'Its first 12 characters (hla_ and 8 more), to recognise it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a request last authenticated with it, to the minute; null if never.',
    }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When it was revoked; null while it works.' }),
  }),
});

builder.queryField('apiTokens', (t) =>
  t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'ApiToken',
      cursor: 'id',
      description: "The organization's API tokens, revoked ones included, newest first.",
      totalCount: (_root, _args, context) => countRows(context.prisma.apiToken, { organizationId: context.organization.id }, 'createdAt'),
      resolve: (query, _root, _args, context) =>
        context.prisma.apiToken.findMany({
          ...query,
          where: { organizationId: context.organization.id },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        }),
    },
    authenticatedConnection(builder.connectionObject({ type: ApiTokenRef, name: 'ApiTokenConnection' }, { name: 'ApiTokenEdge' })),
  ),
);

const CreateApiTokenPayload = builder.objectRef<{ apiToken: ApiToken; plaintext: string }>('CreateApiTokenPayload').implement({
  description: 'A new API token of the organization.',
  fields: (t) => ({
    apiToken: t.field({ type: ApiTokenRef, resolve: (payload) => payload.apiToken }),
    token: t.exposeString('plaintext', { description: 'The token itself (hla_…). It is shown only here, never again.' }),
    plaintextToken: t.exposeString('plaintext', { description: 'The same as token (its first name, kept for existing clients).' }),
  }),
});

builder.mutationFields((t) => ({
  createApiToken: t.withAuth({ organization: true }).field({
    type: CreateApiTokenPayload,
    description:
      'Makes an API token of the organization; name (1..100 characters) says what it is for, scope what it may do (default ADMIN, as before scopes).',
    args: {
      name: t.arg.string({ required: false, validate: apiTokenName.nullish() }),
      scope: t.arg({ type: ApiTokenScope, required: false }),
    },
    resolve: (_root, { name, scope }, context) =>
      audited(
        context,
        'apiToken.create',
        (scoped) => issueApiToken(scoped.prisma, scoped.organization.id, name, scope ?? 'ADMIN'),
        ({ apiToken }) => ({
          objectId: apiToken.id,
          summary: `Created API token ${apiToken.prefix}… ${quoted(apiToken.name)} with scope ${apiToken.scope}`,
        }),
      ),
  }),
  revokeApiToken: t.withAuth({ organization: true }).field({
    type: ApiTokenRef,
    description: 'Revokes a token of the organization, the one making this request included: every later request with it is refused.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) =>
      audited(
        context,
        'apiToken.revoke',
        (scoped) => revokeApiToken(scoped.prisma, scoped.organization.id, id),
        (token) => ({ objectId: token.id, summary: `Revoked API token ${token.prefix}… ${quoted(token.name)}` }),
      ),
  }),
}));
