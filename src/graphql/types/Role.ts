// The roles of people in an organization, and the scopes of API tokens (what each may do: docs/people-and-access.md).
import { builder } from '../builder.ts';
import { ApiTokenScope as ApiTokenScopeValues, Role as RoleValues } from '../../generated/prisma/enums.ts';

export const Role = builder.enumType(RoleValues, {
  name: 'Role',
  description: 'What a caller may do in an organization; each role may do all that the ones below it may.',
  values: {
    VIEWER: { description: 'Reads everything of the organization, never a secret.' },
    MEMBER: {
      description: 'Also opens, acknowledges and resolves incidents, gives verdicts, sends test events, resends and recovers deliveries.',
    },
    ADMIN: {
      description:
        'Also manages services and deploy tokens, endpoints and their secrets, alert sources, environments, dependencies and API tokens.',
    },
    OWNER: { description: 'Also manages members and their roles. An organization always keeps an owner.' },
  },
});

export const ApiTokenScope = builder.enumType(ApiTokenScopeValues, {
  name: 'ApiTokenScope',
  description: 'What an API token may do. Tokens made before scopes existed are ADMIN.',
  values: {
    READ: { description: 'As a VIEWER.' },
    WRITE: { description: 'As a MEMBER.' },
    ADMIN: { description: 'As an ADMIN.' },
  },
});
