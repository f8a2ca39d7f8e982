/* eslint-disable */
import * as types from './graphql.ts';



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
    "subscription ListenEventCreated($listenerId: ID!) { eventCreated(listenerId: $listenerId) { id type createdAt data example } }": typeof types.ListenEventCreatedDocument,
    "query ListenViewer { viewer { id } }": typeof types.ListenViewerDocument,
    "mutation ListenCreateListener($eventTypes: [String!]) { createListener(eventTypes: $eventTypes) { id eventTypes } }": typeof types.ListenCreateListenerDocument,
    "query ListenEventTypes { eventTypes { name } }": typeof types.ListenEventTypesDocument,
    "query ListenListenerLive($id: ID!) { listener(id: $id) { live } }": typeof types.ListenListenerLiveDocument,
    "mutation TriggerPing($eventType: String) { pingListeners(eventType: $eventType) { id } }": typeof types.TriggerPingDocument,
};
const documents: Documents = {
    "subscription ListenEventCreated($listenerId: ID!) { eventCreated(listenerId: $listenerId) { id type createdAt data example } }": types.ListenEventCreatedDocument,
    "query ListenViewer { viewer { id } }": types.ListenViewerDocument,
    "mutation ListenCreateListener($eventTypes: [String!]) { createListener(eventTypes: $eventTypes) { id eventTypes } }": types.ListenCreateListenerDocument,
    "query ListenEventTypes { eventTypes { name } }": types.ListenEventTypesDocument,
    "query ListenListenerLive($id: ID!) { listener(id: $id) { live } }": types.ListenListenerLiveDocument,
    "mutation TriggerPing($eventType: String) { pingListeners(eventType: $eventType) { id } }": types.TriggerPingDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription ListenEventCreated($listenerId: ID!) { eventCreated(listenerId: $listenerId) { id type createdAt data example } }"): typeof import('./graphql.ts').ListenEventCreatedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListenViewer { viewer { id } }"): typeof import('./graphql.ts').ListenViewerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ListenCreateListener($eventTypes: [String!]) { createListener(eventTypes: $eventTypes) { id eventTypes } }"): typeof import('./graphql.ts').ListenCreateListenerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListenEventTypes { eventTypes { name } }"): typeof import('./graphql.ts').ListenEventTypesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListenListenerLive($id: ID!) { listener(id: $id) { live } }"): typeof import('./graphql.ts').ListenListenerLiveDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation TriggerPing($eventType: String) { pingListeners(eventType: $eventType) { id } }"): typeof import('./graphql.ts').TriggerPingDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
