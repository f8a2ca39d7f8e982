/* eslint-disable */
import * as types from './graphql.ts';
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
    "\n  query AuditLog($first: Int, $after: String, $filter: AuditLogFilter) {\n    auditLog(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges {\n        node {\n          id\n          at\n          action\n          objectId\n          summary\n          ip\n          userAgent\n          actor {\n            __typename\n            ... on ApiToken { id prefix }\n            ... on AlertSource { id name }\n            ... on Person { id email }\n            ... on System { name }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.AuditLogDocument,
    "\n  query ChangeDetails($id: ID!) { changeEvent(id: $id) { subject previous value actor } }\n": typeof types.ChangeDetailsDocument,
    "\n  mutation CorrelationCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }\n": typeof types.CorrelationCreateServiceDocument,
    "\n  mutation CorrelationSetDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id dependsOn { id } }\n  }\n": typeof types.CorrelationSetDependenciesDocument,
    "\n  mutation CorrelationSetAliases($environment: String!, $aliases: [String!]!) { setEnvironmentAliases(environment: $environment, aliases: $aliases) { name } }\n": typeof types.CorrelationSetAliasesDocument,
    "\n  mutation CorrelationOpenIncident($serviceId: ID!, $environment: String, $startedAt: DateTime, $lookbackHours: Int, $affectedServiceIds: [ID!]) {\n    openIncident(\n      serviceId: $serviceId, title: \"Errors\", environment: $environment, startedAt: $startedAt, lookbackHours: $lookbackHours,\n      affectedServiceIds: $affectedServiceIds\n    ) { id affectedServices { name } }\n  }\n": typeof types.CorrelationOpenIncidentDocument,
    "\n  query CorrelationIncident($id: ID!) {\n    incident(id: $id) {\n      id\n      suspects { rank score verdict reasons { code detail } deploy { id } change { id kind summary } }\n    }\n  }\n": typeof types.CorrelationIncidentDocument,
    "\n  mutation CorrelationMarkSuspect($incidentId: ID!, $deployId: ID, $changeId: ID, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: $verdict) {\n      suspects { verdict deploy { id } change { id } }\n    }\n  }\n": typeof types.CorrelationMarkSuspectDocument,
    "\n  mutation OnCallOpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) {\n      id\n      suspects { deploy { id } }\n    }\n  }\n": typeof types.OnCallOpenIncidentDocument,
    "\n  mutation OnCallSendTestEvent($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n": typeof types.OnCallSendTestEventDocument,
    "\n  query OnCallEndpointStatus($id: ID!) { webhookEndpoint(id: $id) { status } }\n": typeof types.OnCallEndpointStatusDocument,
    "\n  mutation BrowserPeopleDeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n": typeof types.BrowserPeopleDeleteEndpointDocument,
    "\n  query BrowserPeopleSessions { sessions { id current } }\n": typeof types.BrowserPeopleSessionsDocument,
    "\n  query BrowserPeopleEndpoint($id: ID!) { webhookEndpoint(id: $id) { id } }\n": typeof types.BrowserPeopleEndpointDocument,
    "\n  mutation BrowserPeopleRevokeSession($id: ID!) { revokeSession(id: $id) { id } }\n": typeof types.BrowserPeopleRevokeSessionDocument,
    "\n  query RefusalViewer { viewer { id } }\n": typeof types.RefusalViewerDocument,
    "\n  mutation RefusalRetry($id: ID!) { retryDelivery(id: $id) { id } }\n": typeof types.RefusalRetryDocument,
    "\n  mutation DeliveryEndpointsSetActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { status consecutiveFailures disabledAt disabledReason }\n  }\n": typeof types.DeliveryEndpointsSetActiveDocument,
    "\n  mutation DeliveryEndpointsDelete($id: ID!) { deleteWebhookEndpoint(id: $id) }\n": typeof types.DeliveryEndpointsDeleteDocument,
    "\n  query DeliveryAttempts($id: ID!) {\n    delivery(id: $id) {\n      status attemptCount\n      attempts { number succeeded responseStatus responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded error }\n    }\n  }\n": typeof types.DeliveryAttemptsDocument,
    "\n  mutation RecoveryResend($id: ID!) { resendDelivery(id: $id) { id status attemptCount } }\n": typeof types.RecoveryResendDocument,
    "\n  mutation RecoveryRecover($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }\n  }\n": typeof types.RecoveryRecoverDocument,
    "\n  mutation RecoverySetActive($id: ID!, $active: Boolean!) { setWebhookEndpointActive(id: $id, active: $active) { id status } }\n": typeof types.RecoverySetActiveDocument,
    "\n  subscription RecoveryDeliveryUpdated($endpointId: ID) { deliveryUpdated(endpointId: $endpointId) { id status attemptCount } }\n": typeof types.RecoveryDeliveryUpdatedDocument,
    "\n  query DeployHealthOf($id: ID!) {\n    deploy(id: $id) { health { windowSeconds alertsBefore alertsAfter incidentsBefore incidentsAfter } }\n  }\n": typeof types.DeployHealthOfDocument,
    "\n  query DeployHealthRanked {\n    incidents(first: 20) { edges { node { startedAt suspects { deploy { id } reasons { code detail } } } } }\n  }\n": typeof types.DeployHealthRankedDocument,
    "\n  query DoraKeys($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n    }\n  }\n": typeof types.DoraKeysDocument,
    "\n  query DoraPieces($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      from to deployCount\n      byWeek { from to deployCount changeFailureRate }\n    }\n  }\n": typeof types.DoraPiecesDocument,
    "\n  query DoraFailureCounts($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) { deployCount failedDeployCount rolledBackCount judgedCausedCount topSuspectCount changeFailureRate }\n  }\n": typeof types.DoraFailureCountsDocument,
    "\n  query DoraDrillDowns($serviceId: ID, $from: DateTime!, $to: DateTime!, $first: Int!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) {\n      failedDeploys(first: $first) { reason deploy { id } }\n      restoreIncidents(first: $first) { id }\n      byService { service { id name } keys { deployCount failedDeployCount timeToRestoreSeconds } }\n    }\n  }\n": typeof types.DoraDrillDownsDocument,
    "\n  query DoraDaysOfPeriod($from: DateTime!, $to: DateTime!) {\n    dora(from: $from, to: $to) { byDay { from to deployCount } }\n  }\n": typeof types.DoraDaysOfPeriodDocument,
    "\n  mutation DoraOpenIncident($serviceId: ID!, $title: String!, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, environment: $environment, startedAt: $startedAt) {\n      id startedAt suspects { rank deploy { id } }\n    }\n  }\n": typeof types.DoraOpenIncidentDocument,
    "\n  mutation DoraResolveIncident($id: ID!) { resolveIncident(id: $id) { id startedAt resolvedAt } }\n": typeof types.DoraResolveIncidentDocument,
    "\n  mutation DoraMarkSuspect($incidentId: ID!, $deployId: ID!, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, verdict: $verdict) { id }\n  }\n": typeof types.DoraMarkSuspectDocument,
    "\n  query DoraOfDays($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n      failedDeployCount rolledBackCount\n      failedDeploys(first: 200) { reason deploy { id deployedAt } }\n    }\n  }\n": typeof types.DoraOfDaysDocument,
    "\n  query DoraCostAlone($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n  }\n": typeof types.DoraCostAloneDocument,
    "\n  query DoraCostDays($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) {\n      byDay { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    }\n  }\n": typeof types.DoraCostDaysDocument,
    "\n  query DoraCostWeeks($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) {\n      byWeek { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    }\n  }\n": typeof types.DoraCostWeeksDocument,
    "\n  query DoraCostServices($from: DateTime!, $to: DateTime!) {\n    dora(environment: \"production\", from: $from, to: $to) {\n      byService { service { name } keys { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds } }\n    }\n  }\n": typeof types.DoraCostServicesDocument,
    "\n  query DisabledEndpoint($id: ID!) {\n    webhookEndpoint(id: $id) { id status disabledAt disabledReason consecutiveFailures deliveries(first: 10) { edges { node { status attemptCount } } } }\n  }\n": typeof types.DisabledEndpointDocument,
    "\n  mutation SettingsCreateEndpoint(\n    $url: String!\n    $name: String!\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      signingSecret\n      endpoint { id headers { name value } timeoutMs rateLimitPerSecond }\n    }\n  }\n": typeof types.SettingsCreateEndpointDocument,
    "\n  mutation SettingsUpdateEndpoint($id: ID!, $headers: [WebhookHeaderInput!], $timeoutMs: Int, $rateLimitPerSecond: Int) {\n    updateWebhookEndpoint(id: $id, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      id name headers { name value } timeoutMs rateLimitPerSecond\n    }\n  }\n": typeof types.SettingsUpdateEndpointDocument,
    "\n  mutation SettingsSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n": typeof types.SettingsSendTestDocument,
    "\n  query SettingsPolicy { webhookDestinationPolicy { minTimeoutMs maxTimeoutMs maxRateLimitPerSecond } }\n": typeof types.SettingsPolicyDocument,
    "\n  query CatalogueEventTypes { eventTypes { name label description schema example } }\n": typeof types.CatalogueEventTypesDocument,
    "\n  mutation CatalogueOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\", environment: \"production\") { id } }\n": typeof types.CatalogueOpenIncidentDocument,
    "\n  mutation CatalogueAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }\n": typeof types.CatalogueAcknowledgeIncidentDocument,
    "\n  mutation CatalogueResolveIncident($id: ID!) { resolveIncident(id: $id) { id } }\n": typeof types.CatalogueResolveIncidentDocument,
    "\n  mutation CatalogueSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n": typeof types.CatalogueSendTestDocument,
    "\n  mutation CatalogueSendExample($endpointId: ID!, $eventType: String!) {\n    sendExample(endpointId: $endpointId, eventType: $eventType) { id status event { id type example data } endpoint { id } }\n  }\n": typeof types.CatalogueSendExampleDocument,
    "\n  mutation RotateGitHubWebhookSecret($serviceId: ID!) {\n    rotateGitHubWebhookSecret(serviceId: $serviceId) { secret payloadPath service { id gitHubWebhookSecretCreatedAt } }\n  }\n": typeof types.RotateGitHubWebhookSecretDocument,
    "\n  mutation CreateAlertSource($name: String!, $kind: AlertSourceKind!) {\n    createAlertSource(name: $name, kind: $kind) { token alertSource { id name kind ingestPath tokenPrefix lastReceivedAt unroutedAlertCount } }\n  }\n": typeof types.CreateAlertSourceDocument,
    "\n  mutation RotateAlertSourceToken($id: ID!) {\n    rotateAlertSourceToken(id: $id) { token alertSource { id tokenPrefix } }\n  }\n": typeof types.RotateAlertSourceTokenDocument,
    "\n  mutation DeleteAlertSource($id: ID!) { deleteAlertSource(id: $id) }\n": typeof types.DeleteAlertSourceDocument,
    "\n  query AlertSources {\n    alertSources(first: 10) {\n      edges {\n        node {\n          id name kind lastReceivedAt unroutedAlertCount\n          unroutedAlerts(first: 5) { totalCount edges { node { fingerprint status labels unroutedReason incident { id } } } }\n        }\n      }\n    }\n  }\n": typeof types.AlertSourcesDocument,
    "\n  query AlertSourceCursors($after: String) {\n    alertSources(first: 1, after: $after) { edges { cursor node { id } } }\n  }\n": typeof types.AlertSourceCursorsDocument,
    "\n  query IncidentAlerts($id: ID!) {\n    incident(id: $id) {\n      id\n      alertSource { id name kind }\n      alerts(first: 10) {\n        totalCount\n        edges { node { fingerprint status labels annotations startsAt endsAt generatorURL unroutedReason } }\n      }\n    }\n  }\n": typeof types.IncidentAlertsDocument,
    "\n  query AlertSourceKinds { alertSourceKinds { kind label detail ingestPath ingestInstructions } }\n": typeof types.AlertSourceKindsDocument,
    "\n  query ApiTokens($first: Int, $after: String) {\n    apiTokens(first: $first, after: $after) {\n      edges { node { id name prefix createdAt lastUsedAt revokedAt } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.ApiTokensDocument,
    "\n  mutation CreateApiToken($name: String) {\n    createApiToken(name: $name) { plaintextToken apiToken { id name prefix createdAt lastUsedAt revokedAt } }\n  }\n": typeof types.CreateApiTokenDocument,
    "\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { id prefix revokedAt }\n  }\n": typeof types.RevokeApiTokenDocument,
    "\n  query ViewerId { viewer { id } }\n": typeof types.ViewerIdDocument,
    "\n  mutation GraphqlCorrelationCreateService($name: String!) { createService(name: $name) { service { id name } deployToken } }\n": typeof types.GraphqlCorrelationCreateServiceDocument,
    "\n  mutation SetServiceDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id name dependsOn { name } dependents { name } }\n  }\n": typeof types.SetServiceDependenciesDocument,
    "\n  query ServiceDependencies($id: ID!) { service(id: $id) { name dependsOn { name } dependents { name } } }\n": typeof types.ServiceDependenciesDocument,
    "\n  query DeployRollback($id: ID!) {\n    deploy(id: $id) { id isRollback restoredDeploy { id } rolledBack rolledBackBy { id } }\n  }\n": typeof types.DeployRollbackDocument,
    "\n  query DeploysRollbacks($serviceId: ID) {\n    deploys(first: 50, serviceId: $serviceId) { edges { node { id commitSha environment isRollback rolledBack } } }\n  }\n": typeof types.DeploysRollbacksDocument,
    "\n  query DoraFailures($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) { deployCount changeFailureRate }\n  }\n": typeof types.DoraFailuresDocument,
    "\n  query Timeline($first: Int, $after: String, $last: Int, $before: String, $serviceId: ID, $environment: String) {\n    timeline(first: $first, after: $after, last: $last, before: $before, serviceId: $serviceId, environment: $environment) {\n      edges { cursor node { __typename ... on Deploy { id } ... on ChangeEvent { id kind summary service { name } } } }\n      pageInfo { hasNextPage hasPreviousPage endCursor startCursor }\n    }\n  }\n": typeof types.TimelineDocument,
    "\n  query ChangeEvents($serviceId: ID, $environment: String) {\n    changeEvents(first: 10, serviceId: $serviceId, environment: $environment) { edges { node { id kind summary environment url changedAt service { name } } } }\n  }\n": typeof types.ChangeEventsDocument,
    "\n  query ChangeEvent($id: ID!) { changeEvent(id: $id) { id kind } }\n": typeof types.ChangeEventDocument,
    "\n    query Environments { environments { name aliases spellings } }\n  ": typeof types.EnvironmentsDocument,
    "\n    mutation SetEnvironmentAliases($environment: String!, $aliases: [String!]!) {\n      setEnvironmentAliases(environment: $environment, aliases: $aliases) { name aliases spellings }\n    }\n  ": typeof types.SetEnvironmentAliasesDocument,
    "\n    query AliasDeploys($environment: String) { deploys(first: 20, environment: $environment) { edges { node { id } } } }\n  ": typeof types.AliasDeploysDocument,
    "\n    query AliasDora($environment: String, $from: DateTime!, $to: DateTime!) { dora(environment: $environment, from: $from, to: $to) { deployCount } }\n  ": typeof types.AliasDoraDocument,
    "\n    mutation AliasOpenIncident($serviceId: ID!, $environment: String, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", environment: $environment, startedAt: $startedAt) {\n        suspects { rank deploy { id } change { id } reasons { code detail } }\n      }\n    }\n  ": typeof types.AliasOpenIncidentDocument,
    "\n    query DeployRollout($id: ID!) { deploy(id: $id) { id deployedAt rolloutPercentage rolloutStages { percentage at } } }\n  ": typeof types.DeployRolloutDocument,
    "\n    mutation RolloutOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", startedAt: $startedAt) { id suspects { score deploy { id } reasons { code detail } } }\n    }\n  ": typeof types.RolloutOpenIncidentDocument,
    "\n    mutation MainReasonOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", environment: \"production\", startedAt: $startedAt) {\n        suspects { deploy { id } reasons { code effect } mainReason { code detail effect } }\n      }\n    }\n  ": typeof types.MainReasonOpenIncidentDocument,
    "\n  query CursorsPages($after: String) {\n    services(first: 2, after: $after) { edges { cursor node { id } } }\n    deploys(first: 2, after: $after) { edges { cursor node { id } } }\n    incidents(first: 2, after: $after) { edges { cursor node { id } } }\n    webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } }\n  }\n": typeof types.CursorsPagesDocument,
    "\n  query CursorsServices($after: String, $before: String) { services(first: 2, after: $after, before: $before) { edges { cursor node { id } } } }\n": typeof types.CursorsServicesDocument,
    "\n  query CursorsDeploys($after: String) { deploys(first: 2, after: $after) { edges { cursor node { id } } } }\n": typeof types.CursorsDeploysDocument,
    "\n  query CursorsIncidents($after: String) { incidents(first: 2, after: $after) { edges { cursor node { id } } } }\n": typeof types.CursorsIncidentsDocument,
    "\n  query CursorsEndpoints($after: String) { webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } } }\n": typeof types.CursorsEndpointsDocument,
    "\n  query CursorsServiceDeploys($serviceId: ID!, $after: String) { service(id: $serviceId) { deploys(first: 2, after: $after) { edges { cursor } } } }\n": typeof types.CursorsServiceDeploysDocument,
    "\n  query CursorsServiceIncidents($serviceId: ID!, $after: String) { service(id: $serviceId) { incidents(first: 2, after: $after) { edges { cursor } } } }\n": typeof types.CursorsServiceIncidentsDocument,
    "\n  query CursorsDeliveries($endpointId: ID!, $after: String) {\n    webhookEndpoint(id: $endpointId) { deliveries(first: 2, after: $after) { edges { cursor node { id } } } }\n  }\n": typeof types.CursorsDeliveriesDocument,
    "\n  query CursorsApiTokens($after: String) { apiTokens(first: 2, after: $after) { edges { cursor node { id } } } }\n": typeof types.CursorsApiTokensDocument,
    "\n  subscription CursorsSubscription($after: String) {\n    deliveryUpdated { id endpoint { deliveries(first: 1, after: $after) { edges { cursor } } } }\n  }\n": typeof types.CursorsSubscriptionDocument,
    "\n  mutation CursorsCreateService($name: String!) { createService(name: $name) { service { id } } }\n": typeof types.CursorsCreateServiceDocument,
    "\n  mutation CursorsOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"down\") { id } }\n": typeof types.CursorsOpenIncidentDocument,
    "\n  query DateInputDeliveries($filter: DeliveryFilter) { deliveries(filter: $filter) { totalCount } }\n": typeof types.DateInputDeliveriesDocument,
    "\n  query DateInputEvents($filter: EventFilter) { events(filter: $filter) { totalCount } }\n": typeof types.DateInputEventsDocument,
    "\n  query DateInputDora($from: DateTime!, $to: DateTime!) { dora(from: $from, to: $to) { deployCount } }\n": typeof types.DateInputDoraDocument,
    "\n  mutation DateInputOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: \"Checkout errors\", startedAt: $startedAt) { id }\n  }\n": typeof types.DateInputOpenIncidentDocument,
    "\n  mutation DateInputRecover($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued }\n  }\n": typeof types.DateInputRecoverDocument,
    "\n  mutation DateInputResend($filter: DeliveryFilter!) { resendDeliveries(filter: $filter) { queued } }\n": typeof types.DateInputResendDocument,
    "\n  query DateInputAuditLog($filter: AuditLogFilter) { auditLog(filter: $filter) { totalCount } }\n": typeof types.DateInputAuditLogDocument,
    "\n  mutation DateInputResolveIncident($id: ID!, $resolvedAt: DateTime) { resolveIncident(id: $id, resolvedAt: $resolvedAt) { id } }\n": typeof types.DateInputResolveIncidentDocument,
    "\n  query DateInputChart($id: ID!, $from: DateTime!, $to: DateTime!) { webhookEndpoint(id: $id) { chart(interval: DAY, from: $from, to: $to) { start } } }\n": typeof types.DateInputChartDocument,
    "\n  query DeploysList($first: Int, $after: String, $serviceId: ID, $environment: String) {\n    deploys(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {\n      edges { cursor node { id commitSha environment deployedAt service { id name } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.DeploysListDocument,
    "\n  query ServiceDeploysList($id: ID!, $first: Int, $after: String, $environment: String) {\n    service(id: $id) {\n      id\n      deploys(first: $first, after: $after, environment: $environment) {\n        edges { node { id environment } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.ServiceDeploysListDocument,
    "\n  query DeployDetail($id: ID!) {\n    deploy(id: $id) {\n      id commitSha commitMessage branch deployedBy environment version description url deployedAt receivedAt\n      service { id name }\n      commits { sha message author timestamp position }\n      previousDeploy { id commitSha environment deployedAt }\n      commitsSincePrevious { sha message author timestamp leadTimeSeconds derived }\n      authors\n      suspectIn { rank }\n    }\n  }\n": typeof types.DeployDetailDocument,
    "\n  query LimitsDashboard($first: Int, $deliveries: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name status\n          latestDelivery { id status attempts { number } event { type } }\n          stats { deliveriesLast24h successRateLast24h }\n          deliveries(first: $deliveries) {\n            edges { node { id status createdAt attempts { number succeeded responseStatus } event { type } } }\n            pageInfo { hasNextPage endCursor }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.LimitsDashboardDocument,
    "\n  query LimitsTwoLevels {\n    webhookEndpoints(first: 100) {\n      edges { node { id deliveries(first: 100) { edges { node { id status attempts { number } } } } } }\n    }\n  }\n": typeof types.LimitsTwoLevelsDocument,
    "\n  query LimitsFourLevels {\n    webhookEndpoints(first: 100) {\n      edges { node { deliveries(first: 100) { edges { node { endpoint {\n        deliveries(first: 100) { edges { node { endpoint {\n          deliveries(first: 100) { edges { node { id } } }\n        } } } }\n      } } } } } }\n    }\n  }\n": typeof types.LimitsFourLevelsDocument,
    "\n  query LimitsDeep($id: ID!) {\n    delivery(id: $id) { endpoint { latestDelivery { endpoint { latestDelivery { endpoint { latestDelivery {\n      endpoint { latestDelivery { endpoint { id } } }\n    } } } } } } }\n  }\n": typeof types.LimitsDeepDocument,
    "\n  query LimitsEndpointsPage($first: Int, $last: Int) {\n    webhookEndpoints(first: $first, last: $last) { edges { node { id } } }\n  }\n": typeof types.LimitsEndpointsPageDocument,
    "\n  query LimitsEndpointDeliveries($id: ID!, $first: Int) {\n    webhookEndpoint(id: $id) { id deliveries(first: $first) { edges { node { id } } } }\n  }\n": typeof types.LimitsEndpointDeliveriesDocument,
    "\n  mutation LimitsDeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n": typeof types.LimitsDeleteEndpointDocument,
    "\n  query LimitsViewer { viewer { id name } }\n": typeof types.LimitsViewerDocument,
    "\n  query NPlusOneEndpointsDashboard($first: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name status pendingRetries\n          latestDelivery { id status attempts { number } event { type } }\n          stats { deliveriesLast24h succeededLast24h failedLast24h successRateLast24h }\n        }\n      }\n    }\n  }\n": typeof types.NPlusOneEndpointsDashboardDocument,
    "\n  query NPlusOneDeploys($first: Int) {\n    deploys(first: $first) {\n      edges { node { id commitSha service { name } commits { sha } previousDeploy { id commitSha } commitsSincePrevious { sha derived } authors } }\n    }\n  }\n": typeof types.NPlusOneDeploysDocument,
    "\n  query NPlusOneIncidents($first: Int) {\n    incidents(first: $first) { edges { node { id title service { name } suspects { rank deploy { id service { name } } } } } }\n  }\n": typeof types.NPlusOneIncidentsDocument,
    "\n  query NPlusOneDeliveriesSearch($first: Int) {\n    deliveries(first: $first) { totalCount edges { node { id status endpoint { name } event { type } attempts { number } } } }\n  }\n": typeof types.NPlusOneDeliveriesSearchDocument,
    "\n  query NPlusOneEventsSearch($first: Int) {\n    events(first: 4) {\n      totalCount\n      edges { node { id type deliveries(first: $first) { totalCount edges { node { id status endpoint { name } attempts { number } } } } } }\n    }\n  }\n": typeof types.NPlusOneEventsSearchDocument,
    "\n  mutation NPlusOneOpenIncident($serviceId: ID!, $title: String!) { openIncident(serviceId: $serviceId, title: $title) { id } }\n": typeof types.NPlusOneOpenIncidentDocument,
    "\n  query NodeById($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Service { name }\n      ... on Deploy { commitSha service { name } }\n      ... on WebhookEndpoint { name }\n      ... on Delivery { status endpoint { id } }\n      ... on Event { type }\n      ... on Organization { name }\n      ... on Incident { title }\n    }\n  }\n": typeof types.NodeByIdDocument,
    "\n  query NodesByIds($ids: [ID!]!) {\n    nodes(ids: $ids) { __typename id }\n  }\n": typeof types.NodesByIdsDocument,
    "\n  query NodeTenantIds {\n    viewer { id }\n    deploys(first: 1) { edges { node { id } } }\n    deliveries(first: 1) { edges { node { id event { id } } } }\n  }\n": typeof types.NodeTenantIdsDocument,
    "\n  mutation NodeOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout down\") { id } }\n": typeof types.NodeOpenIncidentDocument,
    "\n  subscription ProtocolDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status }\n  }\n": typeof types.ProtocolDeliveryUpdatedDocument,
    "\n  mutation SearchOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\") { id } }\n": typeof types.SearchOpenIncidentDocument,
    "\n  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {\n    deliveries(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { cursor node { id status createdAt endpoint { id } event { id type } attempts { responseStatus } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.SearchDeliveriesDocument,
    "\n  query SearchEvents($filter: EventFilter, $first: Int, $after: String) {\n    events(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { node { id type createdAt example deliveries(first: 10) { totalCount edges { node { id status endpoint { id } } } } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.SearchEventsDocument,
    "\n  query SearchEvent($id: ID!) { event(id: $id) { id type } }\n": typeof types.SearchEventDocument,
    "\n  query WebhookDestinationPolicy { webhookDestinationPolicy { allowHttp allowPrivate } }\n": typeof types.WebhookDestinationPolicyDocument,
    "\n  mutation SendRetryingTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id status attemptCount } }\n": typeof types.SendRetryingTestDocument,
    "\n  query PendingRetries($id: ID!) {\n    webhookEndpoint(id: $id) { id consecutiveFailures pendingRetries deliveries { edges { node { id status attemptCount } } } }\n  }\n": typeof types.PendingRetriesDocument,
    "\n  fragment WebhookEndpointParts on WebhookEndpoint {\n    id url name status eventTypes consecutiveFailures disabledAt disabledReason createdAt updatedAt\n  }\n": typeof types.WebhookEndpointPartsFragmentDoc,
    "\n  fragment DeliveryParts on Delivery {\n    id status attemptCount nextAttemptAt lastAttemptAt createdAt updatedAt\n    event { id type createdAt data }\n    endpoint { id name }\n    attempts { id number succeeded startedAt durationMs responseStatus responseBody error }\n  }\n": typeof types.DeliveryPartsFragmentDoc,
    "\n  mutation CreateWebhookEndpoint($url: String!, $name: String!, $eventTypes: [String!]) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes) { signingSecret endpoint { ...WebhookEndpointParts } }\n  }\n": typeof types.CreateWebhookEndpointDocument,
    "\n  mutation UpdateWebhookEndpoint($id: ID!, $url: String, $name: String, $eventTypes: [String!]) {\n    updateWebhookEndpoint(id: $id, url: $url, name: $name, eventTypes: $eventTypes) { ...WebhookEndpointParts }\n  }\n": typeof types.UpdateWebhookEndpointDocument,
    "\n  mutation SetWebhookEndpointActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { ...WebhookEndpointParts }\n  }\n": typeof types.SetWebhookEndpointActiveDocument,
    "\n  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n": typeof types.DeleteWebhookEndpointDocument,
    "\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) { signingSecret endpoint { ...WebhookEndpointParts } }\n  }\n": typeof types.RotateWebhookSecretDocument,
    "\n  mutation SendTestEvent($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { ...DeliveryParts } }\n": typeof types.SendTestEventDocument,
    "\n  mutation RetryDelivery($id: ID!) { retryDelivery(id: $id) { ...DeliveryParts } }\n": typeof types.RetryDeliveryDocument,
    "\n  query WebhookEndpoint($id: ID!) { webhookEndpoint(id: $id) { ...WebhookEndpointParts } }\n": typeof types.WebhookEndpointDocument,
    "\n  query WebhookEndpointDeliveries($id: ID!, $status: DeliveryStatus, $first: Int, $after: String) {\n    webhookEndpoint(id: $id) {\n      id\n      deliveries(status: $status, first: $first, after: $after) {\n        edges { cursor node { id status attemptCount event { type } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": typeof types.WebhookEndpointDeliveriesDocument,
    "\n  query WebhookEndpointsPage($first: Int, $after: String) {\n    webhookEndpoints(first: $first, after: $after) {\n      edges { node { id name createdAt } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.WebhookEndpointsPageDocument,
    "\n  query Delivery($id: ID!) { delivery(id: $id) { ...DeliveryParts } }\n": typeof types.DeliveryDocument,
    "\n  query WebhookEndpointTypeFields { __type(name: \"WebhookEndpoint\") { fields { name } } }\n": typeof types.WebhookEndpointTypeFieldsDocument,
    "\n  query WorstSuspects($id: ID!) { incident(id: $id) { suspects { deploy { suspectIn { incident { suspects { deploy { id } } } } } } } }\n": typeof types.WorstSuspectsDocument,
    "\n  query WorstDora($from: DateTime!, $to: DateTime!) {\n    d1: dora(from: $from, to: $to) { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    d2: dora(from: $from, to: $to) { deployCount } d3: dora(from: $from, to: $to) { deployCount }\n    d4: dora(from: $from, to: $to) { deployCount } d5: dora(from: $from, to: $to) { deployCount }\n    d6: dora(from: $from, to: $to) { deployCount } d7: dora(from: $from, to: $to) { deployCount }\n    d8: dora(from: $from, to: $to) { deployCount } d9: dora(from: $from, to: $to) { deployCount }\n    d10: dora(from: $from, to: $to) { deployCount } d11: dora(from: $from, to: $to) { deployCount }\n    d12: dora(from: $from, to: $to) { deployCount } d13: dora(from: $from, to: $to) { deployCount }\n    d14: dora(from: $from, to: $to) { deployCount } d15: dora(from: $from, to: $to) { deployCount }\n    dora(from: $from, to: $to) { deployCount }\n  }\n": typeof types.WorstDoraDocument,
    "\n  mutation WorstOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"down\") { id suspects { rank } } }\n": typeof types.WorstOpenIncidentDocument,
    "\n  subscription OnIncidentUpdated {\n    incidentUpdated {\n      id title status\n      suspects { rank deploy { id version } }\n    }\n  }\n": typeof types.OnIncidentUpdatedDocument,
    "\n  mutation SubscriptionOpenIncident($serviceId: ID!, $title: String!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, startedAt: $startedAt) { id }\n  }\n": typeof types.SubscriptionOpenIncidentDocument,
    "\n  mutation SubscriptionAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }\n": typeof types.SubscriptionAcknowledgeIncidentDocument,
    "\n  mutation WorkflowOpen($serviceId: ID!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: \"Checkout errors\", environment: \"production\", startedAt: $startedAt) { id startedAt }\n  }\n": typeof types.WorkflowOpenDocument,
    "\n  mutation WorkflowAcknowledge($id: ID!) { acknowledgeIncident(id: $id) { id status } }\n": typeof types.WorkflowAcknowledgeDocument,
    "\n  mutation WorkflowResolve($id: ID!, $resolvedAt: DateTime) { resolveIncident(id: $id, resolvedAt: $resolvedAt) { id status resolvedAt } }\n": typeof types.WorkflowResolveDocument,
    "\n  mutation WorkflowMark($id: ID!, $deployId: ID!) { markSuspect(incidentId: $id, deployId: $deployId, verdict: CAUSED) { id } }\n": typeof types.WorkflowMarkDocument,
    "\n  mutation WorkflowAddNote($incidentId: ID!, $body: String!) {\n    addIncidentNote(incidentId: $incidentId, body: $body) {\n      id body createdAt incident { id }\n      author { __typename ... on ApiToken { id } }\n    }\n  }\n": typeof types.WorkflowAddNoteDocument,
    "\n  mutation WorkflowAlertSource { createAlertSource(name: \"PagerDuty\", kind: PAGERDUTY_EVENTS) { alertSource { id } token } }\n": typeof types.WorkflowAlertSourceDocument,
    "\n  mutation WorkflowDeleteAlertSource($id: ID!) { deleteAlertSource(id: $id) }\n": typeof types.WorkflowDeleteAlertSourceDocument,
    "\n  query WorkflowIncident($id: ID!) {\n    incident(id: $id) {\n      status acknowledgedAt resolvedAt\n      acknowledgedBy { __typename ... on ApiToken { id } ... on AlertSource { id name } ... on System { name } }\n      resolvedBy { __typename ... on ApiToken { id } ... on AlertSource { id name } ... on System { name } }\n      notes { id body createdAt author { __typename ... on ApiToken { id } } }\n      timeline {\n        kind at\n        actor { __typename ... on ApiToken { id } ... on AlertSource { id } ... on System { name } }\n        alert { fingerprint }\n        note { body }\n        verdict\n        deploy { id }\n        change { id }\n      }\n    }\n  }\n": typeof types.WorkflowIncidentDocument,
    "\n  fragment IncidentParts on Incident {\n    id title severity environment status startedAt openedAt acknowledgedAt resolvedAt\n    service { id name }\n    suspects { rank score verdict reasons { code detail } deploy { id } }\n  }\n": typeof types.IncidentPartsFragmentDoc,
    "\n  mutation OpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) {\n      ...IncidentParts\n    }\n  }\n": typeof types.OpenIncidentDocument,
    "\n  mutation AcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { ...IncidentParts } }\n": typeof types.AcknowledgeIncidentDocument,
    "\n  mutation ResolveIncident($id: ID!) { resolveIncident(id: $id) { ...IncidentParts } }\n": typeof types.ResolveIncidentDocument,
    "\n  mutation MarkSuspect($incidentId: ID!, $deployId: ID!, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, verdict: $verdict) { ...IncidentParts }\n  }\n": typeof types.MarkSuspectDocument,
    "\n  query Incident($id: ID!) { incident(id: $id) { ...IncidentParts } }\n": typeof types.IncidentDocument,
    "\n  query IncidentsDora($serviceId: ID, $from: DateTime!, $to: DateTime!) { dora(serviceId: $serviceId, from: $from, to: $to) { deployCount changeFailureRate } }\n": typeof types.IncidentsDoraDocument,
    "\n  query IncidentsList($first: Int, $after: String, $status: IncidentStatus, $serviceId: ID) {\n    incidents(first: $first, after: $after, status: $status, serviceId: $serviceId) {\n      edges { node { id title status service { id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.IncidentsListDocument,
    "\n  query ServiceIncidents($id: ID!, $status: IncidentStatus) {\n    service(id: $id) { id incidents(first: 50, status: $status) { edges { node { id status } } } }\n  }\n": typeof types.ServiceIncidentsDocument,
    "\n  query DeploySuspectIn($id: ID!) {\n    deploy(id: $id) { id suspectIn { rank score verdict incident { id title } deploy { id } } }\n  }\n": typeof types.DeploySuspectInDocument,
    "\n    mutation OpenIncidentWithLookback($serviceId: ID!, $startedAt: DateTime, $lookbackHours: Int) {\n      openIncident(serviceId: $serviceId, title: \"Slow leak\", startedAt: $startedAt, lookbackHours: $lookbackHours) {\n        id lookbackHours suspects { deploy { id } reasons { code detail } }\n      }\n    }\n  ": typeof types.OpenIncidentWithLookbackDocument,
    "\n    mutation SetIncidentLookback($id: ID!, $lookbackHours: Int) {\n      setIncidentLookback(id: $id, lookbackHours: $lookbackHours) { id lookbackHours suspects { deploy { id } } }\n    }\n  ": typeof types.SetIncidentLookbackDocument,
    "\n    mutation OpenSharedIncident($serviceId: ID!, $affectedServiceIds: [ID!]) {\n      openIncident(serviceId: $serviceId, title: \"Shared outage\", affectedServiceIds: $affectedServiceIds) {\n        id affectedServices { id name } suspects { deploy { id } reasons { code detail } }\n      }\n    }\n  ": typeof types.OpenSharedIncidentDocument,
    "\n  mutation InvitesInvite($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { inviteUrl expiresAt } }\n": typeof types.InvitesInviteDocument,
    "\n  query InvitesPending { pendingInvites { id email role createdAt expiresAt invitedBy { id email name } } }\n": typeof types.InvitesPendingDocument,
    "\n  mutation InvitesCancel($id: ID!) { cancelInvite(id: $id) { id email role } }\n": typeof types.InvitesCancelDocument,
    "\n  mutation InvitesChangePassword($current: String!, $new: String!) { changePassword(currentPassword: $current, newPassword: $new) }\n": typeof types.InvitesChangePasswordDocument,
    "\n  query InvitesMe { me { person { email } organizations { organizationId name role } } }\n": typeof types.InvitesMeDocument,
    "\n  query InvitesNode($id: ID!) { node(id: $id) { __typename id ... on Invite { email } } }\n": typeof types.InvitesNodeDocument,
    "\n  query InvitesAudit($action: String!) { auditLog(first: 10, filter: { action: $action }) { edges { node { action objectId summary } } } }\n": typeof types.InvitesAuditDocument,
    "\n  mutation ListenersCreate($eventTypes: [String!]) { createListener(eventTypes: $eventTypes) { id eventTypes live } }\n": typeof types.ListenersCreateDocument,
    "\n  query ListenersListener($id: ID!) { listener(id: $id) { id live } }\n": typeof types.ListenersListenerDocument,
    "\n  subscription ListenersEventCreated($listenerId: ID!) { eventCreated(listenerId: $listenerId) { id type createdAt data } }\n": typeof types.ListenersEventCreatedDocument,
    "\n  mutation ListenersOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\") { id } }\n": typeof types.ListenersOpenIncidentDocument,
    "\n  mutation ListenersPing { pingListeners { id type data } }\n": typeof types.ListenersPingDocument,
    "\n  mutation ListenersPingWith($eventType: String) { pingListeners(eventType: $eventType) { id type data example } }\n": typeof types.ListenersPingWithDocument,
    "\n  mutation ListenersCreateEndpoint($url: String!) { createWebhookEndpoint(url: $url, name: \"all events\") { endpoint { id } } }\n": typeof types.ListenersCreateEndpointDocument,
    "\n  query SingleSignOnMe { me { person { email name } organization { id } role } }\n": typeof types.SingleSignOnMeDocument,
    "\n  mutation OneQueryOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout down\") { id } }\n": typeof types.OneQueryOpenIncidentDocument,
    "\n  mutation OneQueryAcknowledge($id: ID!) { acknowledgeIncident(id: $id) { status } }\n": typeof types.OneQueryAcknowledgeDocument,
    "\n  mutation OneQueryResolve($id: ID!) { resolveIncident(id: $id) { status } }\n": typeof types.OneQueryResolveDocument,
    "\n  query PeopleMe { me { person { id email name } organization { id name } role } }\n": typeof types.PeopleMeDocument,
    "\n  query PeopleSessions { sessions { id current ip userAgent createdAt lastSeenAt expiresAt absoluteExpiresAt } }\n": typeof types.PeopleSessionsDocument,
    "\n  mutation PeopleRevokeSession($id: ID!) { revokeSession(id: $id) { id } }\n": typeof types.PeopleRevokeSessionDocument,
    "\n  mutation PeopleRevokeAll { revokeAllSessions }\n": typeof types.PeopleRevokeAllDocument,
    "\n  mutation PeopleCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }\n": typeof types.PeopleCreateServiceDocument,
    "\n  query PeopleServices { services { totalCount } }\n": typeof types.PeopleServicesDocument,
    "\n  mutation PeopleCreateEndpoint($url: String!) { createWebhookEndpoint(url: $url, name: \"hook\") { endpoint { id } signingSecret } }\n": typeof types.PeopleCreateEndpointDocument,
    "\n  mutation PeopleReveal($id: ID!) { revealWebhookSecret(id: $id) { signingSecret } }\n": typeof types.PeopleRevealDocument,
    "\n  query PeopleMembers { members(first: 10) { totalCount edges { node { role person { id email } } } } }\n": typeof types.PeopleMembersDocument,
    "\n  mutation PeopleChangeRole($personId: ID!, $role: Role!) { changeMemberRole(personId: $personId, role: $role) { role person { id } } }\n": typeof types.PeopleChangeRoleDocument,
    "\n  mutation PeopleRemoveMember($personId: ID!) { removeMember(personId: $personId) }\n": typeof types.PeopleRemoveMemberDocument,
    "\n  mutation PeopleSwitch($id: ID!) { switchOrganization(id: $id) { organization { id } role } }\n": typeof types.PeopleSwitchDocument,
    "\n  mutation PeopleCreateToken($scope: ApiTokenScope) { createApiToken(name: \"ci\", scope: $scope) { token apiToken { id scope } } }\n": typeof types.PeopleCreateTokenDocument,
    "\n      query PeopleNode($id: ID!) { node(id: $id) { __typename id } }\n    ": typeof types.PeopleNodeDocument,
    "\n          mutation PeopleInviteExisting($email: String!) { inviteMember(email: $email, role: VIEWER) { inviteUrl } }\n        ": typeof types.PeopleInviteExistingDocument,
    "\n  subscription PgbouncerDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status event { type } }\n  }\n": typeof types.PgbouncerDeliveryUpdatedDocument,
    "\n  mutation SetRepository($serviceId: ID!, $url: String) {\n    setServiceRepositoryUrl(serviceId: $serviceId, url: $url) { id repositoryUrl }\n  }\n": typeof types.SetRepositoryDocument,
    "\n  query DeployLinks($id: ID!) {\n    deploy(id: $id) {\n      commitUrl compareUrl pullRequestUrl\n      service { repositoryUrl }\n      commitsSincePrevious { sha subject body url pullRequestUrl }\n    }\n  }\n": typeof types.DeployLinksDocument,
    "\n  query DeployHeadline($id: ID!) { deploy(id: $id) { commitMessage headline } }\n": typeof types.DeployHeadlineDocument,
    "\n  query RepositoryAudit {\n    auditLog(first: 5, filter: { action: \"service.setRepositoryUrl\" }) { edges { node { action objectId summary } } }\n  }\n": typeof types.RepositoryAuditDocument,
    "query RetentionOfViewer { viewer { retentionDays historyStartsAt } }": typeof types.RetentionOfViewerDocument,
    "\n  mutation CreateService($name: String!) {\n    createService(name: $name) { deployToken service { id name deployTokenPrefix } }\n  }\n": typeof types.CreateServiceDocument,
    "\n  mutation RotateDeployToken($serviceId: ID!) {\n    rotateDeployToken(serviceId: $serviceId) { deployToken service { id name deployTokenPrefix } }\n  }\n": typeof types.RotateDeployTokenDocument,
    "\n  query ServicesPage($after: String) {\n    viewer { id name }\n    services(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage endCursor } }\n  }\n": typeof types.ServicesPageDocument,
    "\n  query Service($id: ID!) { service(id: $id) { id name } }\n": typeof types.ServiceDocument,
    "\n  query EndpointQueue($id: ID!) { webhookEndpoint(id: $id) { pendingRetries overdueDeliveries } }\n": typeof types.EndpointQueueDocument,
    "\n  mutation ResendStranded($id: ID!) { resendDelivery(id: $id) { id status attemptCount } }\n": typeof types.ResendStrandedDocument,
    "\n  mutation RetryStranded($id: ID!) { retryDelivery(id: $id) { id status attemptCount } }\n": typeof types.RetryStrandedDocument,
    "\n  mutation RecoverStranded($endpointId: ID!, $since: DateTime!) { recoverDeliveries(endpointId: $endpointId, since: $since) { queued hasMore nextSince } }\n": typeof types.RecoverStrandedDocument,
    "\n  subscription OnDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) {\n      id\n      status\n      attemptCount\n      event { type }\n      endpoint { id }\n      attempts { number succeeded responseStatus }\n    }\n  }\n": typeof types.OnDeliveryUpdatedDocument,
    "\n  mutation GraphqlWsSendPing($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n": typeof types.GraphqlWsSendPingDocument,
    "\n  mutation CreateEndpoint($url: String!, $name: String!, $eventTypes: [String!], $headers: [WebhookHeaderInput!]) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers) { signingSecret endpoint { id } }\n  }\n": typeof types.CreateEndpointDocument,
    "\n  mutation PeopleInvite($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { inviteUrl expiresAt } }\n": typeof types.PeopleInviteDocument,
    "\n  query TotalCountsEveryList($serviceId: ID!) {\n    services(first: 1) { totalCount totalCountIsEstimate }\n    service(id: $serviceId) {\n      deploys(first: 1) { totalCount totalCountIsEstimate }\n      incidents(first: 1) { totalCount totalCountIsEstimate }\n    }\n    deploys(first: 1) { totalCount totalCountIsEstimate }\n    incidents(first: 1) { totalCount totalCountIsEstimate edges { node { alerts(first: 1) { totalCount totalCountIsEstimate } } } }\n    changeEvents(first: 1) { totalCount totalCountIsEstimate }\n    timeline(first: 1) { totalCount totalCountIsEstimate }\n    webhookEndpoints(first: 1) { totalCount totalCountIsEstimate }\n    apiTokens(first: 1) { totalCount totalCountIsEstimate }\n    alertSources(first: 1) { totalCount totalCountIsEstimate edges { node { unroutedAlerts(first: 1) { totalCount totalCountIsEstimate } } } }\n  }\n": typeof types.TotalCountsEveryListDocument,
    "\n  query TotalCounts($endpointId: ID!) {\n    deliveries(first: 1, filter: { endpointId: $endpointId }) { totalCount totalCountIsEstimate }\n    webhookEndpoint(id: $endpointId) { deliveries(first: 1) { totalCount totalCountIsEstimate } }\n    events(first: 1) { totalCount totalCountIsEstimate edges { node { deliveries(first: 1) { totalCount totalCountIsEstimate } } } }\n  }\n": typeof types.TotalCountsDocument,
    "\n  mutation SecretsRotate($id: ID!, $gracePeriodSeconds: Int) {\n    rotateWebhookSecret(id: $id, gracePeriodSeconds: $gracePeriodSeconds) { signingSecret endpoint { id previousSecretExpiresAt } }\n  }\n": typeof types.SecretsRotateDocument,
    "\n  mutation SecretsReveal($id: ID!) {\n    revealWebhookSecret(id: $id) { signingSecret endpoint { id } }\n  }\n": typeof types.SecretsRevealDocument,
    "\n  query SecretsReveals($id: ID!) {\n    webhookEndpoint(id: $id) { id secretReveals { id revealedAt apiToken { id prefix } } }\n  }\n": typeof types.SecretsRevealsDocument,
    "\n  mutation SecretsSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n": typeof types.SecretsSendTestDocument,
    "\n  subscription LimitsDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status event { type data } }\n  }\n": typeof types.LimitsDeliveryUpdatedDocument,
};
const documents: Documents = {
    "\n  query AuditLog($first: Int, $after: String, $filter: AuditLogFilter) {\n    auditLog(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges {\n        node {\n          id\n          at\n          action\n          objectId\n          summary\n          ip\n          userAgent\n          actor {\n            __typename\n            ... on ApiToken { id prefix }\n            ... on AlertSource { id name }\n            ... on Person { id email }\n            ... on System { name }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.AuditLogDocument,
    "\n  query ChangeDetails($id: ID!) { changeEvent(id: $id) { subject previous value actor } }\n": types.ChangeDetailsDocument,
    "\n  mutation CorrelationCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }\n": types.CorrelationCreateServiceDocument,
    "\n  mutation CorrelationSetDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id dependsOn { id } }\n  }\n": types.CorrelationSetDependenciesDocument,
    "\n  mutation CorrelationSetAliases($environment: String!, $aliases: [String!]!) { setEnvironmentAliases(environment: $environment, aliases: $aliases) { name } }\n": types.CorrelationSetAliasesDocument,
    "\n  mutation CorrelationOpenIncident($serviceId: ID!, $environment: String, $startedAt: DateTime, $lookbackHours: Int, $affectedServiceIds: [ID!]) {\n    openIncident(\n      serviceId: $serviceId, title: \"Errors\", environment: $environment, startedAt: $startedAt, lookbackHours: $lookbackHours,\n      affectedServiceIds: $affectedServiceIds\n    ) { id affectedServices { name } }\n  }\n": types.CorrelationOpenIncidentDocument,
    "\n  query CorrelationIncident($id: ID!) {\n    incident(id: $id) {\n      id\n      suspects { rank score verdict reasons { code detail } deploy { id } change { id kind summary } }\n    }\n  }\n": types.CorrelationIncidentDocument,
    "\n  mutation CorrelationMarkSuspect($incidentId: ID!, $deployId: ID, $changeId: ID, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: $verdict) {\n      suspects { verdict deploy { id } change { id } }\n    }\n  }\n": types.CorrelationMarkSuspectDocument,
    "\n  mutation OnCallOpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) {\n      id\n      suspects { deploy { id } }\n    }\n  }\n": types.OnCallOpenIncidentDocument,
    "\n  mutation OnCallSendTestEvent($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n": types.OnCallSendTestEventDocument,
    "\n  query OnCallEndpointStatus($id: ID!) { webhookEndpoint(id: $id) { status } }\n": types.OnCallEndpointStatusDocument,
    "\n  mutation BrowserPeopleDeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n": types.BrowserPeopleDeleteEndpointDocument,
    "\n  query BrowserPeopleSessions { sessions { id current } }\n": types.BrowserPeopleSessionsDocument,
    "\n  query BrowserPeopleEndpoint($id: ID!) { webhookEndpoint(id: $id) { id } }\n": types.BrowserPeopleEndpointDocument,
    "\n  mutation BrowserPeopleRevokeSession($id: ID!) { revokeSession(id: $id) { id } }\n": types.BrowserPeopleRevokeSessionDocument,
    "\n  query RefusalViewer { viewer { id } }\n": types.RefusalViewerDocument,
    "\n  mutation RefusalRetry($id: ID!) { retryDelivery(id: $id) { id } }\n": types.RefusalRetryDocument,
    "\n  mutation DeliveryEndpointsSetActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { status consecutiveFailures disabledAt disabledReason }\n  }\n": types.DeliveryEndpointsSetActiveDocument,
    "\n  mutation DeliveryEndpointsDelete($id: ID!) { deleteWebhookEndpoint(id: $id) }\n": types.DeliveryEndpointsDeleteDocument,
    "\n  query DeliveryAttempts($id: ID!) {\n    delivery(id: $id) {\n      status attemptCount\n      attempts { number succeeded responseStatus responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded error }\n    }\n  }\n": types.DeliveryAttemptsDocument,
    "\n  mutation RecoveryResend($id: ID!) { resendDelivery(id: $id) { id status attemptCount } }\n": types.RecoveryResendDocument,
    "\n  mutation RecoveryRecover($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }\n  }\n": types.RecoveryRecoverDocument,
    "\n  mutation RecoverySetActive($id: ID!, $active: Boolean!) { setWebhookEndpointActive(id: $id, active: $active) { id status } }\n": types.RecoverySetActiveDocument,
    "\n  subscription RecoveryDeliveryUpdated($endpointId: ID) { deliveryUpdated(endpointId: $endpointId) { id status attemptCount } }\n": types.RecoveryDeliveryUpdatedDocument,
    "\n  query DeployHealthOf($id: ID!) {\n    deploy(id: $id) { health { windowSeconds alertsBefore alertsAfter incidentsBefore incidentsAfter } }\n  }\n": types.DeployHealthOfDocument,
    "\n  query DeployHealthRanked {\n    incidents(first: 20) { edges { node { startedAt suspects { deploy { id } reasons { code detail } } } } }\n  }\n": types.DeployHealthRankedDocument,
    "\n  query DoraKeys($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n    }\n  }\n": types.DoraKeysDocument,
    "\n  query DoraPieces($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      from to deployCount\n      byWeek { from to deployCount changeFailureRate }\n    }\n  }\n": types.DoraPiecesDocument,
    "\n  query DoraFailureCounts($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) { deployCount failedDeployCount rolledBackCount judgedCausedCount topSuspectCount changeFailureRate }\n  }\n": types.DoraFailureCountsDocument,
    "\n  query DoraDrillDowns($serviceId: ID, $from: DateTime!, $to: DateTime!, $first: Int!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) {\n      failedDeploys(first: $first) { reason deploy { id } }\n      restoreIncidents(first: $first) { id }\n      byService { service { id name } keys { deployCount failedDeployCount timeToRestoreSeconds } }\n    }\n  }\n": types.DoraDrillDownsDocument,
    "\n  query DoraDaysOfPeriod($from: DateTime!, $to: DateTime!) {\n    dora(from: $from, to: $to) { byDay { from to deployCount } }\n  }\n": types.DoraDaysOfPeriodDocument,
    "\n  mutation DoraOpenIncident($serviceId: ID!, $title: String!, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, environment: $environment, startedAt: $startedAt) {\n      id startedAt suspects { rank deploy { id } }\n    }\n  }\n": types.DoraOpenIncidentDocument,
    "\n  mutation DoraResolveIncident($id: ID!) { resolveIncident(id: $id) { id startedAt resolvedAt } }\n": types.DoraResolveIncidentDocument,
    "\n  mutation DoraMarkSuspect($incidentId: ID!, $deployId: ID!, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, verdict: $verdict) { id }\n  }\n": types.DoraMarkSuspectDocument,
    "\n  query DoraOfDays($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n      failedDeployCount rolledBackCount\n      failedDeploys(first: 200) { reason deploy { id deployedAt } }\n    }\n  }\n": types.DoraOfDaysDocument,
    "\n  query DoraCostAlone($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n  }\n": types.DoraCostAloneDocument,
    "\n  query DoraCostDays($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) {\n      byDay { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    }\n  }\n": types.DoraCostDaysDocument,
    "\n  query DoraCostWeeks($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) {\n      byWeek { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    }\n  }\n": types.DoraCostWeeksDocument,
    "\n  query DoraCostServices($from: DateTime!, $to: DateTime!) {\n    dora(environment: \"production\", from: $from, to: $to) {\n      byService { service { name } keys { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds } }\n    }\n  }\n": types.DoraCostServicesDocument,
    "\n  query DisabledEndpoint($id: ID!) {\n    webhookEndpoint(id: $id) { id status disabledAt disabledReason consecutiveFailures deliveries(first: 10) { edges { node { status attemptCount } } } }\n  }\n": types.DisabledEndpointDocument,
    "\n  mutation SettingsCreateEndpoint(\n    $url: String!\n    $name: String!\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      signingSecret\n      endpoint { id headers { name value } timeoutMs rateLimitPerSecond }\n    }\n  }\n": types.SettingsCreateEndpointDocument,
    "\n  mutation SettingsUpdateEndpoint($id: ID!, $headers: [WebhookHeaderInput!], $timeoutMs: Int, $rateLimitPerSecond: Int) {\n    updateWebhookEndpoint(id: $id, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      id name headers { name value } timeoutMs rateLimitPerSecond\n    }\n  }\n": types.SettingsUpdateEndpointDocument,
    "\n  mutation SettingsSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n": types.SettingsSendTestDocument,
    "\n  query SettingsPolicy { webhookDestinationPolicy { minTimeoutMs maxTimeoutMs maxRateLimitPerSecond } }\n": types.SettingsPolicyDocument,
    "\n  query CatalogueEventTypes { eventTypes { name label description schema example } }\n": types.CatalogueEventTypesDocument,
    "\n  mutation CatalogueOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\", environment: \"production\") { id } }\n": types.CatalogueOpenIncidentDocument,
    "\n  mutation CatalogueAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }\n": types.CatalogueAcknowledgeIncidentDocument,
    "\n  mutation CatalogueResolveIncident($id: ID!) { resolveIncident(id: $id) { id } }\n": types.CatalogueResolveIncidentDocument,
    "\n  mutation CatalogueSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n": types.CatalogueSendTestDocument,
    "\n  mutation CatalogueSendExample($endpointId: ID!, $eventType: String!) {\n    sendExample(endpointId: $endpointId, eventType: $eventType) { id status event { id type example data } endpoint { id } }\n  }\n": types.CatalogueSendExampleDocument,
    "\n  mutation RotateGitHubWebhookSecret($serviceId: ID!) {\n    rotateGitHubWebhookSecret(serviceId: $serviceId) { secret payloadPath service { id gitHubWebhookSecretCreatedAt } }\n  }\n": types.RotateGitHubWebhookSecretDocument,
    "\n  mutation CreateAlertSource($name: String!, $kind: AlertSourceKind!) {\n    createAlertSource(name: $name, kind: $kind) { token alertSource { id name kind ingestPath tokenPrefix lastReceivedAt unroutedAlertCount } }\n  }\n": types.CreateAlertSourceDocument,
    "\n  mutation RotateAlertSourceToken($id: ID!) {\n    rotateAlertSourceToken(id: $id) { token alertSource { id tokenPrefix } }\n  }\n": types.RotateAlertSourceTokenDocument,
    "\n  mutation DeleteAlertSource($id: ID!) { deleteAlertSource(id: $id) }\n": types.DeleteAlertSourceDocument,
    "\n  query AlertSources {\n    alertSources(first: 10) {\n      edges {\n        node {\n          id name kind lastReceivedAt unroutedAlertCount\n          unroutedAlerts(first: 5) { totalCount edges { node { fingerprint status labels unroutedReason incident { id } } } }\n        }\n      }\n    }\n  }\n": types.AlertSourcesDocument,
    "\n  query AlertSourceCursors($after: String) {\n    alertSources(first: 1, after: $after) { edges { cursor node { id } } }\n  }\n": types.AlertSourceCursorsDocument,
    "\n  query IncidentAlerts($id: ID!) {\n    incident(id: $id) {\n      id\n      alertSource { id name kind }\n      alerts(first: 10) {\n        totalCount\n        edges { node { fingerprint status labels annotations startsAt endsAt generatorURL unroutedReason } }\n      }\n    }\n  }\n": types.IncidentAlertsDocument,
    "\n  query AlertSourceKinds { alertSourceKinds { kind label detail ingestPath ingestInstructions } }\n": types.AlertSourceKindsDocument,
    "\n  query ApiTokens($first: Int, $after: String) {\n    apiTokens(first: $first, after: $after) {\n      edges { node { id name prefix createdAt lastUsedAt revokedAt } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.ApiTokensDocument,
    "\n  mutation CreateApiToken($name: String) {\n    createApiToken(name: $name) { plaintextToken apiToken { id name prefix createdAt lastUsedAt revokedAt } }\n  }\n": types.CreateApiTokenDocument,
    "\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { id prefix revokedAt }\n  }\n": types.RevokeApiTokenDocument,
    "\n  query ViewerId { viewer { id } }\n": types.ViewerIdDocument,
    "\n  mutation GraphqlCorrelationCreateService($name: String!) { createService(name: $name) { service { id name } deployToken } }\n": types.GraphqlCorrelationCreateServiceDocument,
    "\n  mutation SetServiceDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id name dependsOn { name } dependents { name } }\n  }\n": types.SetServiceDependenciesDocument,
    "\n  query ServiceDependencies($id: ID!) { service(id: $id) { name dependsOn { name } dependents { name } } }\n": types.ServiceDependenciesDocument,
    "\n  query DeployRollback($id: ID!) {\n    deploy(id: $id) { id isRollback restoredDeploy { id } rolledBack rolledBackBy { id } }\n  }\n": types.DeployRollbackDocument,
    "\n  query DeploysRollbacks($serviceId: ID) {\n    deploys(first: 50, serviceId: $serviceId) { edges { node { id commitSha environment isRollback rolledBack } } }\n  }\n": types.DeploysRollbacksDocument,
    "\n  query DoraFailures($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) { deployCount changeFailureRate }\n  }\n": types.DoraFailuresDocument,
    "\n  query Timeline($first: Int, $after: String, $last: Int, $before: String, $serviceId: ID, $environment: String) {\n    timeline(first: $first, after: $after, last: $last, before: $before, serviceId: $serviceId, environment: $environment) {\n      edges { cursor node { __typename ... on Deploy { id } ... on ChangeEvent { id kind summary service { name } } } }\n      pageInfo { hasNextPage hasPreviousPage endCursor startCursor }\n    }\n  }\n": types.TimelineDocument,
    "\n  query ChangeEvents($serviceId: ID, $environment: String) {\n    changeEvents(first: 10, serviceId: $serviceId, environment: $environment) { edges { node { id kind summary environment url changedAt service { name } } } }\n  }\n": types.ChangeEventsDocument,
    "\n  query ChangeEvent($id: ID!) { changeEvent(id: $id) { id kind } }\n": types.ChangeEventDocument,
    "\n    query Environments { environments { name aliases spellings } }\n  ": types.EnvironmentsDocument,
    "\n    mutation SetEnvironmentAliases($environment: String!, $aliases: [String!]!) {\n      setEnvironmentAliases(environment: $environment, aliases: $aliases) { name aliases spellings }\n    }\n  ": types.SetEnvironmentAliasesDocument,
    "\n    query AliasDeploys($environment: String) { deploys(first: 20, environment: $environment) { edges { node { id } } } }\n  ": types.AliasDeploysDocument,
    "\n    query AliasDora($environment: String, $from: DateTime!, $to: DateTime!) { dora(environment: $environment, from: $from, to: $to) { deployCount } }\n  ": types.AliasDoraDocument,
    "\n    mutation AliasOpenIncident($serviceId: ID!, $environment: String, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", environment: $environment, startedAt: $startedAt) {\n        suspects { rank deploy { id } change { id } reasons { code detail } }\n      }\n    }\n  ": types.AliasOpenIncidentDocument,
    "\n    query DeployRollout($id: ID!) { deploy(id: $id) { id deployedAt rolloutPercentage rolloutStages { percentage at } } }\n  ": types.DeployRolloutDocument,
    "\n    mutation RolloutOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", startedAt: $startedAt) { id suspects { score deploy { id } reasons { code detail } } }\n    }\n  ": types.RolloutOpenIncidentDocument,
    "\n    mutation MainReasonOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", environment: \"production\", startedAt: $startedAt) {\n        suspects { deploy { id } reasons { code effect } mainReason { code detail effect } }\n      }\n    }\n  ": types.MainReasonOpenIncidentDocument,
    "\n  query CursorsPages($after: String) {\n    services(first: 2, after: $after) { edges { cursor node { id } } }\n    deploys(first: 2, after: $after) { edges { cursor node { id } } }\n    incidents(first: 2, after: $after) { edges { cursor node { id } } }\n    webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } }\n  }\n": types.CursorsPagesDocument,
    "\n  query CursorsServices($after: String, $before: String) { services(first: 2, after: $after, before: $before) { edges { cursor node { id } } } }\n": types.CursorsServicesDocument,
    "\n  query CursorsDeploys($after: String) { deploys(first: 2, after: $after) { edges { cursor node { id } } } }\n": types.CursorsDeploysDocument,
    "\n  query CursorsIncidents($after: String) { incidents(first: 2, after: $after) { edges { cursor node { id } } } }\n": types.CursorsIncidentsDocument,
    "\n  query CursorsEndpoints($after: String) { webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } } }\n": types.CursorsEndpointsDocument,
    "\n  query CursorsServiceDeploys($serviceId: ID!, $after: String) { service(id: $serviceId) { deploys(first: 2, after: $after) { edges { cursor } } } }\n": types.CursorsServiceDeploysDocument,
    "\n  query CursorsServiceIncidents($serviceId: ID!, $after: String) { service(id: $serviceId) { incidents(first: 2, after: $after) { edges { cursor } } } }\n": types.CursorsServiceIncidentsDocument,
    "\n  query CursorsDeliveries($endpointId: ID!, $after: String) {\n    webhookEndpoint(id: $endpointId) { deliveries(first: 2, after: $after) { edges { cursor node { id } } } }\n  }\n": types.CursorsDeliveriesDocument,
    "\n  query CursorsApiTokens($after: String) { apiTokens(first: 2, after: $after) { edges { cursor node { id } } } }\n": types.CursorsApiTokensDocument,
    "\n  subscription CursorsSubscription($after: String) {\n    deliveryUpdated { id endpoint { deliveries(first: 1, after: $after) { edges { cursor } } } }\n  }\n": types.CursorsSubscriptionDocument,
    "\n  mutation CursorsCreateService($name: String!) { createService(name: $name) { service { id } } }\n": types.CursorsCreateServiceDocument,
    "\n  mutation CursorsOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"down\") { id } }\n": types.CursorsOpenIncidentDocument,
    "\n  query DateInputDeliveries($filter: DeliveryFilter) { deliveries(filter: $filter) { totalCount } }\n": types.DateInputDeliveriesDocument,
    "\n  query DateInputEvents($filter: EventFilter) { events(filter: $filter) { totalCount } }\n": types.DateInputEventsDocument,
    "\n  query DateInputDora($from: DateTime!, $to: DateTime!) { dora(from: $from, to: $to) { deployCount } }\n": types.DateInputDoraDocument,
    "\n  mutation DateInputOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: \"Checkout errors\", startedAt: $startedAt) { id }\n  }\n": types.DateInputOpenIncidentDocument,
    "\n  mutation DateInputRecover($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued }\n  }\n": types.DateInputRecoverDocument,
    "\n  mutation DateInputResend($filter: DeliveryFilter!) { resendDeliveries(filter: $filter) { queued } }\n": types.DateInputResendDocument,
    "\n  query DateInputAuditLog($filter: AuditLogFilter) { auditLog(filter: $filter) { totalCount } }\n": types.DateInputAuditLogDocument,
    "\n  mutation DateInputResolveIncident($id: ID!, $resolvedAt: DateTime) { resolveIncident(id: $id, resolvedAt: $resolvedAt) { id } }\n": types.DateInputResolveIncidentDocument,
    "\n  query DateInputChart($id: ID!, $from: DateTime!, $to: DateTime!) { webhookEndpoint(id: $id) { chart(interval: DAY, from: $from, to: $to) { start } } }\n": types.DateInputChartDocument,
    "\n  query DeploysList($first: Int, $after: String, $serviceId: ID, $environment: String) {\n    deploys(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {\n      edges { cursor node { id commitSha environment deployedAt service { id name } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.DeploysListDocument,
    "\n  query ServiceDeploysList($id: ID!, $first: Int, $after: String, $environment: String) {\n    service(id: $id) {\n      id\n      deploys(first: $first, after: $after, environment: $environment) {\n        edges { node { id environment } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.ServiceDeploysListDocument,
    "\n  query DeployDetail($id: ID!) {\n    deploy(id: $id) {\n      id commitSha commitMessage branch deployedBy environment version description url deployedAt receivedAt\n      service { id name }\n      commits { sha message author timestamp position }\n      previousDeploy { id commitSha environment deployedAt }\n      commitsSincePrevious { sha message author timestamp leadTimeSeconds derived }\n      authors\n      suspectIn { rank }\n    }\n  }\n": types.DeployDetailDocument,
    "\n  query LimitsDashboard($first: Int, $deliveries: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name status\n          latestDelivery { id status attempts { number } event { type } }\n          stats { deliveriesLast24h successRateLast24h }\n          deliveries(first: $deliveries) {\n            edges { node { id status createdAt attempts { number succeeded responseStatus } event { type } } }\n            pageInfo { hasNextPage endCursor }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.LimitsDashboardDocument,
    "\n  query LimitsTwoLevels {\n    webhookEndpoints(first: 100) {\n      edges { node { id deliveries(first: 100) { edges { node { id status attempts { number } } } } } }\n    }\n  }\n": types.LimitsTwoLevelsDocument,
    "\n  query LimitsFourLevels {\n    webhookEndpoints(first: 100) {\n      edges { node { deliveries(first: 100) { edges { node { endpoint {\n        deliveries(first: 100) { edges { node { endpoint {\n          deliveries(first: 100) { edges { node { id } } }\n        } } } }\n      } } } } } }\n    }\n  }\n": types.LimitsFourLevelsDocument,
    "\n  query LimitsDeep($id: ID!) {\n    delivery(id: $id) { endpoint { latestDelivery { endpoint { latestDelivery { endpoint { latestDelivery {\n      endpoint { latestDelivery { endpoint { id } } }\n    } } } } } } }\n  }\n": types.LimitsDeepDocument,
    "\n  query LimitsEndpointsPage($first: Int, $last: Int) {\n    webhookEndpoints(first: $first, last: $last) { edges { node { id } } }\n  }\n": types.LimitsEndpointsPageDocument,
    "\n  query LimitsEndpointDeliveries($id: ID!, $first: Int) {\n    webhookEndpoint(id: $id) { id deliveries(first: $first) { edges { node { id } } } }\n  }\n": types.LimitsEndpointDeliveriesDocument,
    "\n  mutation LimitsDeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n": types.LimitsDeleteEndpointDocument,
    "\n  query LimitsViewer { viewer { id name } }\n": types.LimitsViewerDocument,
    "\n  query NPlusOneEndpointsDashboard($first: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name status pendingRetries\n          latestDelivery { id status attempts { number } event { type } }\n          stats { deliveriesLast24h succeededLast24h failedLast24h successRateLast24h }\n        }\n      }\n    }\n  }\n": types.NPlusOneEndpointsDashboardDocument,
    "\n  query NPlusOneDeploys($first: Int) {\n    deploys(first: $first) {\n      edges { node { id commitSha service { name } commits { sha } previousDeploy { id commitSha } commitsSincePrevious { sha derived } authors } }\n    }\n  }\n": types.NPlusOneDeploysDocument,
    "\n  query NPlusOneIncidents($first: Int) {\n    incidents(first: $first) { edges { node { id title service { name } suspects { rank deploy { id service { name } } } } } }\n  }\n": types.NPlusOneIncidentsDocument,
    "\n  query NPlusOneDeliveriesSearch($first: Int) {\n    deliveries(first: $first) { totalCount edges { node { id status endpoint { name } event { type } attempts { number } } } }\n  }\n": types.NPlusOneDeliveriesSearchDocument,
    "\n  query NPlusOneEventsSearch($first: Int) {\n    events(first: 4) {\n      totalCount\n      edges { node { id type deliveries(first: $first) { totalCount edges { node { id status endpoint { name } attempts { number } } } } } }\n    }\n  }\n": types.NPlusOneEventsSearchDocument,
    "\n  mutation NPlusOneOpenIncident($serviceId: ID!, $title: String!) { openIncident(serviceId: $serviceId, title: $title) { id } }\n": types.NPlusOneOpenIncidentDocument,
    "\n  query NodeById($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Service { name }\n      ... on Deploy { commitSha service { name } }\n      ... on WebhookEndpoint { name }\n      ... on Delivery { status endpoint { id } }\n      ... on Event { type }\n      ... on Organization { name }\n      ... on Incident { title }\n    }\n  }\n": types.NodeByIdDocument,
    "\n  query NodesByIds($ids: [ID!]!) {\n    nodes(ids: $ids) { __typename id }\n  }\n": types.NodesByIdsDocument,
    "\n  query NodeTenantIds {\n    viewer { id }\n    deploys(first: 1) { edges { node { id } } }\n    deliveries(first: 1) { edges { node { id event { id } } } }\n  }\n": types.NodeTenantIdsDocument,
    "\n  mutation NodeOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout down\") { id } }\n": types.NodeOpenIncidentDocument,
    "\n  subscription ProtocolDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status }\n  }\n": types.ProtocolDeliveryUpdatedDocument,
    "\n  mutation SearchOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\") { id } }\n": types.SearchOpenIncidentDocument,
    "\n  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {\n    deliveries(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { cursor node { id status createdAt endpoint { id } event { id type } attempts { responseStatus } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.SearchDeliveriesDocument,
    "\n  query SearchEvents($filter: EventFilter, $first: Int, $after: String) {\n    events(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { node { id type createdAt example deliveries(first: 10) { totalCount edges { node { id status endpoint { id } } } } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.SearchEventsDocument,
    "\n  query SearchEvent($id: ID!) { event(id: $id) { id type } }\n": types.SearchEventDocument,
    "\n  query WebhookDestinationPolicy { webhookDestinationPolicy { allowHttp allowPrivate } }\n": types.WebhookDestinationPolicyDocument,
    "\n  mutation SendRetryingTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id status attemptCount } }\n": types.SendRetryingTestDocument,
    "\n  query PendingRetries($id: ID!) {\n    webhookEndpoint(id: $id) { id consecutiveFailures pendingRetries deliveries { edges { node { id status attemptCount } } } }\n  }\n": types.PendingRetriesDocument,
    "\n  fragment WebhookEndpointParts on WebhookEndpoint {\n    id url name status eventTypes consecutiveFailures disabledAt disabledReason createdAt updatedAt\n  }\n": types.WebhookEndpointPartsFragmentDoc,
    "\n  fragment DeliveryParts on Delivery {\n    id status attemptCount nextAttemptAt lastAttemptAt createdAt updatedAt\n    event { id type createdAt data }\n    endpoint { id name }\n    attempts { id number succeeded startedAt durationMs responseStatus responseBody error }\n  }\n": types.DeliveryPartsFragmentDoc,
    "\n  mutation CreateWebhookEndpoint($url: String!, $name: String!, $eventTypes: [String!]) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes) { signingSecret endpoint { ...WebhookEndpointParts } }\n  }\n": types.CreateWebhookEndpointDocument,
    "\n  mutation UpdateWebhookEndpoint($id: ID!, $url: String, $name: String, $eventTypes: [String!]) {\n    updateWebhookEndpoint(id: $id, url: $url, name: $name, eventTypes: $eventTypes) { ...WebhookEndpointParts }\n  }\n": types.UpdateWebhookEndpointDocument,
    "\n  mutation SetWebhookEndpointActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { ...WebhookEndpointParts }\n  }\n": types.SetWebhookEndpointActiveDocument,
    "\n  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n": types.DeleteWebhookEndpointDocument,
    "\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) { signingSecret endpoint { ...WebhookEndpointParts } }\n  }\n": types.RotateWebhookSecretDocument,
    "\n  mutation SendTestEvent($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { ...DeliveryParts } }\n": types.SendTestEventDocument,
    "\n  mutation RetryDelivery($id: ID!) { retryDelivery(id: $id) { ...DeliveryParts } }\n": types.RetryDeliveryDocument,
    "\n  query WebhookEndpoint($id: ID!) { webhookEndpoint(id: $id) { ...WebhookEndpointParts } }\n": types.WebhookEndpointDocument,
    "\n  query WebhookEndpointDeliveries($id: ID!, $status: DeliveryStatus, $first: Int, $after: String) {\n    webhookEndpoint(id: $id) {\n      id\n      deliveries(status: $status, first: $first, after: $after) {\n        edges { cursor node { id status attemptCount event { type } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n": types.WebhookEndpointDeliveriesDocument,
    "\n  query WebhookEndpointsPage($first: Int, $after: String) {\n    webhookEndpoints(first: $first, after: $after) {\n      edges { node { id name createdAt } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.WebhookEndpointsPageDocument,
    "\n  query Delivery($id: ID!) { delivery(id: $id) { ...DeliveryParts } }\n": types.DeliveryDocument,
    "\n  query WebhookEndpointTypeFields { __type(name: \"WebhookEndpoint\") { fields { name } } }\n": types.WebhookEndpointTypeFieldsDocument,
    "\n  query WorstSuspects($id: ID!) { incident(id: $id) { suspects { deploy { suspectIn { incident { suspects { deploy { id } } } } } } } }\n": types.WorstSuspectsDocument,
    "\n  query WorstDora($from: DateTime!, $to: DateTime!) {\n    d1: dora(from: $from, to: $to) { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    d2: dora(from: $from, to: $to) { deployCount } d3: dora(from: $from, to: $to) { deployCount }\n    d4: dora(from: $from, to: $to) { deployCount } d5: dora(from: $from, to: $to) { deployCount }\n    d6: dora(from: $from, to: $to) { deployCount } d7: dora(from: $from, to: $to) { deployCount }\n    d8: dora(from: $from, to: $to) { deployCount } d9: dora(from: $from, to: $to) { deployCount }\n    d10: dora(from: $from, to: $to) { deployCount } d11: dora(from: $from, to: $to) { deployCount }\n    d12: dora(from: $from, to: $to) { deployCount } d13: dora(from: $from, to: $to) { deployCount }\n    d14: dora(from: $from, to: $to) { deployCount } d15: dora(from: $from, to: $to) { deployCount }\n    dora(from: $from, to: $to) { deployCount }\n  }\n": types.WorstDoraDocument,
    "\n  mutation WorstOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"down\") { id suspects { rank } } }\n": types.WorstOpenIncidentDocument,
    "\n  subscription OnIncidentUpdated {\n    incidentUpdated {\n      id title status\n      suspects { rank deploy { id version } }\n    }\n  }\n": types.OnIncidentUpdatedDocument,
    "\n  mutation SubscriptionOpenIncident($serviceId: ID!, $title: String!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, startedAt: $startedAt) { id }\n  }\n": types.SubscriptionOpenIncidentDocument,
    "\n  mutation SubscriptionAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }\n": types.SubscriptionAcknowledgeIncidentDocument,
    "\n  mutation WorkflowOpen($serviceId: ID!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: \"Checkout errors\", environment: \"production\", startedAt: $startedAt) { id startedAt }\n  }\n": types.WorkflowOpenDocument,
    "\n  mutation WorkflowAcknowledge($id: ID!) { acknowledgeIncident(id: $id) { id status } }\n": types.WorkflowAcknowledgeDocument,
    "\n  mutation WorkflowResolve($id: ID!, $resolvedAt: DateTime) { resolveIncident(id: $id, resolvedAt: $resolvedAt) { id status resolvedAt } }\n": types.WorkflowResolveDocument,
    "\n  mutation WorkflowMark($id: ID!, $deployId: ID!) { markSuspect(incidentId: $id, deployId: $deployId, verdict: CAUSED) { id } }\n": types.WorkflowMarkDocument,
    "\n  mutation WorkflowAddNote($incidentId: ID!, $body: String!) {\n    addIncidentNote(incidentId: $incidentId, body: $body) {\n      id body createdAt incident { id }\n      author { __typename ... on ApiToken { id } }\n    }\n  }\n": types.WorkflowAddNoteDocument,
    "\n  mutation WorkflowAlertSource { createAlertSource(name: \"PagerDuty\", kind: PAGERDUTY_EVENTS) { alertSource { id } token } }\n": types.WorkflowAlertSourceDocument,
    "\n  mutation WorkflowDeleteAlertSource($id: ID!) { deleteAlertSource(id: $id) }\n": types.WorkflowDeleteAlertSourceDocument,
    "\n  query WorkflowIncident($id: ID!) {\n    incident(id: $id) {\n      status acknowledgedAt resolvedAt\n      acknowledgedBy { __typename ... on ApiToken { id } ... on AlertSource { id name } ... on System { name } }\n      resolvedBy { __typename ... on ApiToken { id } ... on AlertSource { id name } ... on System { name } }\n      notes { id body createdAt author { __typename ... on ApiToken { id } } }\n      timeline {\n        kind at\n        actor { __typename ... on ApiToken { id } ... on AlertSource { id } ... on System { name } }\n        alert { fingerprint }\n        note { body }\n        verdict\n        deploy { id }\n        change { id }\n      }\n    }\n  }\n": types.WorkflowIncidentDocument,
    "\n  fragment IncidentParts on Incident {\n    id title severity environment status startedAt openedAt acknowledgedAt resolvedAt\n    service { id name }\n    suspects { rank score verdict reasons { code detail } deploy { id } }\n  }\n": types.IncidentPartsFragmentDoc,
    "\n  mutation OpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) {\n      ...IncidentParts\n    }\n  }\n": types.OpenIncidentDocument,
    "\n  mutation AcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { ...IncidentParts } }\n": types.AcknowledgeIncidentDocument,
    "\n  mutation ResolveIncident($id: ID!) { resolveIncident(id: $id) { ...IncidentParts } }\n": types.ResolveIncidentDocument,
    "\n  mutation MarkSuspect($incidentId: ID!, $deployId: ID!, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, verdict: $verdict) { ...IncidentParts }\n  }\n": types.MarkSuspectDocument,
    "\n  query Incident($id: ID!) { incident(id: $id) { ...IncidentParts } }\n": types.IncidentDocument,
    "\n  query IncidentsDora($serviceId: ID, $from: DateTime!, $to: DateTime!) { dora(serviceId: $serviceId, from: $from, to: $to) { deployCount changeFailureRate } }\n": types.IncidentsDoraDocument,
    "\n  query IncidentsList($first: Int, $after: String, $status: IncidentStatus, $serviceId: ID) {\n    incidents(first: $first, after: $after, status: $status, serviceId: $serviceId) {\n      edges { node { id title status service { id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.IncidentsListDocument,
    "\n  query ServiceIncidents($id: ID!, $status: IncidentStatus) {\n    service(id: $id) { id incidents(first: 50, status: $status) { edges { node { id status } } } }\n  }\n": types.ServiceIncidentsDocument,
    "\n  query DeploySuspectIn($id: ID!) {\n    deploy(id: $id) { id suspectIn { rank score verdict incident { id title } deploy { id } } }\n  }\n": types.DeploySuspectInDocument,
    "\n    mutation OpenIncidentWithLookback($serviceId: ID!, $startedAt: DateTime, $lookbackHours: Int) {\n      openIncident(serviceId: $serviceId, title: \"Slow leak\", startedAt: $startedAt, lookbackHours: $lookbackHours) {\n        id lookbackHours suspects { deploy { id } reasons { code detail } }\n      }\n    }\n  ": types.OpenIncidentWithLookbackDocument,
    "\n    mutation SetIncidentLookback($id: ID!, $lookbackHours: Int) {\n      setIncidentLookback(id: $id, lookbackHours: $lookbackHours) { id lookbackHours suspects { deploy { id } } }\n    }\n  ": types.SetIncidentLookbackDocument,
    "\n    mutation OpenSharedIncident($serviceId: ID!, $affectedServiceIds: [ID!]) {\n      openIncident(serviceId: $serviceId, title: \"Shared outage\", affectedServiceIds: $affectedServiceIds) {\n        id affectedServices { id name } suspects { deploy { id } reasons { code detail } }\n      }\n    }\n  ": types.OpenSharedIncidentDocument,
    "\n  mutation InvitesInvite($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { inviteUrl expiresAt } }\n": types.InvitesInviteDocument,
    "\n  query InvitesPending { pendingInvites { id email role createdAt expiresAt invitedBy { id email name } } }\n": types.InvitesPendingDocument,
    "\n  mutation InvitesCancel($id: ID!) { cancelInvite(id: $id) { id email role } }\n": types.InvitesCancelDocument,
    "\n  mutation InvitesChangePassword($current: String!, $new: String!) { changePassword(currentPassword: $current, newPassword: $new) }\n": types.InvitesChangePasswordDocument,
    "\n  query InvitesMe { me { person { email } organizations { organizationId name role } } }\n": types.InvitesMeDocument,
    "\n  query InvitesNode($id: ID!) { node(id: $id) { __typename id ... on Invite { email } } }\n": types.InvitesNodeDocument,
    "\n  query InvitesAudit($action: String!) { auditLog(first: 10, filter: { action: $action }) { edges { node { action objectId summary } } } }\n": types.InvitesAuditDocument,
    "\n  mutation ListenersCreate($eventTypes: [String!]) { createListener(eventTypes: $eventTypes) { id eventTypes live } }\n": types.ListenersCreateDocument,
    "\n  query ListenersListener($id: ID!) { listener(id: $id) { id live } }\n": types.ListenersListenerDocument,
    "\n  subscription ListenersEventCreated($listenerId: ID!) { eventCreated(listenerId: $listenerId) { id type createdAt data } }\n": types.ListenersEventCreatedDocument,
    "\n  mutation ListenersOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\") { id } }\n": types.ListenersOpenIncidentDocument,
    "\n  mutation ListenersPing { pingListeners { id type data } }\n": types.ListenersPingDocument,
    "\n  mutation ListenersPingWith($eventType: String) { pingListeners(eventType: $eventType) { id type data example } }\n": types.ListenersPingWithDocument,
    "\n  mutation ListenersCreateEndpoint($url: String!) { createWebhookEndpoint(url: $url, name: \"all events\") { endpoint { id } } }\n": types.ListenersCreateEndpointDocument,
    "\n  query SingleSignOnMe { me { person { email name } organization { id } role } }\n": types.SingleSignOnMeDocument,
    "\n  mutation OneQueryOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout down\") { id } }\n": types.OneQueryOpenIncidentDocument,
    "\n  mutation OneQueryAcknowledge($id: ID!) { acknowledgeIncident(id: $id) { status } }\n": types.OneQueryAcknowledgeDocument,
    "\n  mutation OneQueryResolve($id: ID!) { resolveIncident(id: $id) { status } }\n": types.OneQueryResolveDocument,
    "\n  query PeopleMe { me { person { id email name } organization { id name } role } }\n": types.PeopleMeDocument,
    "\n  query PeopleSessions { sessions { id current ip userAgent createdAt lastSeenAt expiresAt absoluteExpiresAt } }\n": types.PeopleSessionsDocument,
    "\n  mutation PeopleRevokeSession($id: ID!) { revokeSession(id: $id) { id } }\n": types.PeopleRevokeSessionDocument,
    "\n  mutation PeopleRevokeAll { revokeAllSessions }\n": types.PeopleRevokeAllDocument,
    "\n  mutation PeopleCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }\n": types.PeopleCreateServiceDocument,
    "\n  query PeopleServices { services { totalCount } }\n": types.PeopleServicesDocument,
    "\n  mutation PeopleCreateEndpoint($url: String!) { createWebhookEndpoint(url: $url, name: \"hook\") { endpoint { id } signingSecret } }\n": types.PeopleCreateEndpointDocument,
    "\n  mutation PeopleReveal($id: ID!) { revealWebhookSecret(id: $id) { signingSecret } }\n": types.PeopleRevealDocument,
    "\n  query PeopleMembers { members(first: 10) { totalCount edges { node { role person { id email } } } } }\n": types.PeopleMembersDocument,
    "\n  mutation PeopleChangeRole($personId: ID!, $role: Role!) { changeMemberRole(personId: $personId, role: $role) { role person { id } } }\n": types.PeopleChangeRoleDocument,
    "\n  mutation PeopleRemoveMember($personId: ID!) { removeMember(personId: $personId) }\n": types.PeopleRemoveMemberDocument,
    "\n  mutation PeopleSwitch($id: ID!) { switchOrganization(id: $id) { organization { id } role } }\n": types.PeopleSwitchDocument,
    "\n  mutation PeopleCreateToken($scope: ApiTokenScope) { createApiToken(name: \"ci\", scope: $scope) { token apiToken { id scope } } }\n": types.PeopleCreateTokenDocument,
    "\n      query PeopleNode($id: ID!) { node(id: $id) { __typename id } }\n    ": types.PeopleNodeDocument,
    "\n          mutation PeopleInviteExisting($email: String!) { inviteMember(email: $email, role: VIEWER) { inviteUrl } }\n        ": types.PeopleInviteExistingDocument,
    "\n  subscription PgbouncerDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status event { type } }\n  }\n": types.PgbouncerDeliveryUpdatedDocument,
    "\n  mutation SetRepository($serviceId: ID!, $url: String) {\n    setServiceRepositoryUrl(serviceId: $serviceId, url: $url) { id repositoryUrl }\n  }\n": types.SetRepositoryDocument,
    "\n  query DeployLinks($id: ID!) {\n    deploy(id: $id) {\n      commitUrl compareUrl pullRequestUrl\n      service { repositoryUrl }\n      commitsSincePrevious { sha subject body url pullRequestUrl }\n    }\n  }\n": types.DeployLinksDocument,
    "\n  query DeployHeadline($id: ID!) { deploy(id: $id) { commitMessage headline } }\n": types.DeployHeadlineDocument,
    "\n  query RepositoryAudit {\n    auditLog(first: 5, filter: { action: \"service.setRepositoryUrl\" }) { edges { node { action objectId summary } } }\n  }\n": types.RepositoryAuditDocument,
    "query RetentionOfViewer { viewer { retentionDays historyStartsAt } }": types.RetentionOfViewerDocument,
    "\n  mutation CreateService($name: String!) {\n    createService(name: $name) { deployToken service { id name deployTokenPrefix } }\n  }\n": types.CreateServiceDocument,
    "\n  mutation RotateDeployToken($serviceId: ID!) {\n    rotateDeployToken(serviceId: $serviceId) { deployToken service { id name deployTokenPrefix } }\n  }\n": types.RotateDeployTokenDocument,
    "\n  query ServicesPage($after: String) {\n    viewer { id name }\n    services(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage endCursor } }\n  }\n": types.ServicesPageDocument,
    "\n  query Service($id: ID!) { service(id: $id) { id name } }\n": types.ServiceDocument,
    "\n  query EndpointQueue($id: ID!) { webhookEndpoint(id: $id) { pendingRetries overdueDeliveries } }\n": types.EndpointQueueDocument,
    "\n  mutation ResendStranded($id: ID!) { resendDelivery(id: $id) { id status attemptCount } }\n": types.ResendStrandedDocument,
    "\n  mutation RetryStranded($id: ID!) { retryDelivery(id: $id) { id status attemptCount } }\n": types.RetryStrandedDocument,
    "\n  mutation RecoverStranded($endpointId: ID!, $since: DateTime!) { recoverDeliveries(endpointId: $endpointId, since: $since) { queued hasMore nextSince } }\n": types.RecoverStrandedDocument,
    "\n  subscription OnDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) {\n      id\n      status\n      attemptCount\n      event { type }\n      endpoint { id }\n      attempts { number succeeded responseStatus }\n    }\n  }\n": types.OnDeliveryUpdatedDocument,
    "\n  mutation GraphqlWsSendPing($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n": types.GraphqlWsSendPingDocument,
    "\n  mutation CreateEndpoint($url: String!, $name: String!, $eventTypes: [String!], $headers: [WebhookHeaderInput!]) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers) { signingSecret endpoint { id } }\n  }\n": types.CreateEndpointDocument,
    "\n  mutation PeopleInvite($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { inviteUrl expiresAt } }\n": types.PeopleInviteDocument,
    "\n  query TotalCountsEveryList($serviceId: ID!) {\n    services(first: 1) { totalCount totalCountIsEstimate }\n    service(id: $serviceId) {\n      deploys(first: 1) { totalCount totalCountIsEstimate }\n      incidents(first: 1) { totalCount totalCountIsEstimate }\n    }\n    deploys(first: 1) { totalCount totalCountIsEstimate }\n    incidents(first: 1) { totalCount totalCountIsEstimate edges { node { alerts(first: 1) { totalCount totalCountIsEstimate } } } }\n    changeEvents(first: 1) { totalCount totalCountIsEstimate }\n    timeline(first: 1) { totalCount totalCountIsEstimate }\n    webhookEndpoints(first: 1) { totalCount totalCountIsEstimate }\n    apiTokens(first: 1) { totalCount totalCountIsEstimate }\n    alertSources(first: 1) { totalCount totalCountIsEstimate edges { node { unroutedAlerts(first: 1) { totalCount totalCountIsEstimate } } } }\n  }\n": types.TotalCountsEveryListDocument,
    "\n  query TotalCounts($endpointId: ID!) {\n    deliveries(first: 1, filter: { endpointId: $endpointId }) { totalCount totalCountIsEstimate }\n    webhookEndpoint(id: $endpointId) { deliveries(first: 1) { totalCount totalCountIsEstimate } }\n    events(first: 1) { totalCount totalCountIsEstimate edges { node { deliveries(first: 1) { totalCount totalCountIsEstimate } } } }\n  }\n": types.TotalCountsDocument,
    "\n  mutation SecretsRotate($id: ID!, $gracePeriodSeconds: Int) {\n    rotateWebhookSecret(id: $id, gracePeriodSeconds: $gracePeriodSeconds) { signingSecret endpoint { id previousSecretExpiresAt } }\n  }\n": types.SecretsRotateDocument,
    "\n  mutation SecretsReveal($id: ID!) {\n    revealWebhookSecret(id: $id) { signingSecret endpoint { id } }\n  }\n": types.SecretsRevealDocument,
    "\n  query SecretsReveals($id: ID!) {\n    webhookEndpoint(id: $id) { id secretReveals { id revealedAt apiToken { id prefix } } }\n  }\n": types.SecretsRevealsDocument,
    "\n  mutation SecretsSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n": types.SecretsSendTestDocument,
    "\n  subscription LimitsDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status event { type data } }\n  }\n": types.LimitsDeliveryUpdatedDocument,
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
export function graphql(source: "\n  query AuditLog($first: Int, $after: String, $filter: AuditLogFilter) {\n    auditLog(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges {\n        node {\n          id\n          at\n          action\n          objectId\n          summary\n          ip\n          userAgent\n          actor {\n            __typename\n            ... on ApiToken { id prefix }\n            ... on AlertSource { id name }\n            ... on Person { id email }\n            ... on System { name }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query AuditLog($first: Int, $after: String, $filter: AuditLogFilter) {\n    auditLog(first: $first, after: $after, filter: $filter) {\n      totalCount\n      edges {\n        node {\n          id\n          at\n          action\n          objectId\n          summary\n          ip\n          userAgent\n          actor {\n            __typename\n            ... on ApiToken { id prefix }\n            ... on AlertSource { id name }\n            ... on Person { id email }\n            ... on System { name }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChangeDetails($id: ID!) { changeEvent(id: $id) { subject previous value actor } }\n"): (typeof documents)["\n  query ChangeDetails($id: ID!) { changeEvent(id: $id) { subject previous value actor } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CorrelationCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }\n"): (typeof documents)["\n  mutation CorrelationCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CorrelationSetDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id dependsOn { id } }\n  }\n"): (typeof documents)["\n  mutation CorrelationSetDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id dependsOn { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CorrelationSetAliases($environment: String!, $aliases: [String!]!) { setEnvironmentAliases(environment: $environment, aliases: $aliases) { name } }\n"): (typeof documents)["\n  mutation CorrelationSetAliases($environment: String!, $aliases: [String!]!) { setEnvironmentAliases(environment: $environment, aliases: $aliases) { name } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CorrelationOpenIncident($serviceId: ID!, $environment: String, $startedAt: DateTime, $lookbackHours: Int, $affectedServiceIds: [ID!]) {\n    openIncident(\n      serviceId: $serviceId, title: \"Errors\", environment: $environment, startedAt: $startedAt, lookbackHours: $lookbackHours,\n      affectedServiceIds: $affectedServiceIds\n    ) { id affectedServices { name } }\n  }\n"): (typeof documents)["\n  mutation CorrelationOpenIncident($serviceId: ID!, $environment: String, $startedAt: DateTime, $lookbackHours: Int, $affectedServiceIds: [ID!]) {\n    openIncident(\n      serviceId: $serviceId, title: \"Errors\", environment: $environment, startedAt: $startedAt, lookbackHours: $lookbackHours,\n      affectedServiceIds: $affectedServiceIds\n    ) { id affectedServices { name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CorrelationIncident($id: ID!) {\n    incident(id: $id) {\n      id\n      suspects { rank score verdict reasons { code detail } deploy { id } change { id kind summary } }\n    }\n  }\n"): (typeof documents)["\n  query CorrelationIncident($id: ID!) {\n    incident(id: $id) {\n      id\n      suspects { rank score verdict reasons { code detail } deploy { id } change { id kind summary } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CorrelationMarkSuspect($incidentId: ID!, $deployId: ID, $changeId: ID, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: $verdict) {\n      suspects { verdict deploy { id } change { id } }\n    }\n  }\n"): (typeof documents)["\n  mutation CorrelationMarkSuspect($incidentId: ID!, $deployId: ID, $changeId: ID, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: $verdict) {\n      suspects { verdict deploy { id } change { id } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OnCallOpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) {\n      id\n      suspects { deploy { id } }\n    }\n  }\n"): (typeof documents)["\n  mutation OnCallOpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) {\n      id\n      suspects { deploy { id } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OnCallSendTestEvent($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n"): (typeof documents)["\n  mutation OnCallSendTestEvent($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OnCallEndpointStatus($id: ID!) { webhookEndpoint(id: $id) { status } }\n"): (typeof documents)["\n  query OnCallEndpointStatus($id: ID!) { webhookEndpoint(id: $id) { status } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BrowserPeopleDeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n"): (typeof documents)["\n  mutation BrowserPeopleDeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BrowserPeopleSessions { sessions { id current } }\n"): (typeof documents)["\n  query BrowserPeopleSessions { sessions { id current } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BrowserPeopleEndpoint($id: ID!) { webhookEndpoint(id: $id) { id } }\n"): (typeof documents)["\n  query BrowserPeopleEndpoint($id: ID!) { webhookEndpoint(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BrowserPeopleRevokeSession($id: ID!) { revokeSession(id: $id) { id } }\n"): (typeof documents)["\n  mutation BrowserPeopleRevokeSession($id: ID!) { revokeSession(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RefusalViewer { viewer { id } }\n"): (typeof documents)["\n  query RefusalViewer { viewer { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RefusalRetry($id: ID!) { retryDelivery(id: $id) { id } }\n"): (typeof documents)["\n  mutation RefusalRetry($id: ID!) { retryDelivery(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeliveryEndpointsSetActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { status consecutiveFailures disabledAt disabledReason }\n  }\n"): (typeof documents)["\n  mutation DeliveryEndpointsSetActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { status consecutiveFailures disabledAt disabledReason }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeliveryEndpointsDelete($id: ID!) { deleteWebhookEndpoint(id: $id) }\n"): (typeof documents)["\n  mutation DeliveryEndpointsDelete($id: ID!) { deleteWebhookEndpoint(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeliveryAttempts($id: ID!) {\n    delivery(id: $id) {\n      status attemptCount\n      attempts { number succeeded responseStatus responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded error }\n    }\n  }\n"): (typeof documents)["\n  query DeliveryAttempts($id: ID!) {\n    delivery(id: $id) {\n      status attemptCount\n      attempts { number succeeded responseStatus responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded error }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RecoveryResend($id: ID!) { resendDelivery(id: $id) { id status attemptCount } }\n"): (typeof documents)["\n  mutation RecoveryResend($id: ID!) { resendDelivery(id: $id) { id status attemptCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RecoveryRecover($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }\n  }\n"): (typeof documents)["\n  mutation RecoveryRecover($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RecoverySetActive($id: ID!, $active: Boolean!) { setWebhookEndpointActive(id: $id, active: $active) { id status } }\n"): (typeof documents)["\n  mutation RecoverySetActive($id: ID!, $active: Boolean!) { setWebhookEndpointActive(id: $id, active: $active) { id status } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RecoveryDeliveryUpdated($endpointId: ID) { deliveryUpdated(endpointId: $endpointId) { id status attemptCount } }\n"): (typeof documents)["\n  subscription RecoveryDeliveryUpdated($endpointId: ID) { deliveryUpdated(endpointId: $endpointId) { id status attemptCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeployHealthOf($id: ID!) {\n    deploy(id: $id) { health { windowSeconds alertsBefore alertsAfter incidentsBefore incidentsAfter } }\n  }\n"): (typeof documents)["\n  query DeployHealthOf($id: ID!) {\n    deploy(id: $id) { health { windowSeconds alertsBefore alertsAfter incidentsBefore incidentsAfter } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeployHealthRanked {\n    incidents(first: 20) { edges { node { startedAt suspects { deploy { id } reasons { code detail } } } } }\n  }\n"): (typeof documents)["\n  query DeployHealthRanked {\n    incidents(first: 20) { edges { node { startedAt suspects { deploy { id } reasons { code detail } } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraKeys($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n    }\n  }\n"): (typeof documents)["\n  query DoraKeys($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraPieces($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      from to deployCount\n      byWeek { from to deployCount changeFailureRate }\n    }\n  }\n"): (typeof documents)["\n  query DoraPieces($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      from to deployCount\n      byWeek { from to deployCount changeFailureRate }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraFailureCounts($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) { deployCount failedDeployCount rolledBackCount judgedCausedCount topSuspectCount changeFailureRate }\n  }\n"): (typeof documents)["\n  query DoraFailureCounts($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) { deployCount failedDeployCount rolledBackCount judgedCausedCount topSuspectCount changeFailureRate }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraDrillDowns($serviceId: ID, $from: DateTime!, $to: DateTime!, $first: Int!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) {\n      failedDeploys(first: $first) { reason deploy { id } }\n      restoreIncidents(first: $first) { id }\n      byService { service { id name } keys { deployCount failedDeployCount timeToRestoreSeconds } }\n    }\n  }\n"): (typeof documents)["\n  query DoraDrillDowns($serviceId: ID, $from: DateTime!, $to: DateTime!, $first: Int!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) {\n      failedDeploys(first: $first) { reason deploy { id } }\n      restoreIncidents(first: $first) { id }\n      byService { service { id name } keys { deployCount failedDeployCount timeToRestoreSeconds } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraDaysOfPeriod($from: DateTime!, $to: DateTime!) {\n    dora(from: $from, to: $to) { byDay { from to deployCount } }\n  }\n"): (typeof documents)["\n  query DoraDaysOfPeriod($from: DateTime!, $to: DateTime!) {\n    dora(from: $from, to: $to) { byDay { from to deployCount } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DoraOpenIncident($serviceId: ID!, $title: String!, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, environment: $environment, startedAt: $startedAt) {\n      id startedAt suspects { rank deploy { id } }\n    }\n  }\n"): (typeof documents)["\n  mutation DoraOpenIncident($serviceId: ID!, $title: String!, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, environment: $environment, startedAt: $startedAt) {\n      id startedAt suspects { rank deploy { id } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DoraResolveIncident($id: ID!) { resolveIncident(id: $id) { id startedAt resolvedAt } }\n"): (typeof documents)["\n  mutation DoraResolveIncident($id: ID!) { resolveIncident(id: $id) { id startedAt resolvedAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DoraMarkSuspect($incidentId: ID!, $deployId: ID!, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, verdict: $verdict) { id }\n  }\n"): (typeof documents)["\n  mutation DoraMarkSuspect($incidentId: ID!, $deployId: ID!, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, verdict: $verdict) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraOfDays($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n      failedDeployCount rolledBackCount\n      failedDeploys(first: 200) { reason deploy { id deployedAt } }\n    }\n  }\n"): (typeof documents)["\n  query DoraOfDays($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {\n      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds\n      failedDeployCount rolledBackCount\n      failedDeploys(first: 200) { reason deploy { id deployedAt } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraCostAlone($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n  }\n"): (typeof documents)["\n  query DoraCostAlone($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraCostDays($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) {\n      byDay { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    }\n  }\n"): (typeof documents)["\n  query DoraCostDays($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) {\n      byDay { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraCostWeeks($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) {\n      byWeek { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    }\n  }\n"): (typeof documents)["\n  query DoraCostWeeks($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, environment: \"production\", from: $from, to: $to) {\n      byWeek { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraCostServices($from: DateTime!, $to: DateTime!) {\n    dora(environment: \"production\", from: $from, to: $to) {\n      byService { service { name } keys { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds } }\n    }\n  }\n"): (typeof documents)["\n  query DoraCostServices($from: DateTime!, $to: DateTime!) {\n    dora(environment: \"production\", from: $from, to: $to) {\n      byService { service { name } keys { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DisabledEndpoint($id: ID!) {\n    webhookEndpoint(id: $id) { id status disabledAt disabledReason consecutiveFailures deliveries(first: 10) { edges { node { status attemptCount } } } }\n  }\n"): (typeof documents)["\n  query DisabledEndpoint($id: ID!) {\n    webhookEndpoint(id: $id) { id status disabledAt disabledReason consecutiveFailures deliveries(first: 10) { edges { node { status attemptCount } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SettingsCreateEndpoint(\n    $url: String!\n    $name: String!\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      signingSecret\n      endpoint { id headers { name value } timeoutMs rateLimitPerSecond }\n    }\n  }\n"): (typeof documents)["\n  mutation SettingsCreateEndpoint(\n    $url: String!\n    $name: String!\n    $eventTypes: [String!]\n    $headers: [WebhookHeaderInput!]\n    $timeoutMs: Int\n    $rateLimitPerSecond: Int\n  ) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      signingSecret\n      endpoint { id headers { name value } timeoutMs rateLimitPerSecond }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SettingsUpdateEndpoint($id: ID!, $headers: [WebhookHeaderInput!], $timeoutMs: Int, $rateLimitPerSecond: Int) {\n    updateWebhookEndpoint(id: $id, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      id name headers { name value } timeoutMs rateLimitPerSecond\n    }\n  }\n"): (typeof documents)["\n  mutation SettingsUpdateEndpoint($id: ID!, $headers: [WebhookHeaderInput!], $timeoutMs: Int, $rateLimitPerSecond: Int) {\n    updateWebhookEndpoint(id: $id, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {\n      id name headers { name value } timeoutMs rateLimitPerSecond\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SettingsSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n"): (typeof documents)["\n  mutation SettingsSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SettingsPolicy { webhookDestinationPolicy { minTimeoutMs maxTimeoutMs maxRateLimitPerSecond } }\n"): (typeof documents)["\n  query SettingsPolicy { webhookDestinationPolicy { minTimeoutMs maxTimeoutMs maxRateLimitPerSecond } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CatalogueEventTypes { eventTypes { name label description schema example } }\n"): (typeof documents)["\n  query CatalogueEventTypes { eventTypes { name label description schema example } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CatalogueOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\", environment: \"production\") { id } }\n"): (typeof documents)["\n  mutation CatalogueOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\", environment: \"production\") { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CatalogueAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }\n"): (typeof documents)["\n  mutation CatalogueAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CatalogueResolveIncident($id: ID!) { resolveIncident(id: $id) { id } }\n"): (typeof documents)["\n  mutation CatalogueResolveIncident($id: ID!) { resolveIncident(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CatalogueSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n"): (typeof documents)["\n  mutation CatalogueSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CatalogueSendExample($endpointId: ID!, $eventType: String!) {\n    sendExample(endpointId: $endpointId, eventType: $eventType) { id status event { id type example data } endpoint { id } }\n  }\n"): (typeof documents)["\n  mutation CatalogueSendExample($endpointId: ID!, $eventType: String!) {\n    sendExample(endpointId: $endpointId, eventType: $eventType) { id status event { id type example data } endpoint { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateGitHubWebhookSecret($serviceId: ID!) {\n    rotateGitHubWebhookSecret(serviceId: $serviceId) { secret payloadPath service { id gitHubWebhookSecretCreatedAt } }\n  }\n"): (typeof documents)["\n  mutation RotateGitHubWebhookSecret($serviceId: ID!) {\n    rotateGitHubWebhookSecret(serviceId: $serviceId) { secret payloadPath service { id gitHubWebhookSecretCreatedAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateAlertSource($name: String!, $kind: AlertSourceKind!) {\n    createAlertSource(name: $name, kind: $kind) { token alertSource { id name kind ingestPath tokenPrefix lastReceivedAt unroutedAlertCount } }\n  }\n"): (typeof documents)["\n  mutation CreateAlertSource($name: String!, $kind: AlertSourceKind!) {\n    createAlertSource(name: $name, kind: $kind) { token alertSource { id name kind ingestPath tokenPrefix lastReceivedAt unroutedAlertCount } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateAlertSourceToken($id: ID!) {\n    rotateAlertSourceToken(id: $id) { token alertSource { id tokenPrefix } }\n  }\n"): (typeof documents)["\n  mutation RotateAlertSourceToken($id: ID!) {\n    rotateAlertSourceToken(id: $id) { token alertSource { id tokenPrefix } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteAlertSource($id: ID!) { deleteAlertSource(id: $id) }\n"): (typeof documents)["\n  mutation DeleteAlertSource($id: ID!) { deleteAlertSource(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AlertSources {\n    alertSources(first: 10) {\n      edges {\n        node {\n          id name kind lastReceivedAt unroutedAlertCount\n          unroutedAlerts(first: 5) { totalCount edges { node { fingerprint status labels unroutedReason incident { id } } } }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query AlertSources {\n    alertSources(first: 10) {\n      edges {\n        node {\n          id name kind lastReceivedAt unroutedAlertCount\n          unroutedAlerts(first: 5) { totalCount edges { node { fingerprint status labels unroutedReason incident { id } } } }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AlertSourceCursors($after: String) {\n    alertSources(first: 1, after: $after) { edges { cursor node { id } } }\n  }\n"): (typeof documents)["\n  query AlertSourceCursors($after: String) {\n    alertSources(first: 1, after: $after) { edges { cursor node { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query IncidentAlerts($id: ID!) {\n    incident(id: $id) {\n      id\n      alertSource { id name kind }\n      alerts(first: 10) {\n        totalCount\n        edges { node { fingerprint status labels annotations startsAt endsAt generatorURL unroutedReason } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query IncidentAlerts($id: ID!) {\n    incident(id: $id) {\n      id\n      alertSource { id name kind }\n      alerts(first: 10) {\n        totalCount\n        edges { node { fingerprint status labels annotations startsAt endsAt generatorURL unroutedReason } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AlertSourceKinds { alertSourceKinds { kind label detail ingestPath ingestInstructions } }\n"): (typeof documents)["\n  query AlertSourceKinds { alertSourceKinds { kind label detail ingestPath ingestInstructions } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiTokens($first: Int, $after: String) {\n    apiTokens(first: $first, after: $after) {\n      edges { node { id name prefix createdAt lastUsedAt revokedAt } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query ApiTokens($first: Int, $after: String) {\n    apiTokens(first: $first, after: $after) {\n      edges { node { id name prefix createdAt lastUsedAt revokedAt } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiToken($name: String) {\n    createApiToken(name: $name) { plaintextToken apiToken { id name prefix createdAt lastUsedAt revokedAt } }\n  }\n"): (typeof documents)["\n  mutation CreateApiToken($name: String) {\n    createApiToken(name: $name) { plaintextToken apiToken { id name prefix createdAt lastUsedAt revokedAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { id prefix revokedAt }\n  }\n"): (typeof documents)["\n  mutation RevokeApiToken($id: ID!) {\n    revokeApiToken(id: $id) { id prefix revokedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ViewerId { viewer { id } }\n"): (typeof documents)["\n  query ViewerId { viewer { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation GraphqlCorrelationCreateService($name: String!) { createService(name: $name) { service { id name } deployToken } }\n"): (typeof documents)["\n  mutation GraphqlCorrelationCreateService($name: String!) { createService(name: $name) { service { id name } deployToken } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetServiceDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id name dependsOn { name } dependents { name } }\n  }\n"): (typeof documents)["\n  mutation SetServiceDependencies($serviceId: ID!, $dependsOn: [ID!]!) {\n    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id name dependsOn { name } dependents { name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ServiceDependencies($id: ID!) { service(id: $id) { name dependsOn { name } dependents { name } } }\n"): (typeof documents)["\n  query ServiceDependencies($id: ID!) { service(id: $id) { name dependsOn { name } dependents { name } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeployRollback($id: ID!) {\n    deploy(id: $id) { id isRollback restoredDeploy { id } rolledBack rolledBackBy { id } }\n  }\n"): (typeof documents)["\n  query DeployRollback($id: ID!) {\n    deploy(id: $id) { id isRollback restoredDeploy { id } rolledBack rolledBackBy { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeploysRollbacks($serviceId: ID) {\n    deploys(first: 50, serviceId: $serviceId) { edges { node { id commitSha environment isRollback rolledBack } } }\n  }\n"): (typeof documents)["\n  query DeploysRollbacks($serviceId: ID) {\n    deploys(first: 50, serviceId: $serviceId) { edges { node { id commitSha environment isRollback rolledBack } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DoraFailures($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) { deployCount changeFailureRate }\n  }\n"): (typeof documents)["\n  query DoraFailures($serviceId: ID, $from: DateTime!, $to: DateTime!) {\n    dora(serviceId: $serviceId, from: $from, to: $to) { deployCount changeFailureRate }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Timeline($first: Int, $after: String, $last: Int, $before: String, $serviceId: ID, $environment: String) {\n    timeline(first: $first, after: $after, last: $last, before: $before, serviceId: $serviceId, environment: $environment) {\n      edges { cursor node { __typename ... on Deploy { id } ... on ChangeEvent { id kind summary service { name } } } }\n      pageInfo { hasNextPage hasPreviousPage endCursor startCursor }\n    }\n  }\n"): (typeof documents)["\n  query Timeline($first: Int, $after: String, $last: Int, $before: String, $serviceId: ID, $environment: String) {\n    timeline(first: $first, after: $after, last: $last, before: $before, serviceId: $serviceId, environment: $environment) {\n      edges { cursor node { __typename ... on Deploy { id } ... on ChangeEvent { id kind summary service { name } } } }\n      pageInfo { hasNextPage hasPreviousPage endCursor startCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChangeEvents($serviceId: ID, $environment: String) {\n    changeEvents(first: 10, serviceId: $serviceId, environment: $environment) { edges { node { id kind summary environment url changedAt service { name } } } }\n  }\n"): (typeof documents)["\n  query ChangeEvents($serviceId: ID, $environment: String) {\n    changeEvents(first: 10, serviceId: $serviceId, environment: $environment) { edges { node { id kind summary environment url changedAt service { name } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChangeEvent($id: ID!) { changeEvent(id: $id) { id kind } }\n"): (typeof documents)["\n  query ChangeEvent($id: ID!) { changeEvent(id: $id) { id kind } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query Environments { environments { name aliases spellings } }\n  "): (typeof documents)["\n    query Environments { environments { name aliases spellings } }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation SetEnvironmentAliases($environment: String!, $aliases: [String!]!) {\n      setEnvironmentAliases(environment: $environment, aliases: $aliases) { name aliases spellings }\n    }\n  "): (typeof documents)["\n    mutation SetEnvironmentAliases($environment: String!, $aliases: [String!]!) {\n      setEnvironmentAliases(environment: $environment, aliases: $aliases) { name aliases spellings }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query AliasDeploys($environment: String) { deploys(first: 20, environment: $environment) { edges { node { id } } } }\n  "): (typeof documents)["\n    query AliasDeploys($environment: String) { deploys(first: 20, environment: $environment) { edges { node { id } } } }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query AliasDora($environment: String, $from: DateTime!, $to: DateTime!) { dora(environment: $environment, from: $from, to: $to) { deployCount } }\n  "): (typeof documents)["\n    query AliasDora($environment: String, $from: DateTime!, $to: DateTime!) { dora(environment: $environment, from: $from, to: $to) { deployCount } }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation AliasOpenIncident($serviceId: ID!, $environment: String, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", environment: $environment, startedAt: $startedAt) {\n        suspects { rank deploy { id } change { id } reasons { code detail } }\n      }\n    }\n  "): (typeof documents)["\n    mutation AliasOpenIncident($serviceId: ID!, $environment: String, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", environment: $environment, startedAt: $startedAt) {\n        suspects { rank deploy { id } change { id } reasons { code detail } }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query DeployRollout($id: ID!) { deploy(id: $id) { id deployedAt rolloutPercentage rolloutStages { percentage at } } }\n  "): (typeof documents)["\n    query DeployRollout($id: ID!) { deploy(id: $id) { id deployedAt rolloutPercentage rolloutStages { percentage at } } }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RolloutOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", startedAt: $startedAt) { id suspects { score deploy { id } reasons { code detail } } }\n    }\n  "): (typeof documents)["\n    mutation RolloutOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", startedAt: $startedAt) { id suspects { score deploy { id } reasons { code detail } } }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation MainReasonOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", environment: \"production\", startedAt: $startedAt) {\n        suspects { deploy { id } reasons { code effect } mainReason { code detail effect } }\n      }\n    }\n  "): (typeof documents)["\n    mutation MainReasonOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n      openIncident(serviceId: $serviceId, title: \"Errors\", environment: \"production\", startedAt: $startedAt) {\n        suspects { deploy { id } reasons { code effect } mainReason { code detail effect } }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CursorsPages($after: String) {\n    services(first: 2, after: $after) { edges { cursor node { id } } }\n    deploys(first: 2, after: $after) { edges { cursor node { id } } }\n    incidents(first: 2, after: $after) { edges { cursor node { id } } }\n    webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } }\n  }\n"): (typeof documents)["\n  query CursorsPages($after: String) {\n    services(first: 2, after: $after) { edges { cursor node { id } } }\n    deploys(first: 2, after: $after) { edges { cursor node { id } } }\n    incidents(first: 2, after: $after) { edges { cursor node { id } } }\n    webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CursorsServices($after: String, $before: String) { services(first: 2, after: $after, before: $before) { edges { cursor node { id } } } }\n"): (typeof documents)["\n  query CursorsServices($after: String, $before: String) { services(first: 2, after: $after, before: $before) { edges { cursor node { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CursorsDeploys($after: String) { deploys(first: 2, after: $after) { edges { cursor node { id } } } }\n"): (typeof documents)["\n  query CursorsDeploys($after: String) { deploys(first: 2, after: $after) { edges { cursor node { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CursorsIncidents($after: String) { incidents(first: 2, after: $after) { edges { cursor node { id } } } }\n"): (typeof documents)["\n  query CursorsIncidents($after: String) { incidents(first: 2, after: $after) { edges { cursor node { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CursorsEndpoints($after: String) { webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } } }\n"): (typeof documents)["\n  query CursorsEndpoints($after: String) { webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CursorsServiceDeploys($serviceId: ID!, $after: String) { service(id: $serviceId) { deploys(first: 2, after: $after) { edges { cursor } } } }\n"): (typeof documents)["\n  query CursorsServiceDeploys($serviceId: ID!, $after: String) { service(id: $serviceId) { deploys(first: 2, after: $after) { edges { cursor } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CursorsServiceIncidents($serviceId: ID!, $after: String) { service(id: $serviceId) { incidents(first: 2, after: $after) { edges { cursor } } } }\n"): (typeof documents)["\n  query CursorsServiceIncidents($serviceId: ID!, $after: String) { service(id: $serviceId) { incidents(first: 2, after: $after) { edges { cursor } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CursorsDeliveries($endpointId: ID!, $after: String) {\n    webhookEndpoint(id: $endpointId) { deliveries(first: 2, after: $after) { edges { cursor node { id } } } }\n  }\n"): (typeof documents)["\n  query CursorsDeliveries($endpointId: ID!, $after: String) {\n    webhookEndpoint(id: $endpointId) { deliveries(first: 2, after: $after) { edges { cursor node { id } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CursorsApiTokens($after: String) { apiTokens(first: 2, after: $after) { edges { cursor node { id } } } }\n"): (typeof documents)["\n  query CursorsApiTokens($after: String) { apiTokens(first: 2, after: $after) { edges { cursor node { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription CursorsSubscription($after: String) {\n    deliveryUpdated { id endpoint { deliveries(first: 1, after: $after) { edges { cursor } } } }\n  }\n"): (typeof documents)["\n  subscription CursorsSubscription($after: String) {\n    deliveryUpdated { id endpoint { deliveries(first: 1, after: $after) { edges { cursor } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CursorsCreateService($name: String!) { createService(name: $name) { service { id } } }\n"): (typeof documents)["\n  mutation CursorsCreateService($name: String!) { createService(name: $name) { service { id } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CursorsOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"down\") { id } }\n"): (typeof documents)["\n  mutation CursorsOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"down\") { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DateInputDeliveries($filter: DeliveryFilter) { deliveries(filter: $filter) { totalCount } }\n"): (typeof documents)["\n  query DateInputDeliveries($filter: DeliveryFilter) { deliveries(filter: $filter) { totalCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DateInputEvents($filter: EventFilter) { events(filter: $filter) { totalCount } }\n"): (typeof documents)["\n  query DateInputEvents($filter: EventFilter) { events(filter: $filter) { totalCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DateInputDora($from: DateTime!, $to: DateTime!) { dora(from: $from, to: $to) { deployCount } }\n"): (typeof documents)["\n  query DateInputDora($from: DateTime!, $to: DateTime!) { dora(from: $from, to: $to) { deployCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DateInputOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: \"Checkout errors\", startedAt: $startedAt) { id }\n  }\n"): (typeof documents)["\n  mutation DateInputOpenIncident($serviceId: ID!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: \"Checkout errors\", startedAt: $startedAt) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DateInputRecover($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued }\n  }\n"): (typeof documents)["\n  mutation DateInputRecover($endpointId: ID!, $since: DateTime!, $until: DateTime) {\n    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DateInputResend($filter: DeliveryFilter!) { resendDeliveries(filter: $filter) { queued } }\n"): (typeof documents)["\n  mutation DateInputResend($filter: DeliveryFilter!) { resendDeliveries(filter: $filter) { queued } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DateInputAuditLog($filter: AuditLogFilter) { auditLog(filter: $filter) { totalCount } }\n"): (typeof documents)["\n  query DateInputAuditLog($filter: AuditLogFilter) { auditLog(filter: $filter) { totalCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DateInputResolveIncident($id: ID!, $resolvedAt: DateTime) { resolveIncident(id: $id, resolvedAt: $resolvedAt) { id } }\n"): (typeof documents)["\n  mutation DateInputResolveIncident($id: ID!, $resolvedAt: DateTime) { resolveIncident(id: $id, resolvedAt: $resolvedAt) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DateInputChart($id: ID!, $from: DateTime!, $to: DateTime!) { webhookEndpoint(id: $id) { chart(interval: DAY, from: $from, to: $to) { start } } }\n"): (typeof documents)["\n  query DateInputChart($id: ID!, $from: DateTime!, $to: DateTime!) { webhookEndpoint(id: $id) { chart(interval: DAY, from: $from, to: $to) { start } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeploysList($first: Int, $after: String, $serviceId: ID, $environment: String) {\n    deploys(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {\n      edges { cursor node { id commitSha environment deployedAt service { id name } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query DeploysList($first: Int, $after: String, $serviceId: ID, $environment: String) {\n    deploys(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {\n      edges { cursor node { id commitSha environment deployedAt service { id name } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ServiceDeploysList($id: ID!, $first: Int, $after: String, $environment: String) {\n    service(id: $id) {\n      id\n      deploys(first: $first, after: $after, environment: $environment) {\n        edges { node { id environment } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ServiceDeploysList($id: ID!, $first: Int, $after: String, $environment: String) {\n    service(id: $id) {\n      id\n      deploys(first: $first, after: $after, environment: $environment) {\n        edges { node { id environment } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeployDetail($id: ID!) {\n    deploy(id: $id) {\n      id commitSha commitMessage branch deployedBy environment version description url deployedAt receivedAt\n      service { id name }\n      commits { sha message author timestamp position }\n      previousDeploy { id commitSha environment deployedAt }\n      commitsSincePrevious { sha message author timestamp leadTimeSeconds derived }\n      authors\n      suspectIn { rank }\n    }\n  }\n"): (typeof documents)["\n  query DeployDetail($id: ID!) {\n    deploy(id: $id) {\n      id commitSha commitMessage branch deployedBy environment version description url deployedAt receivedAt\n      service { id name }\n      commits { sha message author timestamp position }\n      previousDeploy { id commitSha environment deployedAt }\n      commitsSincePrevious { sha message author timestamp leadTimeSeconds derived }\n      authors\n      suspectIn { rank }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LimitsDashboard($first: Int, $deliveries: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name status\n          latestDelivery { id status attempts { number } event { type } }\n          stats { deliveriesLast24h successRateLast24h }\n          deliveries(first: $deliveries) {\n            edges { node { id status createdAt attempts { number succeeded responseStatus } event { type } } }\n            pageInfo { hasNextPage endCursor }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query LimitsDashboard($first: Int, $deliveries: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name status\n          latestDelivery { id status attempts { number } event { type } }\n          stats { deliveriesLast24h successRateLast24h }\n          deliveries(first: $deliveries) {\n            edges { node { id status createdAt attempts { number succeeded responseStatus } event { type } } }\n            pageInfo { hasNextPage endCursor }\n          }\n        }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LimitsTwoLevels {\n    webhookEndpoints(first: 100) {\n      edges { node { id deliveries(first: 100) { edges { node { id status attempts { number } } } } } }\n    }\n  }\n"): (typeof documents)["\n  query LimitsTwoLevels {\n    webhookEndpoints(first: 100) {\n      edges { node { id deliveries(first: 100) { edges { node { id status attempts { number } } } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LimitsFourLevels {\n    webhookEndpoints(first: 100) {\n      edges { node { deliveries(first: 100) { edges { node { endpoint {\n        deliveries(first: 100) { edges { node { endpoint {\n          deliveries(first: 100) { edges { node { id } } }\n        } } } }\n      } } } } } }\n    }\n  }\n"): (typeof documents)["\n  query LimitsFourLevels {\n    webhookEndpoints(first: 100) {\n      edges { node { deliveries(first: 100) { edges { node { endpoint {\n        deliveries(first: 100) { edges { node { endpoint {\n          deliveries(first: 100) { edges { node { id } } }\n        } } } }\n      } } } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LimitsDeep($id: ID!) {\n    delivery(id: $id) { endpoint { latestDelivery { endpoint { latestDelivery { endpoint { latestDelivery {\n      endpoint { latestDelivery { endpoint { id } } }\n    } } } } } } }\n  }\n"): (typeof documents)["\n  query LimitsDeep($id: ID!) {\n    delivery(id: $id) { endpoint { latestDelivery { endpoint { latestDelivery { endpoint { latestDelivery {\n      endpoint { latestDelivery { endpoint { id } } }\n    } } } } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LimitsEndpointsPage($first: Int, $last: Int) {\n    webhookEndpoints(first: $first, last: $last) { edges { node { id } } }\n  }\n"): (typeof documents)["\n  query LimitsEndpointsPage($first: Int, $last: Int) {\n    webhookEndpoints(first: $first, last: $last) { edges { node { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LimitsEndpointDeliveries($id: ID!, $first: Int) {\n    webhookEndpoint(id: $id) { id deliveries(first: $first) { edges { node { id } } } }\n  }\n"): (typeof documents)["\n  query LimitsEndpointDeliveries($id: ID!, $first: Int) {\n    webhookEndpoint(id: $id) { id deliveries(first: $first) { edges { node { id } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LimitsDeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n"): (typeof documents)["\n  mutation LimitsDeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LimitsViewer { viewer { id name } }\n"): (typeof documents)["\n  query LimitsViewer { viewer { id name } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NPlusOneEndpointsDashboard($first: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name status pendingRetries\n          latestDelivery { id status attempts { number } event { type } }\n          stats { deliveriesLast24h succeededLast24h failedLast24h successRateLast24h }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query NPlusOneEndpointsDashboard($first: Int) {\n    webhookEndpoints(first: $first) {\n      edges {\n        node {\n          id name status pendingRetries\n          latestDelivery { id status attempts { number } event { type } }\n          stats { deliveriesLast24h succeededLast24h failedLast24h successRateLast24h }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NPlusOneDeploys($first: Int) {\n    deploys(first: $first) {\n      edges { node { id commitSha service { name } commits { sha } previousDeploy { id commitSha } commitsSincePrevious { sha derived } authors } }\n    }\n  }\n"): (typeof documents)["\n  query NPlusOneDeploys($first: Int) {\n    deploys(first: $first) {\n      edges { node { id commitSha service { name } commits { sha } previousDeploy { id commitSha } commitsSincePrevious { sha derived } authors } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NPlusOneIncidents($first: Int) {\n    incidents(first: $first) { edges { node { id title service { name } suspects { rank deploy { id service { name } } } } } }\n  }\n"): (typeof documents)["\n  query NPlusOneIncidents($first: Int) {\n    incidents(first: $first) { edges { node { id title service { name } suspects { rank deploy { id service { name } } } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NPlusOneDeliveriesSearch($first: Int) {\n    deliveries(first: $first) { totalCount edges { node { id status endpoint { name } event { type } attempts { number } } } }\n  }\n"): (typeof documents)["\n  query NPlusOneDeliveriesSearch($first: Int) {\n    deliveries(first: $first) { totalCount edges { node { id status endpoint { name } event { type } attempts { number } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NPlusOneEventsSearch($first: Int) {\n    events(first: 4) {\n      totalCount\n      edges { node { id type deliveries(first: $first) { totalCount edges { node { id status endpoint { name } attempts { number } } } } } }\n    }\n  }\n"): (typeof documents)["\n  query NPlusOneEventsSearch($first: Int) {\n    events(first: 4) {\n      totalCount\n      edges { node { id type deliveries(first: $first) { totalCount edges { node { id status endpoint { name } attempts { number } } } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation NPlusOneOpenIncident($serviceId: ID!, $title: String!) { openIncident(serviceId: $serviceId, title: $title) { id } }\n"): (typeof documents)["\n  mutation NPlusOneOpenIncident($serviceId: ID!, $title: String!) { openIncident(serviceId: $serviceId, title: $title) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NodeById($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Service { name }\n      ... on Deploy { commitSha service { name } }\n      ... on WebhookEndpoint { name }\n      ... on Delivery { status endpoint { id } }\n      ... on Event { type }\n      ... on Organization { name }\n      ... on Incident { title }\n    }\n  }\n"): (typeof documents)["\n  query NodeById($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Service { name }\n      ... on Deploy { commitSha service { name } }\n      ... on WebhookEndpoint { name }\n      ... on Delivery { status endpoint { id } }\n      ... on Event { type }\n      ... on Organization { name }\n      ... on Incident { title }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NodesByIds($ids: [ID!]!) {\n    nodes(ids: $ids) { __typename id }\n  }\n"): (typeof documents)["\n  query NodesByIds($ids: [ID!]!) {\n    nodes(ids: $ids) { __typename id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NodeTenantIds {\n    viewer { id }\n    deploys(first: 1) { edges { node { id } } }\n    deliveries(first: 1) { edges { node { id event { id } } } }\n  }\n"): (typeof documents)["\n  query NodeTenantIds {\n    viewer { id }\n    deploys(first: 1) { edges { node { id } } }\n    deliveries(first: 1) { edges { node { id event { id } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation NodeOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout down\") { id } }\n"): (typeof documents)["\n  mutation NodeOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout down\") { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ProtocolDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status }\n  }\n"): (typeof documents)["\n  subscription ProtocolDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SearchOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\") { id } }\n"): (typeof documents)["\n  mutation SearchOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\") { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {\n    deliveries(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { cursor node { id status createdAt endpoint { id } event { id type } attempts { responseStatus } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {\n    deliveries(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { cursor node { id status createdAt endpoint { id } event { id type } attempts { responseStatus } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchEvents($filter: EventFilter, $first: Int, $after: String) {\n    events(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { node { id type createdAt example deliveries(first: 10) { totalCount edges { node { id status endpoint { id } } } } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query SearchEvents($filter: EventFilter, $first: Int, $after: String) {\n    events(filter: $filter, first: $first, after: $after) {\n      totalCount\n      edges { node { id type createdAt example deliveries(first: 10) { totalCount edges { node { id status endpoint { id } } } } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchEvent($id: ID!) { event(id: $id) { id type } }\n"): (typeof documents)["\n  query SearchEvent($id: ID!) { event(id: $id) { id type } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookDestinationPolicy { webhookDestinationPolicy { allowHttp allowPrivate } }\n"): (typeof documents)["\n  query WebhookDestinationPolicy { webhookDestinationPolicy { allowHttp allowPrivate } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendRetryingTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id status attemptCount } }\n"): (typeof documents)["\n  mutation SendRetryingTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id status attemptCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PendingRetries($id: ID!) {\n    webhookEndpoint(id: $id) { id consecutiveFailures pendingRetries deliveries { edges { node { id status attemptCount } } } }\n  }\n"): (typeof documents)["\n  query PendingRetries($id: ID!) {\n    webhookEndpoint(id: $id) { id consecutiveFailures pendingRetries deliveries { edges { node { id status attemptCount } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookEndpointParts on WebhookEndpoint {\n    id url name status eventTypes consecutiveFailures disabledAt disabledReason createdAt updatedAt\n  }\n"): (typeof documents)["\n  fragment WebhookEndpointParts on WebhookEndpoint {\n    id url name status eventTypes consecutiveFailures disabledAt disabledReason createdAt updatedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DeliveryParts on Delivery {\n    id status attemptCount nextAttemptAt lastAttemptAt createdAt updatedAt\n    event { id type createdAt data }\n    endpoint { id name }\n    attempts { id number succeeded startedAt durationMs responseStatus responseBody error }\n  }\n"): (typeof documents)["\n  fragment DeliveryParts on Delivery {\n    id status attemptCount nextAttemptAt lastAttemptAt createdAt updatedAt\n    event { id type createdAt data }\n    endpoint { id name }\n    attempts { id number succeeded startedAt durationMs responseStatus responseBody error }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateWebhookEndpoint($url: String!, $name: String!, $eventTypes: [String!]) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes) { signingSecret endpoint { ...WebhookEndpointParts } }\n  }\n"): (typeof documents)["\n  mutation CreateWebhookEndpoint($url: String!, $name: String!, $eventTypes: [String!]) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes) { signingSecret endpoint { ...WebhookEndpointParts } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateWebhookEndpoint($id: ID!, $url: String, $name: String, $eventTypes: [String!]) {\n    updateWebhookEndpoint(id: $id, url: $url, name: $name, eventTypes: $eventTypes) { ...WebhookEndpointParts }\n  }\n"): (typeof documents)["\n  mutation UpdateWebhookEndpoint($id: ID!, $url: String, $name: String, $eventTypes: [String!]) {\n    updateWebhookEndpoint(id: $id, url: $url, name: $name, eventTypes: $eventTypes) { ...WebhookEndpointParts }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetWebhookEndpointActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { ...WebhookEndpointParts }\n  }\n"): (typeof documents)["\n  mutation SetWebhookEndpointActive($id: ID!, $active: Boolean!) {\n    setWebhookEndpointActive(id: $id, active: $active) { ...WebhookEndpointParts }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n"): (typeof documents)["\n  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) { signingSecret endpoint { ...WebhookEndpointParts } }\n  }\n"): (typeof documents)["\n  mutation RotateWebhookSecret($id: ID!) {\n    rotateWebhookSecret(id: $id) { signingSecret endpoint { ...WebhookEndpointParts } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendTestEvent($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { ...DeliveryParts } }\n"): (typeof documents)["\n  mutation SendTestEvent($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { ...DeliveryParts } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetryDelivery($id: ID!) { retryDelivery(id: $id) { ...DeliveryParts } }\n"): (typeof documents)["\n  mutation RetryDelivery($id: ID!) { retryDelivery(id: $id) { ...DeliveryParts } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEndpoint($id: ID!) { webhookEndpoint(id: $id) { ...WebhookEndpointParts } }\n"): (typeof documents)["\n  query WebhookEndpoint($id: ID!) { webhookEndpoint(id: $id) { ...WebhookEndpointParts } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEndpointDeliveries($id: ID!, $status: DeliveryStatus, $first: Int, $after: String) {\n    webhookEndpoint(id: $id) {\n      id\n      deliveries(status: $status, first: $first, after: $after) {\n        edges { cursor node { id status attemptCount event { type } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"): (typeof documents)["\n  query WebhookEndpointDeliveries($id: ID!, $status: DeliveryStatus, $first: Int, $after: String) {\n    webhookEndpoint(id: $id) {\n      id\n      deliveries(status: $status, first: $first, after: $after) {\n        edges { cursor node { id status attemptCount event { type } } }\n        pageInfo { hasNextPage endCursor }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEndpointsPage($first: Int, $after: String) {\n    webhookEndpoints(first: $first, after: $after) {\n      edges { node { id name createdAt } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query WebhookEndpointsPage($first: Int, $after: String) {\n    webhookEndpoints(first: $first, after: $after) {\n      edges { node { id name createdAt } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Delivery($id: ID!) { delivery(id: $id) { ...DeliveryParts } }\n"): (typeof documents)["\n  query Delivery($id: ID!) { delivery(id: $id) { ...DeliveryParts } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEndpointTypeFields { __type(name: \"WebhookEndpoint\") { fields { name } } }\n"): (typeof documents)["\n  query WebhookEndpointTypeFields { __type(name: \"WebhookEndpoint\") { fields { name } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WorstSuspects($id: ID!) { incident(id: $id) { suspects { deploy { suspectIn { incident { suspects { deploy { id } } } } } } } }\n"): (typeof documents)["\n  query WorstSuspects($id: ID!) { incident(id: $id) { suspects { deploy { suspectIn { incident { suspects { deploy { id } } } } } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WorstDora($from: DateTime!, $to: DateTime!) {\n    d1: dora(from: $from, to: $to) { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    d2: dora(from: $from, to: $to) { deployCount } d3: dora(from: $from, to: $to) { deployCount }\n    d4: dora(from: $from, to: $to) { deployCount } d5: dora(from: $from, to: $to) { deployCount }\n    d6: dora(from: $from, to: $to) { deployCount } d7: dora(from: $from, to: $to) { deployCount }\n    d8: dora(from: $from, to: $to) { deployCount } d9: dora(from: $from, to: $to) { deployCount }\n    d10: dora(from: $from, to: $to) { deployCount } d11: dora(from: $from, to: $to) { deployCount }\n    d12: dora(from: $from, to: $to) { deployCount } d13: dora(from: $from, to: $to) { deployCount }\n    d14: dora(from: $from, to: $to) { deployCount } d15: dora(from: $from, to: $to) { deployCount }\n    dora(from: $from, to: $to) { deployCount }\n  }\n"): (typeof documents)["\n  query WorstDora($from: DateTime!, $to: DateTime!) {\n    d1: dora(from: $from, to: $to) { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }\n    d2: dora(from: $from, to: $to) { deployCount } d3: dora(from: $from, to: $to) { deployCount }\n    d4: dora(from: $from, to: $to) { deployCount } d5: dora(from: $from, to: $to) { deployCount }\n    d6: dora(from: $from, to: $to) { deployCount } d7: dora(from: $from, to: $to) { deployCount }\n    d8: dora(from: $from, to: $to) { deployCount } d9: dora(from: $from, to: $to) { deployCount }\n    d10: dora(from: $from, to: $to) { deployCount } d11: dora(from: $from, to: $to) { deployCount }\n    d12: dora(from: $from, to: $to) { deployCount } d13: dora(from: $from, to: $to) { deployCount }\n    d14: dora(from: $from, to: $to) { deployCount } d15: dora(from: $from, to: $to) { deployCount }\n    dora(from: $from, to: $to) { deployCount }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WorstOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"down\") { id suspects { rank } } }\n"): (typeof documents)["\n  mutation WorstOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"down\") { id suspects { rank } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnIncidentUpdated {\n    incidentUpdated {\n      id title status\n      suspects { rank deploy { id version } }\n    }\n  }\n"): (typeof documents)["\n  subscription OnIncidentUpdated {\n    incidentUpdated {\n      id title status\n      suspects { rank deploy { id version } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubscriptionOpenIncident($serviceId: ID!, $title: String!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, startedAt: $startedAt) { id }\n  }\n"): (typeof documents)["\n  mutation SubscriptionOpenIncident($serviceId: ID!, $title: String!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, startedAt: $startedAt) { id }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubscriptionAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }\n"): (typeof documents)["\n  mutation SubscriptionAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WorkflowOpen($serviceId: ID!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: \"Checkout errors\", environment: \"production\", startedAt: $startedAt) { id startedAt }\n  }\n"): (typeof documents)["\n  mutation WorkflowOpen($serviceId: ID!, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: \"Checkout errors\", environment: \"production\", startedAt: $startedAt) { id startedAt }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WorkflowAcknowledge($id: ID!) { acknowledgeIncident(id: $id) { id status } }\n"): (typeof documents)["\n  mutation WorkflowAcknowledge($id: ID!) { acknowledgeIncident(id: $id) { id status } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WorkflowResolve($id: ID!, $resolvedAt: DateTime) { resolveIncident(id: $id, resolvedAt: $resolvedAt) { id status resolvedAt } }\n"): (typeof documents)["\n  mutation WorkflowResolve($id: ID!, $resolvedAt: DateTime) { resolveIncident(id: $id, resolvedAt: $resolvedAt) { id status resolvedAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WorkflowMark($id: ID!, $deployId: ID!) { markSuspect(incidentId: $id, deployId: $deployId, verdict: CAUSED) { id } }\n"): (typeof documents)["\n  mutation WorkflowMark($id: ID!, $deployId: ID!) { markSuspect(incidentId: $id, deployId: $deployId, verdict: CAUSED) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WorkflowAddNote($incidentId: ID!, $body: String!) {\n    addIncidentNote(incidentId: $incidentId, body: $body) {\n      id body createdAt incident { id }\n      author { __typename ... on ApiToken { id } }\n    }\n  }\n"): (typeof documents)["\n  mutation WorkflowAddNote($incidentId: ID!, $body: String!) {\n    addIncidentNote(incidentId: $incidentId, body: $body) {\n      id body createdAt incident { id }\n      author { __typename ... on ApiToken { id } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WorkflowAlertSource { createAlertSource(name: \"PagerDuty\", kind: PAGERDUTY_EVENTS) { alertSource { id } token } }\n"): (typeof documents)["\n  mutation WorkflowAlertSource { createAlertSource(name: \"PagerDuty\", kind: PAGERDUTY_EVENTS) { alertSource { id } token } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WorkflowDeleteAlertSource($id: ID!) { deleteAlertSource(id: $id) }\n"): (typeof documents)["\n  mutation WorkflowDeleteAlertSource($id: ID!) { deleteAlertSource(id: $id) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WorkflowIncident($id: ID!) {\n    incident(id: $id) {\n      status acknowledgedAt resolvedAt\n      acknowledgedBy { __typename ... on ApiToken { id } ... on AlertSource { id name } ... on System { name } }\n      resolvedBy { __typename ... on ApiToken { id } ... on AlertSource { id name } ... on System { name } }\n      notes { id body createdAt author { __typename ... on ApiToken { id } } }\n      timeline {\n        kind at\n        actor { __typename ... on ApiToken { id } ... on AlertSource { id } ... on System { name } }\n        alert { fingerprint }\n        note { body }\n        verdict\n        deploy { id }\n        change { id }\n      }\n    }\n  }\n"): (typeof documents)["\n  query WorkflowIncident($id: ID!) {\n    incident(id: $id) {\n      status acknowledgedAt resolvedAt\n      acknowledgedBy { __typename ... on ApiToken { id } ... on AlertSource { id name } ... on System { name } }\n      resolvedBy { __typename ... on ApiToken { id } ... on AlertSource { id name } ... on System { name } }\n      notes { id body createdAt author { __typename ... on ApiToken { id } } }\n      timeline {\n        kind at\n        actor { __typename ... on ApiToken { id } ... on AlertSource { id } ... on System { name } }\n        alert { fingerprint }\n        note { body }\n        verdict\n        deploy { id }\n        change { id }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment IncidentParts on Incident {\n    id title severity environment status startedAt openedAt acknowledgedAt resolvedAt\n    service { id name }\n    suspects { rank score verdict reasons { code detail } deploy { id } }\n  }\n"): (typeof documents)["\n  fragment IncidentParts on Incident {\n    id title severity environment status startedAt openedAt acknowledgedAt resolvedAt\n    service { id name }\n    suspects { rank score verdict reasons { code detail } deploy { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) {\n      ...IncidentParts\n    }\n  }\n"): (typeof documents)["\n  mutation OpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {\n    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) {\n      ...IncidentParts\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { ...IncidentParts } }\n"): (typeof documents)["\n  mutation AcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { ...IncidentParts } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResolveIncident($id: ID!) { resolveIncident(id: $id) { ...IncidentParts } }\n"): (typeof documents)["\n  mutation ResolveIncident($id: ID!) { resolveIncident(id: $id) { ...IncidentParts } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MarkSuspect($incidentId: ID!, $deployId: ID!, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, verdict: $verdict) { ...IncidentParts }\n  }\n"): (typeof documents)["\n  mutation MarkSuspect($incidentId: ID!, $deployId: ID!, $verdict: SuspectVerdict!) {\n    markSuspect(incidentId: $incidentId, deployId: $deployId, verdict: $verdict) { ...IncidentParts }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Incident($id: ID!) { incident(id: $id) { ...IncidentParts } }\n"): (typeof documents)["\n  query Incident($id: ID!) { incident(id: $id) { ...IncidentParts } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query IncidentsDora($serviceId: ID, $from: DateTime!, $to: DateTime!) { dora(serviceId: $serviceId, from: $from, to: $to) { deployCount changeFailureRate } }\n"): (typeof documents)["\n  query IncidentsDora($serviceId: ID, $from: DateTime!, $to: DateTime!) { dora(serviceId: $serviceId, from: $from, to: $to) { deployCount changeFailureRate } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query IncidentsList($first: Int, $after: String, $status: IncidentStatus, $serviceId: ID) {\n    incidents(first: $first, after: $after, status: $status, serviceId: $serviceId) {\n      edges { node { id title status service { id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): (typeof documents)["\n  query IncidentsList($first: Int, $after: String, $status: IncidentStatus, $serviceId: ID) {\n    incidents(first: $first, after: $after, status: $status, serviceId: $serviceId) {\n      edges { node { id title status service { id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ServiceIncidents($id: ID!, $status: IncidentStatus) {\n    service(id: $id) { id incidents(first: 50, status: $status) { edges { node { id status } } } }\n  }\n"): (typeof documents)["\n  query ServiceIncidents($id: ID!, $status: IncidentStatus) {\n    service(id: $id) { id incidents(first: 50, status: $status) { edges { node { id status } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeploySuspectIn($id: ID!) {\n    deploy(id: $id) { id suspectIn { rank score verdict incident { id title } deploy { id } } }\n  }\n"): (typeof documents)["\n  query DeploySuspectIn($id: ID!) {\n    deploy(id: $id) { id suspectIn { rank score verdict incident { id title } deploy { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation OpenIncidentWithLookback($serviceId: ID!, $startedAt: DateTime, $lookbackHours: Int) {\n      openIncident(serviceId: $serviceId, title: \"Slow leak\", startedAt: $startedAt, lookbackHours: $lookbackHours) {\n        id lookbackHours suspects { deploy { id } reasons { code detail } }\n      }\n    }\n  "): (typeof documents)["\n    mutation OpenIncidentWithLookback($serviceId: ID!, $startedAt: DateTime, $lookbackHours: Int) {\n      openIncident(serviceId: $serviceId, title: \"Slow leak\", startedAt: $startedAt, lookbackHours: $lookbackHours) {\n        id lookbackHours suspects { deploy { id } reasons { code detail } }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation SetIncidentLookback($id: ID!, $lookbackHours: Int) {\n      setIncidentLookback(id: $id, lookbackHours: $lookbackHours) { id lookbackHours suspects { deploy { id } } }\n    }\n  "): (typeof documents)["\n    mutation SetIncidentLookback($id: ID!, $lookbackHours: Int) {\n      setIncidentLookback(id: $id, lookbackHours: $lookbackHours) { id lookbackHours suspects { deploy { id } } }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation OpenSharedIncident($serviceId: ID!, $affectedServiceIds: [ID!]) {\n      openIncident(serviceId: $serviceId, title: \"Shared outage\", affectedServiceIds: $affectedServiceIds) {\n        id affectedServices { id name } suspects { deploy { id } reasons { code detail } }\n      }\n    }\n  "): (typeof documents)["\n    mutation OpenSharedIncident($serviceId: ID!, $affectedServiceIds: [ID!]) {\n      openIncident(serviceId: $serviceId, title: \"Shared outage\", affectedServiceIds: $affectedServiceIds) {\n        id affectedServices { id name } suspects { deploy { id } reasons { code detail } }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation InvitesInvite($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { inviteUrl expiresAt } }\n"): (typeof documents)["\n  mutation InvitesInvite($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { inviteUrl expiresAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InvitesPending { pendingInvites { id email role createdAt expiresAt invitedBy { id email name } } }\n"): (typeof documents)["\n  query InvitesPending { pendingInvites { id email role createdAt expiresAt invitedBy { id email name } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation InvitesCancel($id: ID!) { cancelInvite(id: $id) { id email role } }\n"): (typeof documents)["\n  mutation InvitesCancel($id: ID!) { cancelInvite(id: $id) { id email role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation InvitesChangePassword($current: String!, $new: String!) { changePassword(currentPassword: $current, newPassword: $new) }\n"): (typeof documents)["\n  mutation InvitesChangePassword($current: String!, $new: String!) { changePassword(currentPassword: $current, newPassword: $new) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InvitesMe { me { person { email } organizations { organizationId name role } } }\n"): (typeof documents)["\n  query InvitesMe { me { person { email } organizations { organizationId name role } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InvitesNode($id: ID!) { node(id: $id) { __typename id ... on Invite { email } } }\n"): (typeof documents)["\n  query InvitesNode($id: ID!) { node(id: $id) { __typename id ... on Invite { email } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InvitesAudit($action: String!) { auditLog(first: 10, filter: { action: $action }) { edges { node { action objectId summary } } } }\n"): (typeof documents)["\n  query InvitesAudit($action: String!) { auditLog(first: 10, filter: { action: $action }) { edges { node { action objectId summary } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ListenersCreate($eventTypes: [String!]) { createListener(eventTypes: $eventTypes) { id eventTypes live } }\n"): (typeof documents)["\n  mutation ListenersCreate($eventTypes: [String!]) { createListener(eventTypes: $eventTypes) { id eventTypes live } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListenersListener($id: ID!) { listener(id: $id) { id live } }\n"): (typeof documents)["\n  query ListenersListener($id: ID!) { listener(id: $id) { id live } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ListenersEventCreated($listenerId: ID!) { eventCreated(listenerId: $listenerId) { id type createdAt data } }\n"): (typeof documents)["\n  subscription ListenersEventCreated($listenerId: ID!) { eventCreated(listenerId: $listenerId) { id type createdAt data } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ListenersOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\") { id } }\n"): (typeof documents)["\n  mutation ListenersOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout errors\") { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ListenersPing { pingListeners { id type data } }\n"): (typeof documents)["\n  mutation ListenersPing { pingListeners { id type data } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ListenersPingWith($eventType: String) { pingListeners(eventType: $eventType) { id type data example } }\n"): (typeof documents)["\n  mutation ListenersPingWith($eventType: String) { pingListeners(eventType: $eventType) { id type data example } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ListenersCreateEndpoint($url: String!) { createWebhookEndpoint(url: $url, name: \"all events\") { endpoint { id } } }\n"): (typeof documents)["\n  mutation ListenersCreateEndpoint($url: String!) { createWebhookEndpoint(url: $url, name: \"all events\") { endpoint { id } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SingleSignOnMe { me { person { email name } organization { id } role } }\n"): (typeof documents)["\n  query SingleSignOnMe { me { person { email name } organization { id } role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OneQueryOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout down\") { id } }\n"): (typeof documents)["\n  mutation OneQueryOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: \"Checkout down\") { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OneQueryAcknowledge($id: ID!) { acknowledgeIncident(id: $id) { status } }\n"): (typeof documents)["\n  mutation OneQueryAcknowledge($id: ID!) { acknowledgeIncident(id: $id) { status } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OneQueryResolve($id: ID!) { resolveIncident(id: $id) { status } }\n"): (typeof documents)["\n  mutation OneQueryResolve($id: ID!) { resolveIncident(id: $id) { status } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PeopleMe { me { person { id email name } organization { id name } role } }\n"): (typeof documents)["\n  query PeopleMe { me { person { id email name } organization { id name } role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PeopleSessions { sessions { id current ip userAgent createdAt lastSeenAt expiresAt absoluteExpiresAt } }\n"): (typeof documents)["\n  query PeopleSessions { sessions { id current ip userAgent createdAt lastSeenAt expiresAt absoluteExpiresAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PeopleRevokeSession($id: ID!) { revokeSession(id: $id) { id } }\n"): (typeof documents)["\n  mutation PeopleRevokeSession($id: ID!) { revokeSession(id: $id) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PeopleRevokeAll { revokeAllSessions }\n"): (typeof documents)["\n  mutation PeopleRevokeAll { revokeAllSessions }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PeopleCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }\n"): (typeof documents)["\n  mutation PeopleCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PeopleServices { services { totalCount } }\n"): (typeof documents)["\n  query PeopleServices { services { totalCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PeopleCreateEndpoint($url: String!) { createWebhookEndpoint(url: $url, name: \"hook\") { endpoint { id } signingSecret } }\n"): (typeof documents)["\n  mutation PeopleCreateEndpoint($url: String!) { createWebhookEndpoint(url: $url, name: \"hook\") { endpoint { id } signingSecret } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PeopleReveal($id: ID!) { revealWebhookSecret(id: $id) { signingSecret } }\n"): (typeof documents)["\n  mutation PeopleReveal($id: ID!) { revealWebhookSecret(id: $id) { signingSecret } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PeopleMembers { members(first: 10) { totalCount edges { node { role person { id email } } } } }\n"): (typeof documents)["\n  query PeopleMembers { members(first: 10) { totalCount edges { node { role person { id email } } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PeopleChangeRole($personId: ID!, $role: Role!) { changeMemberRole(personId: $personId, role: $role) { role person { id } } }\n"): (typeof documents)["\n  mutation PeopleChangeRole($personId: ID!, $role: Role!) { changeMemberRole(personId: $personId, role: $role) { role person { id } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PeopleRemoveMember($personId: ID!) { removeMember(personId: $personId) }\n"): (typeof documents)["\n  mutation PeopleRemoveMember($personId: ID!) { removeMember(personId: $personId) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PeopleSwitch($id: ID!) { switchOrganization(id: $id) { organization { id } role } }\n"): (typeof documents)["\n  mutation PeopleSwitch($id: ID!) { switchOrganization(id: $id) { organization { id } role } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PeopleCreateToken($scope: ApiTokenScope) { createApiToken(name: \"ci\", scope: $scope) { token apiToken { id scope } } }\n"): (typeof documents)["\n  mutation PeopleCreateToken($scope: ApiTokenScope) { createApiToken(name: \"ci\", scope: $scope) { token apiToken { id scope } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query PeopleNode($id: ID!) { node(id: $id) { __typename id } }\n    "): (typeof documents)["\n      query PeopleNode($id: ID!) { node(id: $id) { __typename id } }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n          mutation PeopleInviteExisting($email: String!) { inviteMember(email: $email, role: VIEWER) { inviteUrl } }\n        "): (typeof documents)["\n          mutation PeopleInviteExisting($email: String!) { inviteMember(email: $email, role: VIEWER) { inviteUrl } }\n        "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription PgbouncerDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status event { type } }\n  }\n"): (typeof documents)["\n  subscription PgbouncerDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status event { type } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetRepository($serviceId: ID!, $url: String) {\n    setServiceRepositoryUrl(serviceId: $serviceId, url: $url) { id repositoryUrl }\n  }\n"): (typeof documents)["\n  mutation SetRepository($serviceId: ID!, $url: String) {\n    setServiceRepositoryUrl(serviceId: $serviceId, url: $url) { id repositoryUrl }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeployLinks($id: ID!) {\n    deploy(id: $id) {\n      commitUrl compareUrl pullRequestUrl\n      service { repositoryUrl }\n      commitsSincePrevious { sha subject body url pullRequestUrl }\n    }\n  }\n"): (typeof documents)["\n  query DeployLinks($id: ID!) {\n    deploy(id: $id) {\n      commitUrl compareUrl pullRequestUrl\n      service { repositoryUrl }\n      commitsSincePrevious { sha subject body url pullRequestUrl }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeployHeadline($id: ID!) { deploy(id: $id) { commitMessage headline } }\n"): (typeof documents)["\n  query DeployHeadline($id: ID!) { deploy(id: $id) { commitMessage headline } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RepositoryAudit {\n    auditLog(first: 5, filter: { action: \"service.setRepositoryUrl\" }) { edges { node { action objectId summary } } }\n  }\n"): (typeof documents)["\n  query RepositoryAudit {\n    auditLog(first: 5, filter: { action: \"service.setRepositoryUrl\" }) { edges { node { action objectId summary } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RetentionOfViewer { viewer { retentionDays historyStartsAt } }"): (typeof documents)["query RetentionOfViewer { viewer { retentionDays historyStartsAt } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateService($name: String!) {\n    createService(name: $name) { deployToken service { id name deployTokenPrefix } }\n  }\n"): (typeof documents)["\n  mutation CreateService($name: String!) {\n    createService(name: $name) { deployToken service { id name deployTokenPrefix } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateDeployToken($serviceId: ID!) {\n    rotateDeployToken(serviceId: $serviceId) { deployToken service { id name deployTokenPrefix } }\n  }\n"): (typeof documents)["\n  mutation RotateDeployToken($serviceId: ID!) {\n    rotateDeployToken(serviceId: $serviceId) { deployToken service { id name deployTokenPrefix } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ServicesPage($after: String) {\n    viewer { id name }\n    services(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage endCursor } }\n  }\n"): (typeof documents)["\n  query ServicesPage($after: String) {\n    viewer { id name }\n    services(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage endCursor } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Service($id: ID!) { service(id: $id) { id name } }\n"): (typeof documents)["\n  query Service($id: ID!) { service(id: $id) { id name } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EndpointQueue($id: ID!) { webhookEndpoint(id: $id) { pendingRetries overdueDeliveries } }\n"): (typeof documents)["\n  query EndpointQueue($id: ID!) { webhookEndpoint(id: $id) { pendingRetries overdueDeliveries } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResendStranded($id: ID!) { resendDelivery(id: $id) { id status attemptCount } }\n"): (typeof documents)["\n  mutation ResendStranded($id: ID!) { resendDelivery(id: $id) { id status attemptCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetryStranded($id: ID!) { retryDelivery(id: $id) { id status attemptCount } }\n"): (typeof documents)["\n  mutation RetryStranded($id: ID!) { retryDelivery(id: $id) { id status attemptCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RecoverStranded($endpointId: ID!, $since: DateTime!) { recoverDeliveries(endpointId: $endpointId, since: $since) { queued hasMore nextSince } }\n"): (typeof documents)["\n  mutation RecoverStranded($endpointId: ID!, $since: DateTime!) { recoverDeliveries(endpointId: $endpointId, since: $since) { queued hasMore nextSince } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) {\n      id\n      status\n      attemptCount\n      event { type }\n      endpoint { id }\n      attempts { number succeeded responseStatus }\n    }\n  }\n"): (typeof documents)["\n  subscription OnDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) {\n      id\n      status\n      attemptCount\n      event { type }\n      endpoint { id }\n      attempts { number succeeded responseStatus }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation GraphqlWsSendPing($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n"): (typeof documents)["\n  mutation GraphqlWsSendPing($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateEndpoint($url: String!, $name: String!, $eventTypes: [String!], $headers: [WebhookHeaderInput!]) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers) { signingSecret endpoint { id } }\n  }\n"): (typeof documents)["\n  mutation CreateEndpoint($url: String!, $name: String!, $eventTypes: [String!], $headers: [WebhookHeaderInput!]) {\n    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers) { signingSecret endpoint { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PeopleInvite($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { inviteUrl expiresAt } }\n"): (typeof documents)["\n  mutation PeopleInvite($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { inviteUrl expiresAt } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TotalCountsEveryList($serviceId: ID!) {\n    services(first: 1) { totalCount totalCountIsEstimate }\n    service(id: $serviceId) {\n      deploys(first: 1) { totalCount totalCountIsEstimate }\n      incidents(first: 1) { totalCount totalCountIsEstimate }\n    }\n    deploys(first: 1) { totalCount totalCountIsEstimate }\n    incidents(first: 1) { totalCount totalCountIsEstimate edges { node { alerts(first: 1) { totalCount totalCountIsEstimate } } } }\n    changeEvents(first: 1) { totalCount totalCountIsEstimate }\n    timeline(first: 1) { totalCount totalCountIsEstimate }\n    webhookEndpoints(first: 1) { totalCount totalCountIsEstimate }\n    apiTokens(first: 1) { totalCount totalCountIsEstimate }\n    alertSources(first: 1) { totalCount totalCountIsEstimate edges { node { unroutedAlerts(first: 1) { totalCount totalCountIsEstimate } } } }\n  }\n"): (typeof documents)["\n  query TotalCountsEveryList($serviceId: ID!) {\n    services(first: 1) { totalCount totalCountIsEstimate }\n    service(id: $serviceId) {\n      deploys(first: 1) { totalCount totalCountIsEstimate }\n      incidents(first: 1) { totalCount totalCountIsEstimate }\n    }\n    deploys(first: 1) { totalCount totalCountIsEstimate }\n    incidents(first: 1) { totalCount totalCountIsEstimate edges { node { alerts(first: 1) { totalCount totalCountIsEstimate } } } }\n    changeEvents(first: 1) { totalCount totalCountIsEstimate }\n    timeline(first: 1) { totalCount totalCountIsEstimate }\n    webhookEndpoints(first: 1) { totalCount totalCountIsEstimate }\n    apiTokens(first: 1) { totalCount totalCountIsEstimate }\n    alertSources(first: 1) { totalCount totalCountIsEstimate edges { node { unroutedAlerts(first: 1) { totalCount totalCountIsEstimate } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TotalCounts($endpointId: ID!) {\n    deliveries(first: 1, filter: { endpointId: $endpointId }) { totalCount totalCountIsEstimate }\n    webhookEndpoint(id: $endpointId) { deliveries(first: 1) { totalCount totalCountIsEstimate } }\n    events(first: 1) { totalCount totalCountIsEstimate edges { node { deliveries(first: 1) { totalCount totalCountIsEstimate } } } }\n  }\n"): (typeof documents)["\n  query TotalCounts($endpointId: ID!) {\n    deliveries(first: 1, filter: { endpointId: $endpointId }) { totalCount totalCountIsEstimate }\n    webhookEndpoint(id: $endpointId) { deliveries(first: 1) { totalCount totalCountIsEstimate } }\n    events(first: 1) { totalCount totalCountIsEstimate edges { node { deliveries(first: 1) { totalCount totalCountIsEstimate } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SecretsRotate($id: ID!, $gracePeriodSeconds: Int) {\n    rotateWebhookSecret(id: $id, gracePeriodSeconds: $gracePeriodSeconds) { signingSecret endpoint { id previousSecretExpiresAt } }\n  }\n"): (typeof documents)["\n  mutation SecretsRotate($id: ID!, $gracePeriodSeconds: Int) {\n    rotateWebhookSecret(id: $id, gracePeriodSeconds: $gracePeriodSeconds) { signingSecret endpoint { id previousSecretExpiresAt } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SecretsReveal($id: ID!) {\n    revealWebhookSecret(id: $id) { signingSecret endpoint { id } }\n  }\n"): (typeof documents)["\n  mutation SecretsReveal($id: ID!) {\n    revealWebhookSecret(id: $id) { signingSecret endpoint { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SecretsReveals($id: ID!) {\n    webhookEndpoint(id: $id) { id secretReveals { id revealedAt apiToken { id prefix } } }\n  }\n"): (typeof documents)["\n  query SecretsReveals($id: ID!) {\n    webhookEndpoint(id: $id) { id secretReveals { id revealedAt apiToken { id prefix } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SecretsSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n"): (typeof documents)["\n  mutation SecretsSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LimitsDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status event { type data } }\n  }\n"): (typeof documents)["\n  subscription LimitsDeliveryUpdated($endpointId: ID) {\n    deliveryUpdated(endpointId: $endpointId) { id status event { type data } }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;