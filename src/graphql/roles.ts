// What role each mutation needs: the one table of it, checked before an operation runs (over HTTP and
// WebSocket alike), so a refused request changes nothing. A mutation missing from the table is
// refused to everyone (and test/roles.test.ts fails), so a new mutation cannot slip through unruled.
// Reads need VIEWER (any member, any token); secrets are shown only by mutations, so reads never show one.
import { getOperationAST, Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { hasRole, type Role } from '../domain/shared/roles.ts';
import type { Context } from './context.ts';
import { forbidden } from './errors.ts';

export const MUTATION_ROLES: Record<string, Role> = {
  // The caller's own sessions and password: anyone signed in.
  revokeSession: 'VIEWER',
  revokeAllSessions: 'VIEWER',
  switchOrganization: 'VIEWER',
  changePassword: 'VIEWER',
  // MEMBER: incidents and their notes, verdicts, test events, resending and recovering deliveries.
  openIncident: 'MEMBER',
  acknowledgeIncident: 'MEMBER',
  resolveIncident: 'MEMBER',
  markSuspect: 'MEMBER',
  addIncidentNote: 'MEMBER',
  sendTestEvent: 'MEMBER',
  sendExample: 'MEMBER',
  pingListeners: 'MEMBER',
  retryDelivery: 'MEMBER',
  resendDelivery: 'MEMBER',
  resendDeliveries: 'MEMBER',
  recoverDeliveries: 'MEMBER',
  // ADMIN: services and deploy tokens, endpoints and their secrets, listeners, alert sources,
  // environments, dependencies, the organization's settings and API tokens.
  createService: 'ADMIN',
  rotateDeployToken: 'ADMIN',
  rotateGitHubWebhookSecret: 'ADMIN',
  createWebhookEndpoint: 'ADMIN',
  updateWebhookEndpoint: 'ADMIN',
  setWebhookEndpointActive: 'ADMIN',
  deleteWebhookEndpoint: 'ADMIN',
  rotateWebhookSecret: 'ADMIN',
  revealWebhookSecret: 'ADMIN',
  createListener: 'ADMIN',
  createAlertSource: 'ADMIN',
  rotateAlertSourceToken: 'ADMIN',
  deleteAlertSource: 'ADMIN',
  setEnvironmentAliases: 'ADMIN',
  setServiceDependencies: 'ADMIN',
  setServiceRepositoryUrl: 'ADMIN',
  setIncidentLookback: 'ADMIN',
  createApiToken: 'ADMIN',
  revokeApiToken: 'ADMIN',
  // OWNER: members and their roles.
  inviteMember: 'OWNER',
  cancelInvite: 'OWNER',
  changeMemberRole: 'OWNER',
  removeMember: 'OWNER',
};

/** The root fields a selection set runs, fragments spread (introspection's __typename aside). */
function rootFields(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, into = new Set<string>()): Set<string> {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (!selection.name.value.startsWith('__')) into.add(selection.name.value);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) rootFields(selection.selectionSet, fragments, into);
    else {
      const fragment = fragments.get(selection.name.value);
      if (fragment) rootFields(fragment.selectionSet, fragments, into);
    }
  }
  return into;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/** The refusal of a mutation field for a caller of `role`, or undefined when it may run. */
export function mutationRefusal(field: string, role: Role): string | undefined {
  const minimum = MUTATION_ROLES[field];
  if (!minimum) return `${field} has no role rule and is refused to everyone`;
  return hasRole(role, minimum) ? undefined : `${field} needs the ${minimum} role or higher; you are ${role}`;
}

/**
 * Refuses a mutation operation whole (FORBIDDEN, nothing runs) when any of its fields needs a
 * higher role than the caller's. Without a caller, scope-auth refuses it (UNAUTHENTICATED).
 */
export function useMutationRoles(): Plugin<Context> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const viewer = args.contextValue.organization;
      if (!viewer) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'mutation') return;
      for (const field of rootFields(operation.selectionSet, fragmentsOf(args.document))) {
        const refusal = mutationRefusal(field, viewer.role);
        if (refusal) {
          setResultAndStopExecution({ errors: [forbidden(refusal)] });
          return;
        }
      }
    },
  };
}
