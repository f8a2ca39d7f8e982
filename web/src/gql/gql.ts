/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment ActorFields on Actor {\n    __typename\n    ... on ApiToken { id tokenName: name prefix }\n    ... on AlertSource { id name }\n    ... on Person { id personName: name email }\n    ... on System { name }\n  }\n": typeof types.ActorFieldsFragmentDoc,
    "\n  query Me {\n    me { role person { id email name } organization { id name } organizations { organizationId name role } }\n  }\n": typeof types.MeDocument,
    "\n  mutation SwitchOrganization($id: ID!) {\n    switchOrganization(id: $id) { role organization { id } }\n  }\n": typeof types.SwitchOrganizationDocument,
    "\n  mutation SignOutEverywhere {\n    revokeAllSessions\n  }\n": typeof types.SignOutEverywhereDocument,
    "\n  query HistoryStart {\n    viewer { retentionDays historyStartsAt }\n  }\n": typeof types.HistoryStartDocument,
    "\n  subscription IncidentChanged {\n    incidentUpdated { id }\n  }\n": typeof types.IncidentChangedDocument,
    "\n  query AlertSourcesPage($first: Int, $unrouted: Int) {\n    alertSources(first: $first) {\n      edges {\n        node {\n          id name kind ingestPath tokenPrefix createdAt lastReceivedAt unroutedAlertCount\n          unroutedAlerts(first: $unrouted) {\n            totalCount\n            edges { node { id fingerprint status labels startsAt receivedAt unroutedReason } }\n          }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n    alertSourceKinds { kind label detail ingestInstructions }\n  }\n": typeof types.AlertSourcesPageDocument,
    "\n  mutation CreateAlertSourcePage($name: String!, $kind: AlertSourceKind!) {\n    createAlertSource(name: $name, kind: $kind) { token alertSource { id name kind ingestPath tokenPrefix } }\n  }\n": typeof types.CreateAlertSourcePageDocument,
    "\n  mutation RotateAlertSourceTokenPage($id: ID!) {\n    rotateAlertSourceToken(id: $id) { token alertSource { id name kind ingestPath tokenPrefix } }\n  }\n": typeof types.RotateAlertSourceTokenPageDocument,
    "\n  mutation DeleteAlertSourcePage($id: ID!) { deleteAlertSource(id: $id) }\n": typeof types.DeleteAlertSourcePageDocument,
    "\n  query ApiTokens($first: Int) {\n    apiTokens(first: $first) {\n      edges { node { id name scope prefix createdAt lastUsedAt revokedAt } }\n      pageInfo { hasNextPage }\n    }\n  }\n": typeof types.ApiTokensDocument,
    "\n  mutation CreateApiToken($name: String, $scope: ApiTokenScope!) {\n    createApiToken(name: $name, scope: $scope) {\n      plaintextToken\n      apiToken { id name scope prefix createdAt lastUsedAt revokedAt }\n    }\n  }\n": typeof types.CreateApiTokenDocument,
    "\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { id revokedAt }\n  }\n": typeof types.RevokeApiTokenDocument,
    "\n  query AuditActors {\n    apiTokens(first: 100) { edges { node { id name prefix } } }\n    alertSources(first: 100) { edges { node { id name } } }\n  }\n": typeof types.AuditActorsDocument,
    "\n  query AuditLogPage($filter: AuditLogFilter, $first: Int, $after: String) {\n    auditLog(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges {\n        node {\n          id at action objectId summary ip userAgent\n          actor { ...ActorFields }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.AuditLogPageDocument,
    "\n  query SearchOptions {\n    eventTypes { name }\n    webhookEndpoints(first: 100) { edges { node { id name } } }\n  }\n": typeof types.SearchOptionsDocument,
    "\n  mutation ResendDeliveries($filter: DeliveryFilter!) {\n    resendDeliveries(filter: $filter) { queued skipped hasMore nextFrom }\n  }\n": typeof types.ResendDeliveriesDocument,
    "\n  fragment DeliveryRowFields on Delivery {\n    id status attemptCount createdAt lastAttemptAt\n    endpoint { id name }\n    event { id type }\n    attempts { id number responseStatus error }\n  }\n": typeof types.DeliveryRowFieldsFragmentDoc,
    "\n  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {\n    deliveries(filter: $filter, first: $first, after: $after) {\n      totalCount totalCountIsEstimate\n      edges { node { ...DeliveryRowFields } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.SearchDeliveriesDocument,
    "\n  subscription DeliveriesChanged($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { ...DeliveryRowFields }\n  }\n": typeof types.DeliveriesChangedDocument,
    "\n  query DeliveryPage($id: ID!) {\n    delivery(id: $id) {\n      id status attemptCount createdAt lastAttemptAt nextAttemptAt requestBody\n      event { id type createdAt }\n      endpoint { id name url status }\n      attempts {\n        id number succeeded startedAt durationMs responseStatus error\n        responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded\n        requestHeaders { name value }\n        responseHeaders { name value }\n      }\n    }\n  }\n": typeof types.DeliveryPageDocument,
    "\n  subscription DeliveryChanged($endpointId: ID!) {\n    deliveryUpdated(endpointId: $endpointId) { id status attemptCount }\n  }\n": typeof types.DeliveryChangedDocument,
    "\n  mutation RetryDelivery($id: ID!) {\n    retryDelivery(id: $id) { ...DeliveryFields }\n  }\n": typeof types.RetryDeliveryDocument,
    "\n  mutation ResendDelivery($id: ID!) {\n    resendDelivery(id: $id) { ...DeliveryFields }\n  }\n": typeof types.ResendDeliveryDocument,
    "\n  subscription DeliveryUpdated($endpointId: ID!) {\n    deliveryUpdated(endpointId: $endpointId) { ...DeliveryFields }\n  }\n": typeof types.DeliveryUpdatedDocument,
    "\n  query EndpointDeliveries($id: ID!, $first: Int, $after: String, $status: DeliveryStatus) {\n    webhookEndpoint(id: $id) {\n      id\n      deliveries(first: $first, after: $after, status: $status) {\n        edges { node { ...DeliveryFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.EndpointDeliveriesDocument,
    "\n  query Deploy($id: ID!) {\n    deploy(id: $id) {\n      id commitSha commitMessage branch environment version deployedBy description url deployedAt receivedAt\n      service { id name }\n      commitUrl compareUrl pullRequestUrl\n      commitsSincePrevious { sha message subject body url pullRequestUrl author timestamp leadTimeSeconds derived }\n      authors\n      previousDeploy { id commitSha version deployedAt environment }\n      isRollback restoredDeploy { id commitSha version deployedAt }\n      rolledBack rolledBackBy { id commitSha version deployedAt }\n      suspectIn { rank score verdict incident { id title status severity } }\n      health { alertsBefore alertsAfter incidentsBefore incidentsAfter }\n    }\n  }\n": typeof types.DeployDocument,
    "\n  query ServiceOptions {\n    services(first: 100) { edges { node { id name } } }\n  }\n": typeof types.ServiceOptionsDocument,
    "\n  query Timeline($first: Int, $after: String, $serviceId: ID, $environment: String) {\n    timeline(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {\n      edges {\n        node {\n          __typename\n          ... on Deploy {\n            id commitSha headline branch environment version deployedBy deployedAt isRollback rolledBack\n            service { id name }\n            suspectIn { verdict incident { id title } }\n          }\n          ... on ChangeEvent {\n            id kind summary url environment changedAt\n            service { id name }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.TimelineDocument,
    "\n  query TimelineIncidents($serviceId: ID) {\n    incidents(first: 100, serviceId: $serviceId, orderBy: STARTED_AT) {\n      edges { node { id title severity status environment startedAt service { id name } } }\n    }\n  }\n": typeof types.TimelineIncidentsDocument,
    "\n  fragment DoraWeek on DoraMetrics {\n    from to deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n  }\n": typeof types.DoraWeekFragmentDoc,
    "\n  query Dora($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      from to deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n      failedDeployCount rolledBackCount judgedCausedCount topSuspectCount\n      bands { deploymentFrequency leadTimeForChanges changeFailureRate timeToRestore }\n      byWeek { ...DoraWeek }\n    }\n  }\n": typeof types.DoraDocument,
    "\n  query DoraDays($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      byDay { from to deployCount }\n    }\n  }\n": typeof types.DoraDaysDocument,
    "\n  query DoraEnvironments {\n    environments { name }\n  }\n": typeof types.DoraEnvironmentsDocument,
    "\n  query DoraDrillDowns($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      failedDeploys(first: 100) { reason deploy { id commitSha version environment deployedAt service { id name } } }\n      restoreIncidents(first: 100) { id title severity environment startedAt resolvedAt service { id name } }\n      byService {\n        service { id name }\n        keys { deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate failedDeployCount timeToRestoreSeconds }\n      }\n    }\n  }\n": typeof types.DoraDrillDownsDocument,
    "\n  mutation UpdateEndpoint(\n    $id: ID!\n    $url: String\n    $name: String\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    updateWebhookEndpoint(\n      id: $id\n      url: $url\n      name: $name\n      eventTypes: $eventTypes\n      headers: $headers\n      timeoutMs: $timeoutMs\n      rateLimitPerSecond: $rateLimitPerSecond\n    ) { ...EndpointFields }\n  }\n": typeof types.UpdateEndpointDocument,
    "\n  query Endpoint($id: ID!) {\n    webhookEndpoint(id: $id) { ...EndpointFields }\n    webhookDestinationPolicy { allowHttp maxTimeoutMs }\n  }\n": typeof types.EndpointDocument,
    "\n  mutation SendTestEvent($endpointId: ID!) {\n    sendTestEvent(endpointId: $endpointId) { ...DeliveryFields }\n  }\n": typeof types.SendTestEventDocument,
    "\n  mutation SetEndpointActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { ...EndpointFields }\n  }\n": typeof types.SetEndpointActiveDocument,
    "\n  mutation RotateSecret($id: ID!, $gracePeriodSeconds: Int) {\n    rotateWebhookSecret(id: $id, gracePeriodSeconds: $gracePeriodSeconds) { signingSecret endpoint { ...EndpointFields previousSecretExpiresAt } }\n  }\n": typeof types.RotateSecretDocument,
    "\n  mutation DeleteEndpoint($id: ID!) {\n    deleteWebhookEndpoint(id: $id)\n  }\n": typeof types.DeleteEndpointDocument,
    "\n  query EndpointChart($id: ID!, $interval: ChartInterval!, $from: DateTime!, $to: DateTime!) {\n    webhookEndpoint(id: $id) {\n      id\n      chart(interval: $interval, from: $from, to: $to) { start deliveries succeeded failed successRate attempts latencyP50Ms latencyP95Ms }\n    }\n  }\n": typeof types.EndpointChartDocument,
    "\n  query EndpointFormSettings {\n    webhookDestinationPolicy { allowHttp allowPrivate minTimeoutMs maxTimeoutMs maxRateLimitPerSecond }\n    eventTypes { name label }\n  }\n": typeof types.EndpointFormSettingsDocument,
    "\n  query EndpointSecret($id: ID!) {\n    webhookEndpoint(id: $id) {\n      id previousSecretExpiresAt\n      secretReveals { id revealedAt apiToken { id name prefix } person { id name email } }\n    }\n  }\n": typeof types.EndpointSecretDocument,
    "\n  mutation RevealSecret($id: ID!) {\n    revealWebhookSecret(id: $id) { signingSecret endpoint { id } }\n  }\n": typeof types.RevealSecretDocument,
    "\n  query DashboardEnvironments { environments { name aliases spellings } }\n": typeof types.DashboardEnvironmentsDocument,
    "\n  mutation DashboardSetEnvironmentAliases($environment: String!, $aliases: [String!]!) {\n    setEnvironmentAliases(environment: $environment, aliases: $aliases) { name aliases spellings }\n  }\n": typeof types.DashboardSetEnvironmentAliasesDocument,
    "\n  fragment EventSummary on Event {\n    id type createdAt example\n    deliveries(first: 10) {\n      totalCount\n      edges { node { id status attemptCount endpoint { id name } } }\n    }\n  }\n": typeof types.EventSummaryFragmentDoc,
    "\n  query SearchEvents($filter: EventFilter, $first: Int, $after: String) {\n    events(filter: $filter, first: $first, after: $after) {\n      totalCount totalCountIsEstimate\n      edges { node { ...EventSummary } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.SearchEventsDocument,
    "\n  query EventPage($id: ID!) {\n    event(id: $id) { ...EventSummary data }\n  }\n": typeof types.EventPageDocument,
    "\n  fragment IncidentFields on Incident {\n    id title severity status environment startedAt openedAt acknowledgedAt resolvedAt\n    acknowledgedBy { ...ActorFields }\n    resolvedBy { ...ActorFields }\n    notes { id body createdAt author { ...ActorFields } }\n    timeline {\n      kind at\n      actor { ...ActorFields }\n      alert { id fingerprint }\n      note { id }\n      verdict\n      deploy { id commitSha version }\n      change { id summary }\n    }\n    service { id name }\n    alertSource { id name kind }\n    alerts(first: 50) {\n      totalCount\n      edges { node { id fingerprint status labels annotations startsAt endsAt generatorURL } }\n    }\n    suspects {\n      rank score verdict verdictAt\n      reasons { code detail effect }\n      mainReason { code detail effect }\n      deploy {\n        id commitSha commitMessage headline version environment deployedAt deployedBy isRollback rolledBack service { id name }\n        commitUrl compareUrl pullRequestUrl\n      }\n      change { id kind summary url environment changedAt service { id name } }\n    }\n  }\n": typeof types.IncidentFieldsFragmentDoc,
    "\n  query Incident($id: ID!) {\n    incident(id: $id) { ...IncidentFields }\n  }\n": typeof types.IncidentDocument,
    "\n  mutation AcknowledgeIncident($id: ID!) {\n    acknowledgeIncident(id: $id) { ...IncidentFields }\n  }\n": typeof types.AcknowledgeIncidentDocument,
    "\n  mutation ResolveIncident($id: ID!) {\n    resolveIncident(id: $id) { ...IncidentFields }\n  }\n": typeof types.ResolveIncidentDocument,
    "\n  mutation AddIncidentNote($incidentId: ID!, $body: String!) {\n    addIncidentNote(incidentId: $incidentId, body: $body) { id incident { ...IncidentFields } }\n  }\n": typeof types.AddIncidentNoteDocument,
    "\n  mutation MarkSuspect($incidentId: ID!, $deployId: ID, $changeId: ID, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: $verdict) { ...IncidentFields }\n  }\n": typeof types.MarkSuspectDocument,
    "\n  query Incidents($status: IncidentStatus, $after: String) {\n    incidents(first: 50, status: $status, after: $after, orderBy: STARTED_AT) {\n      edges {\n        node {\n          id title severity status environment startedAt openedAt resolvedAt service { id name }\n          suspects { score deploy { id commitSha version service { id name } } change { id kind summary service { id name } } }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.IncidentsDocument,
    "\n  mutation OpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) { id }\n  }\n": typeof types.OpenIncidentDocument,
    "\n  query PendingInvites {\n    pendingInvites { id email role createdAt expiresAt invitedBy { id name } }\n  }\n": typeof types.PendingInvitesDocument,
    "\n  mutation CancelInvite($id: ID!) {\n    cancelInvite(id: $id) { id }\n  }\n": typeof types.CancelInviteDocument,
    "\n  query Members {\n    members(first: 100) {\n      edges { node { id role joinedAt person { id email name } } }\n      pageInfo { hasNextPage }\n    }\n  }\n": typeof types.MembersDocument,
    "\n  mutation InviteMember($email: String!, $role: Role!) {\n    inviteMember(email: $email, role: $role) { inviteUrl expiresAt }\n  }\n": typeof types.InviteMemberDocument,
    "\n  mutation ChangeMemberRole($personId: ID!, $role: Role!) {\n    changeMemberRole(personId: $personId, role: $role) { id role }\n  }\n": typeof types.ChangeMemberRoleDocument,
    "\n  mutation RemoveMember($personId: ID!) {\n    removeMember(personId: $personId)\n  }\n": typeof types.RemoveMemberDocument,
    "\n  fragment OnCallIncidentFields on Incident {\n    id title severity status environment startedAt\n    service { id name }\n    suspects {\n      score verdict\n      deploy { id commitSha version environment deployedAt deployedBy service { id name } }\n      change { id kind summary actor changedAt service { id name } }\n    }\n  }\n": typeof types.OnCallIncidentFieldsFragmentDoc,
    "\n  query OnCallIncidents($first: Int) {\n    open: incidents(first: $first, status: OPEN) { edges { node { ...OnCallIncidentFields } } pageInfo { hasNextPage } }\n    acknowledged: incidents(first: $first, status: ACKNOWLEDGED) { edges { node { ...OnCallIncidentFields } } pageInfo { hasNextPage } }\n  }\n": typeof types.OnCallIncidentsDocument,
    "\n  query OnCallDeploys($first: Int) {\n    deploys(first: $first) {\n      edges { node { id commitSha version environment deployedAt deployedBy isRollback service { id name } } }\n    }\n  }\n": typeof types.OnCallDeploysDocument,
    "\n  query OnCallEndpoints($first: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name url status consecutiveFailures disabledAt disabledReason\n          latestDelivery { id status createdAt event { type } }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n  }\n": typeof types.OnCallEndpointsDocument,
    "\n  subscription OnCallDeliveryAttempted {\n    deliveryUpdated { id status attemptCount }\n  }\n": typeof types.OnCallDeliveryAttemptedDocument,
    "\n  mutation ReenableEndpoint($id: ID!) {\n    setWebhookEndpointActive(id: $id, active: true) { ...EndpointFields }\n  }\n": typeof types.ReenableEndpointDocument,
    "\n  mutation RecoverDeliveries($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }\n  }\n": typeof types.RecoverDeliveriesDocument,
    "\n  query Service($id: ID!) {\n    service(id: $id) {\n      id name deployTokenPrefix createdAt gitHubWebhookSecretCreatedAt repositoryUrl\n      dependsOn { id name }\n      dependents { id name }\n      deploys(first: 10) {\n        edges { node { id commitSha headline environment version deployedBy deployedAt } }\n      }\n      incidents(first: 5) {\n        edges { node { id title severity status openedAt } }\n      }\n    }\n  }\n": typeof types.ServiceDocument,
    "\n  mutation RotateDeployToken($serviceId: ID!) {\n    rotateDeployToken(serviceId: $serviceId) {\n      deployToken\n      service { id deployTokenPrefix }\n    }\n  }\n": typeof types.RotateDeployTokenDocument,
    "\n  mutation RotateGitHubWebhookSecret($serviceId: ID!) {\n    rotateGitHubWebhookSecret(serviceId: $serviceId) {\n      secret payloadPath\n      service { id gitHubWebhookSecretCreatedAt }\n    }\n  }\n": typeof types.RotateGitHubWebhookSecretDocument,
    "\n  mutation SetServiceRepositoryUrl($serviceId: ID!, $url: String) {\n    setServiceRepositoryUrl(serviceId: $serviceId, url: $url) { id repositoryUrl }\n  }\n": typeof types.SetServiceRepositoryUrlDocument,
    "\n  mutation SetServiceDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id dependsOn { id name } dependents { id name } }\n  }\n": typeof types.SetServiceDependenciesDocument,
    "\n  query Services($first: Int) {\n    services(first: $first) {\n      edges { node { id name deployTokenPrefix createdAt } }\n      pageInfo { hasNextPage }\n    }\n  }\n": typeof types.ServicesDocument,
    "\n  mutation CreateService($name: String!) {\n    createService(name: $name) {\n      deployToken\n      service { id name deployTokenPrefix createdAt }\n    }\n  }\n": typeof types.CreateServiceDocument,
    "\n  query Sessions {\n    sessions { id current createdAt lastSeenAt expiresAt absoluteExpiresAt ip userAgent }\n  }\n": typeof types.SessionsDocument,
    "\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id) { id }\n  }\n": typeof types.RevokeSessionDocument,
    "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)\n  }\n": typeof types.ChangePasswordDocument,
    "\n  query Endpoints {\n    webhookEndpoints(first: 50) {\n      edges {\n        node {\n          ...EndpointFields\n          stats { deliveriesLast24h succeededLast24h failedLast24h successRateLast24h }\n          latestDelivery { id status createdAt event { type } }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n  }\n": typeof types.EndpointsDocument,
    "\n  mutation CreateEndpoint(\n    $url: String!\n    $name: String!\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      signingSecret\n      endpoint { ...EndpointFields }\n    }\n  }\n": typeof types.CreateEndpointDocument,
    "\n  fragment EndpointFields on WebhookEndpoint {\n    id url name status eventTypes consecutiveFailures pendingRetries overdueDeliveries disabledAt disabledReason createdAt updatedAt\n    headers { name value } timeoutMs rateLimitPerSecond\n  }\n": typeof types.EndpointFieldsFragmentDoc,
    "\n  fragment DeliveryFields on Delivery {\n    id status attemptCount createdAt updatedAt lastAttemptAt nextAttemptAt\n    event { id type createdAt }\n    attempts { id number succeeded startedAt durationMs responseStatus responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded error }\n  }\n": typeof types.DeliveryFieldsFragmentDoc,
};
const documents: Documents = {
    "\n  fragment ActorFields on Actor {\n    __typename\n    ... on ApiToken { id tokenName: name prefix }\n    ... on AlertSource { id name }\n    ... on Person { id personName: name email }\n    ... on System { name }\n  }\n": types.ActorFieldsFragmentDoc,
    "\n  query Me {\n    me { role person { id email name } organization { id name } organizations { organizationId name role } }\n  }\n": types.MeDocument,
    "\n  mutation SwitchOrganization($id: ID!) {\n    switchOrganization(id: $id) { role organization { id } }\n  }\n": types.SwitchOrganizationDocument,
    "\n  mutation SignOutEverywhere {\n    revokeAllSessions\n  }\n": types.SignOutEverywhereDocument,
    "\n  query HistoryStart {\n    viewer { retentionDays historyStartsAt }\n  }\n": types.HistoryStartDocument,
    "\n  subscription IncidentChanged {\n    incidentUpdated { id }\n  }\n": types.IncidentChangedDocument,
    "\n  query AlertSourcesPage($first: Int, $unrouted: Int) {\n    alertSources(first: $first) {\n      edges {\n        node {\n          id name kind ingestPath tokenPrefix createdAt lastReceivedAt unroutedAlertCount\n          unroutedAlerts(first: $unrouted) {\n            totalCount\n            edges { node { id fingerprint status labels startsAt receivedAt unroutedReason } }\n          }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n    alertSourceKinds { kind label detail ingestInstructions }\n  }\n": types.AlertSourcesPageDocument,
    "\n  mutation CreateAlertSourcePage($name: String!, $kind: AlertSourceKind!) {\n    createAlertSource(name: $name, kind: $kind) { token alertSource { id name kind ingestPath tokenPrefix } }\n  }\n": types.CreateAlertSourcePageDocument,
    "\n  mutation RotateAlertSourceTokenPage($id: ID!) {\n    rotateAlertSourceToken(id: $id) { token alertSource { id name kind ingestPath tokenPrefix } }\n  }\n": types.RotateAlertSourceTokenPageDocument,
    "\n  mutation DeleteAlertSourcePage($id: ID!) { deleteAlertSource(id: $id) }\n": types.DeleteAlertSourcePageDocument,
    "\n  query ApiTokens($first: Int) {\n    apiTokens(first: $first) {\n      edges { node { id name scope prefix createdAt lastUsedAt revokedAt } }\n      pageInfo { hasNextPage }\n    }\n  }\n": types.ApiTokensDocument,
    "\n  mutation CreateApiToken($name: String, $scope: ApiTokenScope!) {\n    createApiToken(name: $name, scope: $scope) {\n      plaintextToken\n      apiToken { id name scope prefix createdAt lastUsedAt revokedAt }\n    }\n  }\n": types.CreateApiTokenDocument,
    "\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { id revokedAt }\n  }\n": types.RevokeApiTokenDocument,
    "\n  query AuditActors {\n    apiTokens(first: 100) { edges { node { id name prefix } } }\n    alertSources(first: 100) { edges { node { id name } } }\n  }\n": types.AuditActorsDocument,
    "\n  query AuditLogPage($filter: AuditLogFilter, $first: Int, $after: String) {\n    auditLog(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges {\n        node {\n          id at action objectId summary ip userAgent\n          actor { ...ActorFields }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.AuditLogPageDocument,
    "\n  query SearchOptions {\n    eventTypes { name }\n    webhookEndpoints(first: 100) { edges { node { id name } } }\n  }\n": types.SearchOptionsDocument,
    "\n  mutation ResendDeliveries($filter: DeliveryFilter!) {\n    resendDeliveries(filter: $filter) { queued skipped hasMore nextFrom }\n  }\n": types.ResendDeliveriesDocument,
    "\n  fragment DeliveryRowFields on Delivery {\n    id status attemptCount createdAt lastAttemptAt\n    endpoint { id name }\n    event { id type }\n    attempts { id number responseStatus error }\n  }\n": types.DeliveryRowFieldsFragmentDoc,
    "\n  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {\n    deliveries(filter: $filter, first: $first, after: $after) {\n      totalCount totalCountIsEstimate\n      edges { node { ...DeliveryRowFields } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.SearchDeliveriesDocument,
    "\n  subscription DeliveriesChanged($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { ...DeliveryRowFields }\n  }\n": types.DeliveriesChangedDocument,
    "\n  query DeliveryPage($id: ID!) {\n    delivery(id: $id) {\n      id status attemptCount createdAt lastAttemptAt nextAttemptAt requestBody\n      event { id type createdAt }\n      endpoint { id name url status }\n      attempts {\n        id number succeeded startedAt durationMs responseStatus error\n        responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded\n        requestHeaders { name value }\n        responseHeaders { name value }\n      }\n    }\n  }\n": types.DeliveryPageDocument,
    "\n  subscription DeliveryChanged($endpointId: ID!) {\n    deliveryUpdated(endpointId: $endpointId) { id status attemptCount }\n  }\n": types.DeliveryChangedDocument,
    "\n  mutation RetryDelivery($id: ID!) {\n    retryDelivery(id: $id) { ...DeliveryFields }\n  }\n": types.RetryDeliveryDocument,
    "\n  mutation ResendDelivery($id: ID!) {\n    resendDelivery(id: $id) { ...DeliveryFields }\n  }\n": types.ResendDeliveryDocument,
    "\n  subscription DeliveryUpdated($endpointId: ID!) {\n    deliveryUpdated(endpointId: $endpointId) { ...DeliveryFields }\n  }\n": types.DeliveryUpdatedDocument,
    "\n  query EndpointDeliveries($id: ID!, $first: Int, $after: String, $status: DeliveryStatus) {\n    webhookEndpoint(id: $id) {\n      id\n      deliveries(first: $first, after: $after, status: $status) {\n        edges { node { ...DeliveryFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.EndpointDeliveriesDocument,
    "\n  query Deploy($id: ID!) {\n    deploy(id: $id) {\n      id commitSha commitMessage branch environment version deployedBy description url deployedAt receivedAt\n      service { id name }\n      commitUrl compareUrl pullRequestUrl\n      commitsSincePrevious { sha message subject body url pullRequestUrl author timestamp leadTimeSeconds derived }\n      authors\n      previousDeploy { id commitSha version deployedAt environment }\n      isRollback restoredDeploy { id commitSha version deployedAt }\n      rolledBack rolledBackBy { id commitSha version deployedAt }\n      suspectIn { rank score verdict incident { id title status severity } }\n      health { alertsBefore alertsAfter incidentsBefore incidentsAfter }\n    }\n  }\n": types.DeployDocument,
    "\n  query ServiceOptions {\n    services(first: 100) { edges { node { id name } } }\n  }\n": types.ServiceOptionsDocument,
    "\n  query Timeline($first: Int, $after: String, $serviceId: ID, $environment: String) {\n    timeline(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {\n      edges {\n        node {\n          __typename\n          ... on Deploy {\n            id commitSha headline branch environment version deployedBy deployedAt isRollback rolledBack\n            service { id name }\n            suspectIn { verdict incident { id title } }\n          }\n          ... on ChangeEvent {\n            id kind summary url environment changedAt\n            service { id name }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.TimelineDocument,
    "\n  query TimelineIncidents($serviceId: ID) {\n    incidents(first: 100, serviceId: $serviceId, orderBy: STARTED_AT) {\n      edges { node { id title severity status environment startedAt service { id name } } }\n    }\n  }\n": types.TimelineIncidentsDocument,
    "\n  fragment DoraWeek on DoraMetrics {\n    from to deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n  }\n": types.DoraWeekFragmentDoc,
    "\n  query Dora($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      from to deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n      failedDeployCount rolledBackCount judgedCausedCount topSuspectCount\n      bands { deploymentFrequency leadTimeForChanges changeFailureRate timeToRestore }\n      byWeek { ...DoraWeek }\n    }\n  }\n": types.DoraDocument,
    "\n  query DoraDays($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      byDay { from to deployCount }\n    }\n  }\n": types.DoraDaysDocument,
    "\n  query DoraEnvironments {\n    environments { name }\n  }\n": types.DoraEnvironmentsDocument,
    "\n  query DoraDrillDowns($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      failedDeploys(first: 100) { reason deploy { id commitSha version environment deployedAt service { id name } } }\n      restoreIncidents(first: 100) { id title severity environment startedAt resolvedAt service { id name } }\n      byService {\n        service { id name }\n        keys { deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate failedDeployCount timeToRestoreSeconds }\n      }\n    }\n  }\n": types.DoraDrillDownsDocument,
    "\n  mutation UpdateEndpoint(\n    $id: ID!\n    $url: String\n    $name: String\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    updateWebhookEndpoint(\n      id: $id\n      url: $url\n      name: $name\n      eventTypes: $eventTypes\n      headers: $headers\n      timeoutMs: $timeoutMs\n      rateLimitPerSecond: $rateLimitPerSecond\n    ) { ...EndpointFields }\n  }\n": types.UpdateEndpointDocument,
    "\n  query Endpoint($id: ID!) {\n    webhookEndpoint(id: $id) { ...EndpointFields }\n    webhookDestinationPolicy { allowHttp maxTimeoutMs }\n  }\n": types.EndpointDocument,
    "\n  mutation SendTestEvent($endpointId: ID!) {\n    sendTestEvent(endpointId: $endpointId) { ...DeliveryFields }\n  }\n": types.SendTestEventDocument,
    "\n  mutation SetEndpointActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { ...EndpointFields }\n  }\n": types.SetEndpointActiveDocument,
    "\n  mutation RotateSecret($id: ID!, $gracePeriodSeconds: Int) {\n    rotateWebhookSecret(id: $id, gracePeriodSeconds: $gracePeriodSeconds) { signingSecret endpoint { ...EndpointFields previousSecretExpiresAt } }\n  }\n": types.RotateSecretDocument,
    "\n  mutation DeleteEndpoint($id: ID!) {\n    deleteWebhookEndpoint(id: $id)\n  }\n": types.DeleteEndpointDocument,
    "\n  query EndpointChart($id: ID!, $interval: ChartInterval!, $from: DateTime!, $to: DateTime!) {\n    webhookEndpoint(id: $id) {\n      id\n      chart(interval: $interval, from: $from, to: $to) { start deliveries succeeded failed successRate attempts latencyP50Ms latencyP95Ms }\n    }\n  }\n": types.EndpointChartDocument,
    "\n  query EndpointFormSettings {\n    webhookDestinationPolicy { allowHttp allowPrivate minTimeoutMs maxTimeoutMs maxRateLimitPerSecond }\n    eventTypes { name label }\n  }\n": types.EndpointFormSettingsDocument,
    "\n  query EndpointSecret($id: ID!) {\n    webhookEndpoint(id: $id) {\n      id previousSecretExpiresAt\n      secretReveals { id revealedAt apiToken { id name prefix } person { id name email } }\n    }\n  }\n": types.EndpointSecretDocument,
    "\n  mutation RevealSecret($id: ID!) {\n    revealWebhookSecret(id: $id) { signingSecret endpoint { id } }\n  }\n": types.RevealSecretDocument,
    "\n  query DashboardEnvironments { environments { name aliases spellings } }\n": types.DashboardEnvironmentsDocument,
    "\n  mutation DashboardSetEnvironmentAliases($environment: String!, $aliases: [String!]!) {\n    setEnvironmentAliases(environment: $environment, aliases: $aliases) { name aliases spellings }\n  }\n": types.DashboardSetEnvironmentAliasesDocument,
    "\n  fragment EventSummary on Event {\n    id type createdAt example\n    deliveries(first: 10) {\n      totalCount\n      edges { node { id status attemptCount endpoint { id name } } }\n    }\n  }\n": types.EventSummaryFragmentDoc,
    "\n  query SearchEvents($filter: EventFilter, $first: Int, $after: String) {\n    events(filter: $filter, first: $first, after: $after) {\n      totalCount totalCountIsEstimate\n      edges { node { ...EventSummary } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.SearchEventsDocument,
    "\n  query EventPage($id: ID!) {\n    event(id: $id) { ...EventSummary data }\n  }\n": types.EventPageDocument,
    "\n  fragment IncidentFields on Incident {\n    id title severity status environment startedAt openedAt acknowledgedAt resolvedAt\n    acknowledgedBy { ...ActorFields }\n    resolvedBy { ...ActorFields }\n    notes { id body createdAt author { ...ActorFields } }\n    timeline {\n      kind at\n      actor { ...ActorFields }\n      alert { id fingerprint }\n      note { id }\n      verdict\n      deploy { id commitSha version }\n      change { id summary }\n    }\n    service { id name }\n    alertSource { id name kind }\n    alerts(first: 50) {\n      totalCount\n      edges { node { id fingerprint status labels annotations startsAt endsAt generatorURL } }\n    }\n    suspects {\n      rank score verdict verdictAt\n      reasons { code detail effect }\n      mainReason { code detail effect }\n      deploy {\n        id commitSha commitMessage headline version environment deployedAt deployedBy isRollback rolledBack service { id name }\n        commitUrl compareUrl pullRequestUrl\n      }\n      change { id kind summary url environment changedAt service { id name } }\n    }\n  }\n": types.IncidentFieldsFragmentDoc,
    "\n  query Incident($id: ID!) {\n    incident(id: $id) { ...IncidentFields }\n  }\n": types.IncidentDocument,
    "\n  mutation AcknowledgeIncident($id: ID!) {\n    acknowledgeIncident(id: $id) { ...IncidentFields }\n  }\n": types.AcknowledgeIncidentDocument,
    "\n  mutation ResolveIncident($id: ID!) {\n    resolveIncident(id: $id) { ...IncidentFields }\n  }\n": types.ResolveIncidentDocument,
    "\n  mutation AddIncidentNote($incidentId: ID!, $body: String!) {\n    addIncidentNote(incidentId: $incidentId, body: $body) { id incident { ...IncidentFields } }\n  }\n": types.AddIncidentNoteDocument,
    "\n  mutation MarkSuspect($incidentId: ID!, $deployId: ID, $changeId: ID, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: $verdict) { ...IncidentFields }\n  }\n": types.MarkSuspectDocument,
    "\n  query Incidents($status: IncidentStatus, $after: String) {\n    incidents(first: 50, status: $status, after: $after, orderBy: STARTED_AT) {\n      edges {\n        node {\n          id title severity status environment startedAt openedAt resolvedAt service { id name }\n          suspects { score deploy { id commitSha version service { id name } } change { id kind summary service { id name } } }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.IncidentsDocument,
    "\n  mutation OpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) { id }\n  }\n": types.OpenIncidentDocument,
    "\n  query PendingInvites {\n    pendingInvites { id email role createdAt expiresAt invitedBy { id name } }\n  }\n": types.PendingInvitesDocument,
    "\n  mutation CancelInvite($id: ID!) {\n    cancelInvite(id: $id) { id }\n  }\n": types.CancelInviteDocument,
    "\n  query Members {\n    members(first: 100) {\n      edges { node { id role joinedAt person { id email name } } }\n      pageInfo { hasNextPage }\n    }\n  }\n": types.MembersDocument,
    "\n  mutation InviteMember($email: String!, $role: Role!) {\n    inviteMember(email: $email, role: $role) { inviteUrl expiresAt }\n  }\n": types.InviteMemberDocument,
    "\n  mutation ChangeMemberRole($personId: ID!, $role: Role!) {\n    changeMemberRole(personId: $personId, role: $role) { id role }\n  }\n": types.ChangeMemberRoleDocument,
    "\n  mutation RemoveMember($personId: ID!) {\n    removeMember(personId: $personId)\n  }\n": types.RemoveMemberDocument,
    "\n  fragment OnCallIncidentFields on Incident {\n    id title severity status environment startedAt\n    service { id name }\n    suspects {\n      score verdict\n      deploy { id commitSha version environment deployedAt deployedBy service { id name } }\n      change { id kind summary actor changedAt service { id name } }\n    }\n  }\n": types.OnCallIncidentFieldsFragmentDoc,
    "\n  query OnCallIncidents($first: Int) {\n    open: incidents(first: $first, status: OPEN) { edges { node { ...OnCallIncidentFields } } pageInfo { hasNextPage } }\n    acknowledged: incidents(first: $first, status: ACKNOWLEDGED) { edges { node { ...OnCallIncidentFields } } pageInfo { hasNextPage } }\n  }\n": types.OnCallIncidentsDocument,
    "\n  query OnCallDeploys($first: Int) {\n    deploys(first: $first) {\n      edges { node { id commitSha version environment deployedAt deployedBy isRollback service { id name } } }\n    }\n  }\n": types.OnCallDeploysDocument,
    "\n  query OnCallEndpoints($first: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name url status consecutiveFailures disabledAt disabledReason\n          latestDelivery { id status createdAt event { type } }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n  }\n": types.OnCallEndpointsDocument,
    "\n  subscription OnCallDeliveryAttempted {\n    deliveryUpdated { id status attemptCount }\n  }\n": types.OnCallDeliveryAttemptedDocument,
    "\n  mutation ReenableEndpoint($id: ID!) {\n    setWebhookEndpointActive(id: $id, active: true) { ...EndpointFields }\n  }\n": types.ReenableEndpointDocument,
    "\n  mutation RecoverDeliveries($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }\n  }\n": types.RecoverDeliveriesDocument,
    "\n  query Service($id: ID!) {\n    service(id: $id) {\n      id name deployTokenPrefix createdAt gitHubWebhookSecretCreatedAt repositoryUrl\n      dependsOn { id name }\n      dependents { id name }\n      deploys(first: 10) {\n        edges { node { id commitSha headline environment version deployedBy deployedAt } }\n      }\n      incidents(first: 5) {\n        edges { node { id title severity status openedAt } }\n      }\n    }\n  }\n": types.ServiceDocument,
    "\n  mutation RotateDeployToken($serviceId: ID!) {\n    rotateDeployToken(serviceId: $serviceId) {\n      deployToken\n      service { id deployTokenPrefix }\n    }\n  }\n": types.RotateDeployTokenDocument,
    "\n  mutation RotateGitHubWebhookSecret($serviceId: ID!) {\n    rotateGitHubWebhookSecret(serviceId: $serviceId) {\n      secret payloadPath\n      service { id gitHubWebhookSecretCreatedAt }\n    }\n  }\n": types.RotateGitHubWebhookSecretDocument,
    "\n  mutation SetServiceRepositoryUrl($serviceId: ID!, $url: String) {\n    setServiceRepositoryUrl(serviceId: $serviceId, url: $url) { id repositoryUrl }\n  }\n": types.SetServiceRepositoryUrlDocument,
    "\n  mutation SetServiceDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id dependsOn { id name } dependents { id name } }\n  }\n": types.SetServiceDependenciesDocument,
    "\n  query Services($first: Int) {\n    services(first: $first) {\n      edges { node { id name deployTokenPrefix createdAt } }\n      pageInfo { hasNextPage }\n    }\n  }\n": types.ServicesDocument,
    "\n  mutation CreateService($name: String!) {\n    createService(name: $name) {\n      deployToken\n      service { id name deployTokenPrefix createdAt }\n    }\n  }\n": types.CreateServiceDocument,
    "\n  query Sessions {\n    sessions { id current createdAt lastSeenAt expiresAt absoluteExpiresAt ip userAgent }\n  }\n": types.SessionsDocument,
    "\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id) { id }\n  }\n": types.RevokeSessionDocument,
    "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)\n  }\n": types.ChangePasswordDocument,
    "\n  query Endpoints {\n    webhookEndpoints(first: 50) {\n      edges {\n        node {\n          ...EndpointFields\n          stats { deliveriesLast24h succeededLast24h failedLast24h successRateLast24h }\n          latestDelivery { id status createdAt event { type } }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n  }\n": types.EndpointsDocument,
    "\n  mutation CreateEndpoint(\n    $url: String!\n    $name: String!\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      signingSecret\n      endpoint { ...EndpointFields }\n    }\n  }\n": types.CreateEndpointDocument,
    "\n  fragment EndpointFields on WebhookEndpoint {\n    id url name status eventTypes consecutiveFailures pendingRetries overdueDeliveries disabledAt disabledReason createdAt updatedAt\n    headers { name value } timeoutMs rateLimitPerSecond\n  }\n": types.EndpointFieldsFragmentDoc,
    "\n  fragment DeliveryFields on Delivery {\n    id status attemptCount createdAt updatedAt lastAttemptAt nextAttemptAt\n    event { id type createdAt }\n    attempts { id number succeeded startedAt durationMs responseStatus responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded error }\n  }\n": types.DeliveryFieldsFragmentDoc,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ActorFields on Actor {\n    __typename\n    ... on ApiToken { id tokenName: name prefix }\n    ... on AlertSource { id name }\n    ... on Person { id personName: name email }\n    ... on System { name }\n  }\n"): (typeof documents)["\n  fragment ActorFields on Actor {\n    __typename\n    ... on ApiToken { id tokenName: name prefix }\n    ... on AlertSource { id name }\n    ... on Person { id personName: name email }\n    ... on System { name }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me { role person { id email name } organization { id name } organizations { organizationId name role } }\n  }\n"): (typeof documents)["\n  query Me {\n    me { role person { id email name } organization { id name } organizations { organizationId name role } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SwitchOrganization($id: ID!) {\n    switchOrganization(id: $id) { role organization { id } }\n  }\n"): (typeof documents)["\n  mutation SwitchOrganization($id: ID!) {\n    switchOrganization(id: $id) { role organization { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignOutEverywhere {\n    revokeAllSessions\n  }\n"): (typeof documents)["\n  mutation SignOutEverywhere {\n    revokeAllSessions\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query HistoryStart {\n    viewer { retentionDays historyStartsAt }\n  }\n"): (typeof documents)["\n  query HistoryStart {\n    viewer { retentionDays historyStartsAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription IncidentChanged {\n    incidentUpdated { id }\n  }\n"): (typeof documents)["\n  subscription IncidentChanged {\n    incidentUpdated { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AlertSourcesPage($first: Int, $unrouted: Int) {\n    alertSources(first: $first) {\n      edges {\n        node {\n          id name kind ingestPath tokenPrefix createdAt lastReceivedAt unroutedAlertCount\n          unroutedAlerts(first: $unrouted) {\n            totalCount\n            edges { node { id fingerprint status labels startsAt receivedAt unroutedReason } }\n          }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n    alertSourceKinds { kind label detail ingestInstructions }\n  }\n"): (typeof documents)["\n  query AlertSourcesPage($first: Int, $unrouted: Int) {\n    alertSources(first: $first) {\n      edges {\n        node {\n          id name kind ingestPath tokenPrefix createdAt lastReceivedAt unroutedAlertCount\n          unroutedAlerts(first: $unrouted) {\n            totalCount\n            edges { node { id fingerprint status labels startsAt receivedAt unroutedReason } }\n          }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n    alertSourceKinds { kind label detail ingestInstructions }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateAlertSourcePage($name: String!, $kind: AlertSourceKind!) {\n    createAlertSource(name: $name, kind: $kind) { token alertSource { id name kind ingestPath tokenPrefix } }\n  }\n"): (typeof documents)["\n  mutation CreateAlertSourcePage($name: String!, $kind: AlertSourceKind!) {\n    createAlertSource(name: $name, kind: $kind) { token alertSource { id name kind ingestPath tokenPrefix } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateAlertSourceTokenPage($id: ID!) {\n    rotateAlertSourceToken(id: $id) { token alertSource { id name kind ingestPath tokenPrefix } }\n  }\n"): (typeof documents)["\n  mutation RotateAlertSourceTokenPage($id: ID!) {\n    rotateAlertSourceToken(id: $id) { token alertSource { id name kind ingestPath tokenPrefix } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteAlertSourcePage($id: ID!) { deleteAlertSource(id: $id) }\n"): (typeof documents)["\n  mutation DeleteAlertSourcePage($id: ID!) { deleteAlertSource(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiTokens($first: Int) {\n    apiTokens(first: $first) {\n      edges { node { id name scope prefix createdAt lastUsedAt revokedAt } }\n      pageInfo { hasNextPage }\n    }\n  }\n"): (typeof documents)["\n  query ApiTokens($first: Int) {\n    apiTokens(first: $first) {\n      edges { node { id name scope prefix createdAt lastUsedAt revokedAt } }\n      pageInfo { hasNextPage }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiToken($name: String, $scope: ApiTokenScope!) {\n    createApiToken(name: $name, scope: $scope) {\n      plaintextToken\n      apiToken { id name scope prefix createdAt lastUsedAt revokedAt }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateApiToken($name: String, $scope: ApiTokenScope!) {\n    createApiToken(name: $name, scope: $scope) {\n      plaintextToken\n      apiToken { id name scope prefix createdAt lastUsedAt revokedAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { id revokedAt }\n  }\n"): (typeof documents)["\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { id revokedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditActors {\n    apiTokens(first: 100) { edges { node { id name prefix } } }\n    alertSources(first: 100) { edges { node { id name } } }\n  }\n"): (typeof documents)["\n  query AuditActors {\n    apiTokens(first: 100) { edges { node { id name prefix } } }\n    alertSources(first: 100) { edges { node { id name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditLogPage($filter: AuditLogFilter, $first: Int, $after: String) {\n    auditLog(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges {\n        node {\n          id at action objectId summary ip userAgent\n          actor { ...ActorFields }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query AuditLogPage($filter: AuditLogFilter, $first: Int, $after: String) {\n    auditLog(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges {\n        node {\n          id at action objectId summary ip userAgent\n          actor { ...ActorFields }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchOptions {\n    eventTypes { name }\n    webhookEndpoints(first: 100) { edges { node { id name } } }\n  }\n"): (typeof documents)["\n  query SearchOptions {\n    eventTypes { name }\n    webhookEndpoints(first: 100) { edges { node { id name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResendDeliveries($filter: DeliveryFilter!) {\n    resendDeliveries(filter: $filter) { queued skipped hasMore nextFrom }\n  }\n"): (typeof documents)["\n  mutation ResendDeliveries($filter: DeliveryFilter!) {\n    resendDeliveries(filter: $filter) { queued skipped hasMore nextFrom }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DeliveryRowFields on Delivery {\n    id status attemptCount createdAt lastAttemptAt\n    endpoint { id name }\n    event { id type }\n    attempts { id number responseStatus error }\n  }\n"): (typeof documents)["\n  fragment DeliveryRowFields on Delivery {\n    id status attemptCount createdAt lastAttemptAt\n    endpoint { id name }\n    event { id type }\n    attempts { id number responseStatus error }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {\n    deliveries(filter: $filter, first: $first, after: $after) {\n      totalCount totalCountIsEstimate\n      edges { node { ...DeliveryRowFields } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {\n    deliveries(filter: $filter, first: $first, after: $after) {\n      totalCount totalCountIsEstimate\n      edges { node { ...DeliveryRowFields } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DeliveriesChanged($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { ...DeliveryRowFields }\n  }\n"): (typeof documents)["\n  subscription DeliveriesChanged($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { ...DeliveryRowFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeliveryPage($id: ID!) {\n    delivery(id: $id) {\n      id status attemptCount createdAt lastAttemptAt nextAttemptAt requestBody\n      event { id type createdAt }\n      endpoint { id name url status }\n      attempts {\n        id number succeeded startedAt durationMs responseStatus error\n        responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded\n        requestHeaders { name value }\n        responseHeaders { name value }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DeliveryPage($id: ID!) {\n    delivery(id: $id) {\n      id status attemptCount createdAt lastAttemptAt nextAttemptAt requestBody\n      event { id type createdAt }\n      endpoint { id name url status }\n      attempts {\n        id number succeeded startedAt durationMs responseStatus error\n        responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded\n        requestHeaders { name value }\n        responseHeaders { name value }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DeliveryChanged($endpointId: ID!) {\n    deliveryUpdated(endpointId: $endpointId) { id status attemptCount }\n  }\n"): (typeof documents)["\n  subscription DeliveryChanged($endpointId: ID!) {\n    deliveryUpdated(endpointId: $endpointId) { id status attemptCount }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetryDelivery($id: ID!) {\n    retryDelivery(id: $id) { ...DeliveryFields }\n  }\n"): (typeof documents)["\n  mutation RetryDelivery($id: ID!) {\n    retryDelivery(id: $id) { ...DeliveryFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResendDelivery($id: ID!) {\n    resendDelivery(id: $id) { ...DeliveryFields }\n  }\n"): (typeof documents)["\n  mutation ResendDelivery($id: ID!) {\n    resendDelivery(id: $id) { ...DeliveryFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DeliveryUpdated($endpointId: ID!) {\n    deliveryUpdated(endpointId: $endpointId) { ...DeliveryFields }\n  }\n"): (typeof documents)["\n  subscription DeliveryUpdated($endpointId: ID!) {\n    deliveryUpdated(endpointId: $endpointId) { ...DeliveryFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EndpointDeliveries($id: ID!, $first: Int, $after: String, $status: DeliveryStatus) {\n    webhookEndpoint(id: $id) {\n      id\n      deliveries(first: $first, after: $after, status: $status) {\n        edges { node { ...DeliveryFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query EndpointDeliveries($id: ID!, $first: Int, $after: String, $status: DeliveryStatus) {\n    webhookEndpoint(id: $id) {\n      id\n      deliveries(first: $first, after: $after, status: $status) {\n        edges { node { ...DeliveryFields } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Deploy($id: ID!) {\n    deploy(id: $id) {\n      id commitSha commitMessage branch environment version deployedBy description url deployedAt receivedAt\n      service { id name }\n      commitUrl compareUrl pullRequestUrl\n      commitsSincePrevious { sha message subject body url pullRequestUrl author timestamp leadTimeSeconds derived }\n      authors\n      previousDeploy { id commitSha version deployedAt environment }\n      isRollback restoredDeploy { id commitSha version deployedAt }\n      rolledBack rolledBackBy { id commitSha version deployedAt }\n      suspectIn { rank score verdict incident { id title status severity } }\n      health { alertsBefore alertsAfter incidentsBefore incidentsAfter }\n    }\n  }\n"): (typeof documents)["\n  query Deploy($id: ID!) {\n    deploy(id: $id) {\n      id commitSha commitMessage branch environment version deployedBy description url deployedAt receivedAt\n      service { id name }\n      commitUrl compareUrl pullRequestUrl\n      commitsSincePrevious { sha message subject body url pullRequestUrl author timestamp leadTimeSeconds derived }\n      authors\n      previousDeploy { id commitSha version deployedAt environment }\n      isRollback restoredDeploy { id commitSha version deployedAt }\n      rolledBack rolledBackBy { id commitSha version deployedAt }\n      suspectIn { rank score verdict incident { id title status severity } }\n      health { alertsBefore alertsAfter incidentsBefore incidentsAfter }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ServiceOptions {\n    services(first: 100) { edges { node { id name } } }\n  }\n"): (typeof documents)["\n  query ServiceOptions {\n    services(first: 100) { edges { node { id name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Timeline($first: Int, $after: String, $serviceId: ID, $environment: String) {\n    timeline(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {\n      edges {\n        node {\n          __typename\n          ... on Deploy {\n            id commitSha headline branch environment version deployedBy deployedAt isRollback rolledBack\n            service { id name }\n            suspectIn { verdict incident { id title } }\n          }\n          ... on ChangeEvent {\n            id kind summary url environment changedAt\n            service { id name }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query Timeline($first: Int, $after: String, $serviceId: ID, $environment: String) {\n    timeline(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {\n      edges {\n        node {\n          __typename\n          ... on Deploy {\n            id commitSha headline branch environment version deployedBy deployedAt isRollback rolledBack\n            service { id name }\n            suspectIn { verdict incident { id title } }\n          }\n          ... on ChangeEvent {\n            id kind summary url environment changedAt\n            service { id name }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TimelineIncidents($serviceId: ID) {\n    incidents(first: 100, serviceId: $serviceId, orderBy: STARTED_AT) {\n      edges { node { id title severity status environment startedAt service { id name } } }\n    }\n  }\n"): (typeof documents)["\n  query TimelineIncidents($serviceId: ID) {\n    incidents(first: 100, serviceId: $serviceId, orderBy: STARTED_AT) {\n      edges { node { id title severity status environment startedAt service { id name } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DoraWeek on DoraMetrics {\n    from to deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n  }\n"): (typeof documents)["\n  fragment DoraWeek on DoraMetrics {\n    from to deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Dora($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      from to deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n      failedDeployCount rolledBackCount judgedCausedCount topSuspectCount\n      bands { deploymentFrequency leadTimeForChanges changeFailureRate timeToRestore }\n      byWeek { ...DoraWeek }\n    }\n  }\n"): (typeof documents)["\n  query Dora($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      from to deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n      failedDeployCount rolledBackCount judgedCausedCount topSuspectCount\n      bands { deploymentFrequency leadTimeForChanges changeFailureRate timeToRestore }\n      byWeek { ...DoraWeek }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraDays($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      byDay { from to deployCount }\n    }\n  }\n"): (typeof documents)["\n  query DoraDays($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      byDay { from to deployCount }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraEnvironments {\n    environments { name }\n  }\n"): (typeof documents)["\n  query DoraEnvironments {\n    environments { name }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraDrillDowns($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      failedDeploys(first: 100) { reason deploy { id commitSha version environment deployedAt service { id name } } }\n      restoreIncidents(first: 100) { id title severity environment startedAt resolvedAt service { id name } }\n      byService {\n        service { id name }\n        keys { deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate failedDeployCount timeToRestoreSeconds }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DoraDrillDowns($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      failedDeploys(first: 100) { reason deploy { id commitSha version environment deployedAt service { id name } } }\n      restoreIncidents(first: 100) { id title severity environment startedAt resolvedAt service { id name } }\n      byService {\n        service { id name }\n        keys { deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate failedDeployCount timeToRestoreSeconds }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateEndpoint(\n    $id: ID!\n    $url: String\n    $name: String\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    updateWebhookEndpoint(\n      id: $id\n      url: $url\n      name: $name\n      eventTypes: $eventTypes\n      headers: $headers\n      timeoutMs: $timeoutMs\n      rateLimitPerSecond: $rateLimitPerSecond\n    ) { ...EndpointFields }\n  }\n"): (typeof documents)["\n  mutation UpdateEndpoint(\n    $id: ID!\n    $url: String\n    $name: String\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    updateWebhookEndpoint(\n      id: $id\n      url: $url\n      name: $name\n      eventTypes: $eventTypes\n      headers: $headers\n      timeoutMs: $timeoutMs\n      rateLimitPerSecond: $rateLimitPerSecond\n    ) { ...EndpointFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Endpoint($id: ID!) {\n    webhookEndpoint(id: $id) { ...EndpointFields }\n    webhookDestinationPolicy { allowHttp maxTimeoutMs }\n  }\n"): (typeof documents)["\n  query Endpoint($id: ID!) {\n    webhookEndpoint(id: $id) { ...EndpointFields }\n    webhookDestinationPolicy { allowHttp maxTimeoutMs }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendTestEvent($endpointId: ID!) {\n    sendTestEvent(endpointId: $endpointId) { ...DeliveryFields }\n  }\n"): (typeof documents)["\n  mutation SendTestEvent($endpointId: ID!) {\n    sendTestEvent(endpointId: $endpointId) { ...DeliveryFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetEndpointActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { ...EndpointFields }\n  }\n"): (typeof documents)["\n  mutation SetEndpointActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { ...EndpointFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateSecret($id: ID!, $gracePeriodSeconds: Int) {\n    rotateWebhookSecret(id: $id, gracePeriodSeconds: $gracePeriodSeconds) { signingSecret endpoint { ...EndpointFields previousSecretExpiresAt } }\n  }\n"): (typeof documents)["\n  mutation RotateSecret($id: ID!, $gracePeriodSeconds: Int) {\n    rotateWebhookSecret(id: $id, gracePeriodSeconds: $gracePeriodSeconds) { signingSecret endpoint { ...EndpointFields previousSecretExpiresAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteEndpoint($id: ID!) {\n    deleteWebhookEndpoint(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteEndpoint($id: ID!) {\n    deleteWebhookEndpoint(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EndpointChart($id: ID!, $interval: ChartInterval!, $from: DateTime!, $to: DateTime!) {\n    webhookEndpoint(id: $id) {\n      id\n      chart(interval: $interval, from: $from, to: $to) { start deliveries succeeded failed successRate attempts latencyP50Ms latencyP95Ms }\n    }\n  }\n"): (typeof documents)["\n  query EndpointChart($id: ID!, $interval: ChartInterval!, $from: DateTime!, $to: DateTime!) {\n    webhookEndpoint(id: $id) {\n      id\n      chart(interval: $interval, from: $from, to: $to) { start deliveries succeeded failed successRate attempts latencyP50Ms latencyP95Ms }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EndpointFormSettings {\n    webhookDestinationPolicy { allowHttp allowPrivate minTimeoutMs maxTimeoutMs maxRateLimitPerSecond }\n    eventTypes { name label }\n  }\n"): (typeof documents)["\n  query EndpointFormSettings {\n    webhookDestinationPolicy { allowHttp allowPrivate minTimeoutMs maxTimeoutMs maxRateLimitPerSecond }\n    eventTypes { name label }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EndpointSecret($id: ID!) {\n    webhookEndpoint(id: $id) {\n      id previousSecretExpiresAt\n      secretReveals { id revealedAt apiToken { id name prefix } person { id name email } }\n    }\n  }\n"): (typeof documents)["\n  query EndpointSecret($id: ID!) {\n    webhookEndpoint(id: $id) {\n      id previousSecretExpiresAt\n      secretReveals { id revealedAt apiToken { id name prefix } person { id name email } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevealSecret($id: ID!) {\n    revealWebhookSecret(id: $id) { signingSecret endpoint { id } }\n  }\n"): (typeof documents)["\n  mutation RevealSecret($id: ID!) {\n    revealWebhookSecret(id: $id) { signingSecret endpoint { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardEnvironments { environments { name aliases spellings } }\n"): (typeof documents)["\n  query DashboardEnvironments { environments { name aliases spellings } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetEnvironmentAliases($environment: String!, $aliases: [String!]!) {\n    setEnvironmentAliases(environment: $environment, aliases: $aliases) { name aliases spellings }\n  }\n"): (typeof documents)["\n  mutation DashboardSetEnvironmentAliases($environment: String!, $aliases: [String!]!) {\n    setEnvironmentAliases(environment: $environment, aliases: $aliases) { name aliases spellings }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment EventSummary on Event {\n    id type createdAt example\n    deliveries(first: 10) {\n      totalCount\n      edges { node { id status attemptCount endpoint { id name } } }\n    }\n  }\n"): (typeof documents)["\n  fragment EventSummary on Event {\n    id type createdAt example\n    deliveries(first: 10) {\n      totalCount\n      edges { node { id status attemptCount endpoint { id name } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchEvents($filter: EventFilter, $first: Int, $after: String) {\n    events(filter: $filter, first: $first, after: $after) {\n      totalCount totalCountIsEstimate\n      edges { node { ...EventSummary } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query SearchEvents($filter: EventFilter, $first: Int, $after: String) {\n    events(filter: $filter, first: $first, after: $after) {\n      totalCount totalCountIsEstimate\n      edges { node { ...EventSummary } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EventPage($id: ID!) {\n    event(id: $id) { ...EventSummary data }\n  }\n"): (typeof documents)["\n  query EventPage($id: ID!) {\n    event(id: $id) { ...EventSummary data }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment IncidentFields on Incident {\n    id title severity status environment startedAt openedAt acknowledgedAt resolvedAt\n    acknowledgedBy { ...ActorFields }\n    resolvedBy { ...ActorFields }\n    notes { id body createdAt author { ...ActorFields } }\n    timeline {\n      kind at\n      actor { ...ActorFields }\n      alert { id fingerprint }\n      note { id }\n      verdict\n      deploy { id commitSha version }\n      change { id summary }\n    }\n    service { id name }\n    alertSource { id name kind }\n    alerts(first: 50) {\n      totalCount\n      edges { node { id fingerprint status labels annotations startsAt endsAt generatorURL } }\n    }\n    suspects {\n      rank score verdict verdictAt\n      reasons { code detail effect }\n      mainReason { code detail effect }\n      deploy {\n        id commitSha commitMessage headline version environment deployedAt deployedBy isRollback rolledBack service { id name }\n        commitUrl compareUrl pullRequestUrl\n      }\n      change { id kind summary url environment changedAt service { id name } }\n    }\n  }\n"): (typeof documents)["\n  fragment IncidentFields on Incident {\n    id title severity status environment startedAt openedAt acknowledgedAt resolvedAt\n    acknowledgedBy { ...ActorFields }\n    resolvedBy { ...ActorFields }\n    notes { id body createdAt author { ...ActorFields } }\n    timeline {\n      kind at\n      actor { ...ActorFields }\n      alert { id fingerprint }\n      note { id }\n      verdict\n      deploy { id commitSha version }\n      change { id summary }\n    }\n    service { id name }\n    alertSource { id name kind }\n    alerts(first: 50) {\n      totalCount\n      edges { node { id fingerprint status labels annotations startsAt endsAt generatorURL } }\n    }\n    suspects {\n      rank score verdict verdictAt\n      reasons { code detail effect }\n      mainReason { code detail effect }\n      deploy {\n        id commitSha commitMessage headline version environment deployedAt deployedBy isRollback rolledBack service { id name }\n        commitUrl compareUrl pullRequestUrl\n      }\n      change { id kind summary url environment changedAt service { id name } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Incident($id: ID!) {\n    incident(id: $id) { ...IncidentFields }\n  }\n"): (typeof documents)["\n  query Incident($id: ID!) {\n    incident(id: $id) { ...IncidentFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AcknowledgeIncident($id: ID!) {\n    acknowledgeIncident(id: $id) { ...IncidentFields }\n  }\n"): (typeof documents)["\n  mutation AcknowledgeIncident($id: ID!) {\n    acknowledgeIncident(id: $id) { ...IncidentFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResolveIncident($id: ID!) {\n    resolveIncident(id: $id) { ...IncidentFields }\n  }\n"): (typeof documents)["\n  mutation ResolveIncident($id: ID!) {\n    resolveIncident(id: $id) { ...IncidentFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddIncidentNote($incidentId: ID!, $body: String!) {\n    addIncidentNote(incidentId: $incidentId, body: $body) { id incident { ...IncidentFields } }\n  }\n"): (typeof documents)["\n  mutation AddIncidentNote($incidentId: ID!, $body: String!) {\n    addIncidentNote(incidentId: $incidentId, body: $body) { id incident { ...IncidentFields } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MarkSuspect($incidentId: ID!, $deployId: ID, $changeId: ID, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: $verdict) { ...IncidentFields }\n  }\n"): (typeof documents)["\n  mutation MarkSuspect($incidentId: ID!, $deployId: ID, $changeId: ID, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: $verdict) { ...IncidentFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Incidents($status: IncidentStatus, $after: String) {\n    incidents(first: 50, status: $status, after: $after, orderBy: STARTED_AT) {\n      edges {\n        node {\n          id title severity status environment startedAt openedAt resolvedAt service { id name }\n          suspects { score deploy { id commitSha version service { id name } } change { id kind summary service { id name } } }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query Incidents($status: IncidentStatus, $after: String) {\n    incidents(first: 50, status: $status, after: $after, orderBy: STARTED_AT) {\n      edges {\n        node {\n          id title severity status environment startedAt openedAt resolvedAt service { id name }\n          suspects { score deploy { id commitSha version service { id name } } change { id kind summary service { id name } } }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) { id }\n  }\n"): (typeof documents)["\n  mutation OpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PendingInvites {\n    pendingInvites { id email role createdAt expiresAt invitedBy { id name } }\n  }\n"): (typeof documents)["\n  query PendingInvites {\n    pendingInvites { id email role createdAt expiresAt invitedBy { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelInvite($id: ID!) {\n    cancelInvite(id: $id) { id }\n  }\n"): (typeof documents)["\n  mutation CancelInvite($id: ID!) {\n    cancelInvite(id: $id) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Members {\n    members(first: 100) {\n      edges { node { id role joinedAt person { id email name } } }\n      pageInfo { hasNextPage }\n    }\n  }\n"): (typeof documents)["\n  query Members {\n    members(first: 100) {\n      edges { node { id role joinedAt person { id email name } } }\n      pageInfo { hasNextPage }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation InviteMember($email: String!, $role: Role!) {\n    inviteMember(email: $email, role: $role) { inviteUrl expiresAt }\n  }\n"): (typeof documents)["\n  mutation InviteMember($email: String!, $role: Role!) {\n    inviteMember(email: $email, role: $role) { inviteUrl expiresAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChangeMemberRole($personId: ID!, $role: Role!) {\n    changeMemberRole(personId: $personId, role: $role) { id role }\n  }\n"): (typeof documents)["\n  mutation ChangeMemberRole($personId: ID!, $role: Role!) {\n    changeMemberRole(personId: $personId, role: $role) { id role }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveMember($personId: ID!) {\n    removeMember(personId: $personId)\n  }\n"): (typeof documents)["\n  mutation RemoveMember($personId: ID!) {\n    removeMember(personId: $personId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment OnCallIncidentFields on Incident {\n    id title severity status environment startedAt\n    service { id name }\n    suspects {\n      score verdict\n      deploy { id commitSha version environment deployedAt deployedBy service { id name } }\n      change { id kind summary actor changedAt service { id name } }\n    }\n  }\n"): (typeof documents)["\n  fragment OnCallIncidentFields on Incident {\n    id title severity status environment startedAt\n    service { id name }\n    suspects {\n      score verdict\n      deploy { id commitSha version environment deployedAt deployedBy service { id name } }\n      change { id kind summary actor changedAt service { id name } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OnCallIncidents($first: Int) {\n    open: incidents(first: $first, status: OPEN) { edges { node { ...OnCallIncidentFields } } pageInfo { hasNextPage } }\n    acknowledged: incidents(first: $first, status: ACKNOWLEDGED) { edges { node { ...OnCallIncidentFields } } pageInfo { hasNextPage } }\n  }\n"): (typeof documents)["\n  query OnCallIncidents($first: Int) {\n    open: incidents(first: $first, status: OPEN) { edges { node { ...OnCallIncidentFields } } pageInfo { hasNextPage } }\n    acknowledged: incidents(first: $first, status: ACKNOWLEDGED) { edges { node { ...OnCallIncidentFields } } pageInfo { hasNextPage } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OnCallDeploys($first: Int) {\n    deploys(first: $first) {\n      edges { node { id commitSha version environment deployedAt deployedBy isRollback service { id name } } }\n    }\n  }\n"): (typeof documents)["\n  query OnCallDeploys($first: Int) {\n    deploys(first: $first) {\n      edges { node { id commitSha version environment deployedAt deployedBy isRollback service { id name } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OnCallEndpoints($first: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name url status consecutiveFailures disabledAt disabledReason\n          latestDelivery { id status createdAt event { type } }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n  }\n"): (typeof documents)["\n  query OnCallEndpoints($first: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name url status consecutiveFailures disabledAt disabledReason\n          latestDelivery { id status createdAt event { type } }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnCallDeliveryAttempted {\n    deliveryUpdated { id status attemptCount }\n  }\n"): (typeof documents)["\n  subscription OnCallDeliveryAttempted {\n    deliveryUpdated { id status attemptCount }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReenableEndpoint($id: ID!) {\n    setWebhookEndpointActive(id: $id, active: true) { ...EndpointFields }\n  }\n"): (typeof documents)["\n  mutation ReenableEndpoint($id: ID!) {\n    setWebhookEndpointActive(id: $id, active: true) { ...EndpointFields }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RecoverDeliveries($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }\n  }\n"): (typeof documents)["\n  mutation RecoverDeliveries($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Service($id: ID!) {\n    service(id: $id) {\n      id name deployTokenPrefix createdAt gitHubWebhookSecretCreatedAt repositoryUrl\n      dependsOn { id name }\n      dependents { id name }\n      deploys(first: 10) {\n        edges { node { id commitSha headline environment version deployedBy deployedAt } }\n      }\n      incidents(first: 5) {\n        edges { node { id title severity status openedAt } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Service($id: ID!) {\n    service(id: $id) {\n      id name deployTokenPrefix createdAt gitHubWebhookSecretCreatedAt repositoryUrl\n      dependsOn { id name }\n      dependents { id name }\n      deploys(first: 10) {\n        edges { node { id commitSha headline environment version deployedBy deployedAt } }\n      }\n      incidents(first: 5) {\n        edges { node { id title severity status openedAt } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateDeployToken($serviceId: ID!) {\n    rotateDeployToken(serviceId: $serviceId) {\n      deployToken\n      service { id deployTokenPrefix }\n    }\n  }\n"): (typeof documents)["\n  mutation RotateDeployToken($serviceId: ID!) {\n    rotateDeployToken(serviceId: $serviceId) {\n      deployToken\n      service { id deployTokenPrefix }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateGitHubWebhookSecret($serviceId: ID!) {\n    rotateGitHubWebhookSecret(serviceId: $serviceId) {\n      secret payloadPath\n      service { id gitHubWebhookSecretCreatedAt }\n    }\n  }\n"): (typeof documents)["\n  mutation RotateGitHubWebhookSecret($serviceId: ID!) {\n    rotateGitHubWebhookSecret(serviceId: $serviceId) {\n      secret payloadPath\n      service { id gitHubWebhookSecretCreatedAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetServiceRepositoryUrl($serviceId: ID!, $url: String) {\n    setServiceRepositoryUrl(serviceId: $serviceId, url: $url) { id repositoryUrl }\n  }\n"): (typeof documents)["\n  mutation SetServiceRepositoryUrl($serviceId: ID!, $url: String) {\n    setServiceRepositoryUrl(serviceId: $serviceId, url: $url) { id repositoryUrl }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetServiceDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id dependsOn { id name } dependents { id name } }\n  }\n"): (typeof documents)["\n  mutation SetServiceDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id dependsOn { id name } dependents { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Services($first: Int) {\n    services(first: $first) {\n      edges { node { id name deployTokenPrefix createdAt } }\n      pageInfo { hasNextPage }\n    }\n  }\n"): (typeof documents)["\n  query Services($first: Int) {\n    services(first: $first) {\n      edges { node { id name deployTokenPrefix createdAt } }\n      pageInfo { hasNextPage }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateService($name: String!) {\n    createService(name: $name) {\n      deployToken\n      service { id name deployTokenPrefix createdAt }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateService($name: String!) {\n    createService(name: $name) {\n      deployToken\n      service { id name deployTokenPrefix createdAt }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Sessions {\n    sessions { id current createdAt lastSeenAt expiresAt absoluteExpiresAt ip userAgent }\n  }\n"): (typeof documents)["\n  query Sessions {\n    sessions { id current createdAt lastSeenAt expiresAt absoluteExpiresAt ip userAgent }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id) { id }\n  }\n"): (typeof documents)["\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)\n  }\n"): (typeof documents)["\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Endpoints {\n    webhookEndpoints(first: 50) {\n      edges {\n        node {\n          ...EndpointFields\n          stats { deliveriesLast24h succeededLast24h failedLast24h successRateLast24h }\n          latestDelivery { id status createdAt event { type } }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n  }\n"): (typeof documents)["\n  query Endpoints {\n    webhookEndpoints(first: 50) {\n      edges {\n        node {\n          ...EndpointFields\n          stats { deliveriesLast24h succeededLast24h failedLast24h successRateLast24h }\n          latestDelivery { id status createdAt event { type } }\n        }\n      }\n      pageInfo { hasNextPage }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateEndpoint(\n    $url: String!\n    $name: String!\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      signingSecret\n      endpoint { ...EndpointFields }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateEndpoint(\n    $url: String!\n    $name: String!\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      signingSecret\n      endpoint { ...EndpointFields }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment EndpointFields on WebhookEndpoint {\n    id url name status eventTypes consecutiveFailures pendingRetries overdueDeliveries disabledAt disabledReason createdAt updatedAt\n    headers { name value } timeoutMs rateLimitPerSecond\n  }\n"): (typeof documents)["\n  fragment EndpointFields on WebhookEndpoint {\n    id url name status eventTypes consecutiveFailures pendingRetries overdueDeliveries disabledAt disabledReason createdAt updatedAt\n    headers { name value } timeoutMs rateLimitPerSecond\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DeliveryFields on Delivery {\n    id status attemptCount createdAt updatedAt lastAttemptAt nextAttemptAt\n    event { id type createdAt }\n    attempts { id number succeeded startedAt durationMs responseStatus responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded error }\n  }\n"): (typeof documents)["\n  fragment DeliveryFields on Delivery {\n    id status attemptCount createdAt updatedAt lastAttemptAt nextAttemptAt\n    event { id type createdAt }\n    attempts { id number succeeded startedAt durationMs responseStatus responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded error }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;