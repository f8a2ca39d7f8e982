// Every mutation changes the database through `audited`: the change and its audit entry commit
// together (test/audit-log.test.ts runs every mutation of the schema and fails on one that writes
// no entry).
import { actorOfViewer } from '../auth/caller.ts';
import { auditedChange, type AuditSubject, type ChangeOrigin } from '../domain/shared/audit.ts';
import type { AuthenticatedContext } from './context.ts';

/** Who and where a request's changes come from. */
export function changeOrigin(context: AuthenticatedContext): ChangeOrigin {
  return { organizationId: context.organization.id, actor: actorOfViewer(context.organization), ...context.requestFrom };
}

/**
 * Runs `change` with a context whose database work joins one transaction, and writes the entry
 * `describe` makes of its result (`action`: `<type>.<verb>`) in it. Read what the answer shows
 * after it returns, with the caller's own context: the change is committed then.
 */
export function audited<T>(
  context: AuthenticatedContext,
  action: string,
  change: (scoped: AuthenticatedContext) => Promise<T>,
  describe: (result: T) => AuditSubject,
): Promise<T> {
  return auditedChange(context.prisma, changeOrigin(context), action, (prisma) => change({ ...context, prisma }), describe);
}
