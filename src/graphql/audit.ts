// Every mutation changes the database through `audited`: the change and its audit entry commit
// together (test/audit-log.test.ts runs every mutation of the schema and fails on one that writes
// no entry).
import { changeOriginOf } from '../auth/caller.ts';
import { auditedChange, type AuditSubject } from '../domain/shared/audit.ts';
import type { AuthenticatedContext } from './context.ts';

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
  return auditedChange(
    context.prisma,
    changeOriginOf(context.organization, context.requestFrom),
    action,
    (prisma) => change({ ...context, prisma }),
    describe,
  );
}
