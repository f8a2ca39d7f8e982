// Tenancy in one place: a row is found by its id only together with the caller's organization,
// so another organization's id (or a malformed one) finds nothing, exactly like an unknown one.
import { isUuid } from '../domain/shared/ids.ts';
import type { AuthenticatedContext } from './context.ts';

/** The Prisma `where` of the caller's row `id`, or null when `id` cannot name a row (then: absent). */
export function ownedWhere(context: AuthenticatedContext, id: string): { id: string; organizationId: string } | null {
  return isUuid(id) ? { id, organizationId: context.organization.id } : null;
}
