// Roles in an organization, and what an API token's scope counts as. Each role may do all that the
// roles below it may: VIEWER < MEMBER < ADMIN < OWNER.
import type { ApiTokenScope, Role } from '../../generated/prisma/client.ts';
import { ForbiddenError } from './errors.ts';

export type { ApiTokenScope, Role };

/** Lowest first. */
export const ROLES: readonly Role[] = ['VIEWER', 'MEMBER', 'ADMIN', 'OWNER'];
export const API_TOKEN_SCOPES: readonly ApiTokenScope[] = ['READ', 'WRITE', 'ADMIN'];

/** The role a token of each scope acts with. */
export const SCOPE_ROLE: Record<ApiTokenScope, Role> = { READ: 'VIEWER', WRITE: 'MEMBER', ADMIN: 'ADMIN' };

export function hasRole(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}

/** Throws ForbiddenError unless `role` is at least `minimum`; `what` names the action refused. */
export function requireRole(role: Role, minimum: Role, what: string): void {
  if (!hasRole(role, minimum)) throw new ForbiddenError(`${what} needs the ${minimum} role or higher; this caller is ${role}`);
}
