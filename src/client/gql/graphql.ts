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

export type TriggerPingMutationVariables = Exact<{
  eventType?: string | null | undefined;
}>;


export type TriggerPingMutation = { pingListeners: { id: string } };

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
    mutation TriggerPing($eventType: String) {
  pingListeners(eventType: $eventType) {
    id
  }
}
    `) as unknown as TypedDocumentString<TriggerPingMutation, TriggerPingMutationVariables>;