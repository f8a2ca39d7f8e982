/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type ListenEventCreatedSubscriptionVariables = Exact<{
  listenerId: string | number;
}>;


export type ListenEventCreatedSubscription = { eventCreated: { id: string, type: string, createdAt: string, data: unknown, example: boolean } };

export type ListenViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ListenViewerQuery = { viewer: { id: string } };

export type ListenCreateListenerMutationVariables = Exact<{
  eventTypes?: Array<string> | string | null | undefined;
}>;


export type ListenCreateListenerMutation = { createListener: { id: string, eventTypes: Array<string> } };

export type ListenEventTypesQueryVariables = Exact<{ [key: string]: never; }>;


export type ListenEventTypesQuery = { eventTypes: Array<{ name: string }> };

export type ListenListenerLiveQueryVariables = Exact<{
  id: string | number;
}>;


export type ListenListenerLiveQuery = { listener: { live: boolean } | null };

export type TriggerPingMutationVariables = Exact<{ [key: string]: never; }>;


export type TriggerPingMutation = { pingListeners: { id: string } };

export type TriggerServicesQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type TriggerServicesQuery = { services: { edges: Array<{ node: { id: string, name: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type TriggerCreateServiceMutationVariables = Exact<{
  name: string;
}>;


export type TriggerCreateServiceMutation = { createService: { deployToken: string, service: { id: string } } };

export type TriggerRotateDeployTokenMutationVariables = Exact<{
  serviceId: string | number;
}>;


export type TriggerRotateDeployTokenMutation = { rotateDeployToken: { deployToken: string } };

export type TriggerOpenIncidentMutationVariables = Exact<{
  serviceId: string | number;
  title: string;
}>;


export type TriggerOpenIncidentMutation = { openIncident: { id: string, title: string } };

export type TriggerAcknowledgeIncidentMutationVariables = Exact<{
  id: string | number;
}>;


export type TriggerAcknowledgeIncidentMutation = { acknowledgeIncident: { id: string } };

export type TriggerResolveIncidentMutationVariables = Exact<{
  id: string | number;
}>;


export type TriggerResolveIncidentMutation = { resolveIncident: { id: string } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const ListenEventCreatedDocument = new TypedDocumentString(`
    subscription ListenEventCreated($listenerId: ID!) {
  eventCreated(listenerId: $listenerId) {
    id
    type
    createdAt
    data
    example
  }
}
    `) as unknown as TypedDocumentString<ListenEventCreatedSubscription, ListenEventCreatedSubscriptionVariables>;
export const ListenViewerDocument = new TypedDocumentString(`
    query ListenViewer {
  viewer {
    id
  }
}
    `) as unknown as TypedDocumentString<ListenViewerQuery, ListenViewerQueryVariables>;
export const ListenCreateListenerDocument = new TypedDocumentString(`
    mutation ListenCreateListener($eventTypes: [String!]) {
  createListener(eventTypes: $eventTypes) {
    id
    eventTypes
  }
}
    `) as unknown as TypedDocumentString<ListenCreateListenerMutation, ListenCreateListenerMutationVariables>;
export const ListenEventTypesDocument = new TypedDocumentString(`
    query ListenEventTypes {
  eventTypes {
    name
  }
}
    `) as unknown as TypedDocumentString<ListenEventTypesQuery, ListenEventTypesQueryVariables>;
export const ListenListenerLiveDocument = new TypedDocumentString(`
    query ListenListenerLive($id: ID!) {
  listener(id: $id) {
    live
  }
}
    `) as unknown as TypedDocumentString<ListenListenerLiveQuery, ListenListenerLiveQueryVariables>;
export const TriggerPingDocument = new TypedDocumentString(`
    mutation TriggerPing {
  pingListeners {
    id
  }
}
    `) as unknown as TypedDocumentString<TriggerPingMutation, TriggerPingMutationVariables>;
export const TriggerServicesDocument = new TypedDocumentString(`
    query TriggerServices($first: Int, $after: String) {
  services(first: $first, after: $after) {
    edges {
      node {
        id
        name
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<TriggerServicesQuery, TriggerServicesQueryVariables>;
export const TriggerCreateServiceDocument = new TypedDocumentString(`
    mutation TriggerCreateService($name: String!) {
  createService(name: $name) {
    service {
      id
    }
    deployToken
  }
}
    `) as unknown as TypedDocumentString<TriggerCreateServiceMutation, TriggerCreateServiceMutationVariables>;
export const TriggerRotateDeployTokenDocument = new TypedDocumentString(`
    mutation TriggerRotateDeployToken($serviceId: ID!) {
  rotateDeployToken(serviceId: $serviceId) {
    deployToken
  }
}
    `) as unknown as TypedDocumentString<TriggerRotateDeployTokenMutation, TriggerRotateDeployTokenMutationVariables>;
export const TriggerOpenIncidentDocument = new TypedDocumentString(`
    mutation TriggerOpenIncident($serviceId: ID!, $title: String!) {
  openIncident(
    serviceId: $serviceId
    title: $title
    severity: SEV2
    environment: "staging"
  ) {
    id
    title
  }
}
    `) as unknown as TypedDocumentString<TriggerOpenIncidentMutation, TriggerOpenIncidentMutationVariables>;
export const TriggerAcknowledgeIncidentDocument = new TypedDocumentString(`
    mutation TriggerAcknowledgeIncident($id: ID!) {
  acknowledgeIncident(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<TriggerAcknowledgeIncidentMutation, TriggerAcknowledgeIncidentMutationVariables>;
export const TriggerResolveIncidentDocument = new TypedDocumentString(`
    mutation TriggerResolveIncident($id: ID!) {
  resolveIncident(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<TriggerResolveIncidentMutation, TriggerResolveIncidentMutationVariables>;