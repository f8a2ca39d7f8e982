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
    "\n  mutation CreateService($name: String!) {\n    createService(name: $name) { deployToken service { id name deployTokenPrefix } }\n  }\n": typeof types.CreateServiceDocument,
    "\n  mutation RotateDeployToken($serviceId: ID!) {\n    rotateDeployToken(serviceId: $serviceId) { deployToken service { id name deployTokenPrefix } }\n  }\n": typeof types.RotateDeployTokenDocument,
    "\n  query ServicesPage($after: String) {\n    viewer { id name }\n    services(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage endCursor } }\n  }\n": typeof types.ServicesPageDocument,
    "\n  query Service($id: ID!) { service(id: $id) { id name } }\n": typeof types.ServiceDocument,
};
const documents: Documents = {
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
    "\n  mutation CreateService($name: String!) {\n    createService(name: $name) { deployToken service { id name deployTokenPrefix } }\n  }\n": types.CreateServiceDocument,
    "\n  mutation RotateDeployToken($serviceId: ID!) {\n    rotateDeployToken(serviceId: $serviceId) { deployToken service { id name deployTokenPrefix } }\n  }\n": types.RotateDeployTokenDocument,
    "\n  query ServicesPage($after: String) {\n    viewer { id name }\n    services(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage endCursor } }\n  }\n": types.ServicesPageDocument,
    "\n  query Service($id: ID!) { service(id: $id) { id name } }\n": types.ServiceDocument,
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

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;