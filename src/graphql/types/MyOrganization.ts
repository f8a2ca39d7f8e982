// An organization the signed-in person belongs to, with their role there: what the dashboard's
// organization switch lists. Only its id and name: another organization's data is read by
// switching to it (switchOrganization, or X-Hookline-Organization), never through this. The id is
// organizationId, not id: this is no row of its own for node(id:) to find.
import { builder } from '../builder.ts';
import type { OrganizationMembership } from '../../domain/shared/people.ts';
import { Role } from './Role.ts';

export const MyOrganizationRef = builder.objectRef<OrganizationMembership>('MyOrganization').implement({
  description: 'An organization the signed-in person is a member of, and their role there.',
  fields: (t) => ({
    organizationId: t.exposeID('id', { description: 'What switchOrganization(id:) and X-Hookline-Organization take.' }),
    name: t.exposeString('name'),
    role: t.expose('role', { type: Role }),
  }),
});
