// What the pool must know of the request a statement runs for: whose share of the connections it
// counts against (its organization, and a credential or organization held to one connection), and
// the statement timeout of API requests. It follows the
// request through its asynchronous calls (AsyncLocalStorage), so Prisma's queries and
// hand-written SQL alike take their connections under it, and work outside any request (the
// delivery worker, pruning, the rollback judgement) runs with neither.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestScope {
  /** The organization whose share of the pool's connections the request's statements count against. */
  organizationId?: string;
  /**
   * Statements under this key hold one connection at a time (besides the organization's share):
   * a credential being checked (a hash of it) before the organization is known, so a flood of
   * requests with one token queues behind itself; or a credential or organization whose flood of
   * operations is held (see useOperationLimit).
   */
  oneConnectionKey?: string;
  /** The request's statements are cancelled after this long (PostgreSQL's statement_timeout). */
  statementTimeoutMs?: number;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs `work` with `scope` added to the current request's scope. */
export function inRequestScope<T>(scope: RequestScope, work: () => T): T {
  return scopes.run({ ...scopes.getStore(), ...scope }, work);
}

export function currentRequestScope(): RequestScope | undefined {
  return scopes.getStore();
}
