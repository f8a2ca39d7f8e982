// Tenancy in one place: a row is found by its id only together with the caller's organization,
// so another organization's id (or a malformed one) finds nothing, exactly like an unknown one.
import { isUuid } from '../domain/ids.ts';
import { viewerOf, type Context } from './context.ts';

/** The Prisma `where` of the caller's row `id`, or null when `id` cannot name a row (then: absent). */
export function ownedWhere(context: Context, id: string | number): { id: string; organizationId: string } | null {
  const text = String(id);
  return isUuid(text) ? { id: text, organizationId: viewerOf(context).id } : null;
}
