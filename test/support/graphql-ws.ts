// graphql-ws clients for tests, as a dashboard uses them: one WebSocket per client (from the
// `ws` package: Node 20 has no global WebSocket), subscriptions recorded as they arrive.
//
// A subscription has no "subscribed" acknowledgement in graphql-ws, so a subscriber is proven
// live by a change it must see (a test.ping to one of its endpoints: see untilLive).
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient, type Client, type ClientOptions } from 'graphql-ws';
import type pg from 'pg';
import WebSocket from 'ws';
import type { DeliveryChange } from '../../src/domain/webhooks/delivery-changes.ts';
import { graphql } from '../gql/index.ts';
import { dataOf, requestGraphql, type Tenant } from './app.ts';

const SEND_PING = graphql(`
  mutation GraphqlWsSendPing($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }
`);

/** A client on its own socket; `retryAttempts: 0`, so a closed socket shows as the subscribers' error. */
export function connectGraphqlWs(baseUrl: string, apiToken: string | undefined, options: Partial<ClientOptions> = {}): Client {
  return createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: apiToken === undefined ? {} : { authorization: `Bearer ${apiToken}` },
    retryAttempts: 0,
    ...options,
  });
}

export interface Subscriber<T> {
  /** Every result picked from a `next` message, in order. */
  updates: T[];
  /** Errors: `next` payloads' errors, an `error` message's errors, or the CloseEvent of a closed socket. */
  errors: unknown[];
  completed: boolean;
  /** Resolves with `probe`'s first value other than undefined, re-checked on every message. */
  waitFor<R>(probe: () => R | undefined, what: string, timeoutMs?: number): Promise<R>;
}

/** Subscribes on `client`; `document` may be raw text, to send what no typed document can. */
export function subscribe<TResult, TVariables, T>(
  client: Client,
  document: TypedDocumentNode<TResult, TVariables> | string,
  variables: TVariables,
  pick: (data: TResult) => T,
): Subscriber<T> {
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  const subscriber: Subscriber<T> = {
    updates: [],
    errors: [],
    completed: false,
    waitFor(probe, what, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const value = probe();
          if (value === undefined) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(value);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          const describe = (error: unknown) =>
            error instanceof Object && 'code' in error
              ? `close ${String(error.code)} ${String((error as { reason?: unknown }).reason)}`
              : `${String(error)} ${JSON.stringify(error)}`;
          const received = JSON.stringify(subscriber.updates).slice(0, 2000);
          reject(
            new Error(`${what}: not within ${timeoutMs} ms; received ${received}, errors ${subscriber.errors.map(describe).join(', ')}`),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
  const query = typeof document === 'string' ? document : print(document);
  client.subscribe<TResult>(
    { query, variables: variables as Record<string, unknown> },
    {
      next: (result) => {
        if (result.errors) subscriber.errors.push(...result.errors);
        else subscriber.updates.push(pick(result.data!));
        changed();
      },
      error: (error) => {
        subscriber.errors.push(error);
        changed();
      },
      complete: () => {
        subscriber.completed = true;
        changed();
      },
    },
  );
  return subscriber;
}

/** Queues a test.ping to the endpoint; its delivery's id. */
export async function ping(baseUrl: string, tenant: Tenant, endpointId: string): Promise<string> {
  return dataOf(await requestGraphql(baseUrl, tenant.apiToken, SEND_PING, { endpointId })).sendTestEvent.id;
}

/**
 * Resolves once the subscriber is live: it has seen a test.ping to `endpointId` (`seen` tells
 * whether an update is that ping's delivery). A ping sent before the server had set the
 * subscription up goes unseen, so another follows.
 */
export async function untilLive<T>(
  subscriber: Subscriber<T>,
  baseUrl: string,
  tenant: Tenant,
  endpointId: string,
  seen: (update: T, deliveryId: string) => boolean,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const deliveryId = await ping(baseUrl, tenant, endpointId);
    try {
      await subscriber.waitFor(
        () => (subscriber.updates.some((update) => seen(update, deliveryId)) ? true : undefined),
        `test.ping ${deliveryId}`,
        2000,
      );
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

/**
 * A change of delivery `deliveryId` as the trigger on deliveries notifies it (its key, owners and
 * `state`), for a test to send with pg_notify: a change the row has since moved past, or repeated.
 */
export async function deliveryChangeOf(
  pool: pg.Pool,
  deliveryId: string,
  state: Pick<DeliveryChange, 'status' | 'attemptCount'>,
): Promise<DeliveryChange> {
  const { rows } = await pool.query<Omit<DeliveryChange, 'status' | 'attemptCount'>>(
    `SELECT id, created_at AS "createdAt", organization_id AS "organizationId", endpoint_id AS "endpointId" FROM deliveries WHERE id = $1`,
    [deliveryId],
  );
  if (!rows[0]) throw new Error(`no delivery ${deliveryId}`);
  return { ...rows[0], ...state };
}
