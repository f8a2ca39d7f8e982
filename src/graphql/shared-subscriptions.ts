// Subscriptions shared by every subscriber of the same operation: one execution per event for all
// the sockets that subscribed with the same document and variables in one organization, serialised
// once, and written to each socket as it is. With a thousand dashboards open, an event costs one
// execution (one database load) and one JSON.stringify, then a write per socket.
//
// Each subscriber is still checked on its own when it subscribes (the field's `subscribe` runs with
// its own context: authentication, the endpoint it names), and is then added to the group of its
// operation; the group runs on the event source and the context of its first subscriber, which
// belong to the same organization.
//
// A subscriber never delays the others: writes do not wait for a socket to drain. A socket with
// more than `maxBufferedBytes` waiting to be sent is closed with SUBSCRIBER_TOO_SLOW_CLOSE_CODE
// (graphql-ws clients reconnect; they should then re-read what they show). So what waits in
// memory is bounded per socket, and per group by MAX_BACKLOG events.
import { Repeater } from '@graphql-yoga/subscription';
import { createSourceEventStream, execute, type ExecutionArgs, type ExecutionResult, type GraphQLError } from 'graphql';
import type { WebSocket } from 'ws';
import { backlogged, MAX_BACKLOG } from './backlog.ts';
import { forWebSocket, toClientError } from './errors.ts';

/** Closes a socket whose unsent messages exceed the limit; the client may reconnect at once. */
export const SUBSCRIBER_TOO_SLOW_CLOSE_CODE = 4008;

interface Subscriber {
  socket: WebSocket;
  /** The start of this subscription's `next` messages, up to the payload. */
  prefix: string;
  stop(error?: unknown): void;
}

/** One execution per event for every subscriber of one operation. */
class SharedSubscription {
  readonly subscribers = new Set<Subscriber>();
  /** The events, executed as soon as they arrive (so that a slow one does not hold the next) and serialised, in order. */
  private readonly payloads: Repeater<string>;

  constructor(
    source: AsyncIterable<unknown>,
    run: (event: unknown) => Promise<string>,
    private readonly maxBufferedBytes: number,
    private readonly onEnd: () => void,
  ) {
    this.payloads = backlogged(source, MAX_BACKLOG, run);
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      for await (const payload of this.payloads) {
        for (const subscriber of this.subscribers) this.send(subscriber, payload);
      }
      for (const subscriber of this.subscribers) subscriber.stop();
    } catch (error) {
      for (const subscriber of this.subscribers) subscriber.stop(error);
    } finally {
      this.onEnd();
    }
  }

  private send({ socket, prefix }: Subscriber, payload: string): void {
    if (socket.readyState !== socket.OPEN) return; // closing: its subscriptions end with the close
    if (socket.bufferedAmount > this.maxBufferedBytes) {
      socket.close(SUBSCRIBER_TOO_SLOW_CLOSE_CODE, 'Subscriber too slow: re-read and subscribe again');
      return;
    }
    socket.send(`${prefix + payload}}`);
  }

  leave(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size > 0) return;
    // Ended at once, so that a subscriber arriving now starts a new group rather than join this one.
    this.onEnd();
    void this.payloads.return();
  }
}

export interface SharedSubscriptionRequest {
  /** What graphql-ws would execute for this subscriber: its own context, document and variables. */
  args: ExecutionArgs;
  /** The same for every subscriber that may share an execution: organization, document, variables. */
  key: string;
  socket: WebSocket;
  /** The graphql-ws id of the subscription on its socket. */
  id: string;
}

export class SharedSubscriptions {
  private readonly groups = new Map<string, SharedSubscription>();

  /** `log` gets the unexpected errors that are masked, as Yoga logs them on its own paths. */
  constructor(
    private readonly maxBufferedBytes: number,
    private readonly log: { error(error: unknown): void },
  ) {}

  /**
   * As the HTTP path presents errors (toClientError: a domain error's code, DATABASE_UNAVAILABLE,
   * or "Unexpected error." with INTERNAL_SERVER_ERROR), the cause of an unexpected one logged.
   */
  private masked(error: unknown): GraphQLError {
    const masked = toClientError(error, 'Unexpected error.', false) as GraphQLError;
    if (masked === error) return masked;
    if (masked.extensions.code === 'INTERNAL_SERVER_ERROR') this.log.error(error);
    return forWebSocket(masked);
  }

  /**
   * Checks the subscriber (the field's `subscribe`, with its own context) and, when it may
   * subscribe, returns what graphql-ws holds for the subscription's life: it yields nothing
   * (the group writes the `next` messages itself) and ends when the subscription does.
   */
  async subscribe({ args, key, socket, id }: SharedSubscriptionRequest): Promise<ExecutionResult | AsyncIterable<never>> {
    const source = await createSourceEventStream(args);
    if (!isAsyncIterable(source)) return { errors: source.errors?.map((error) => this.masked(error)) };
    return new Repeater<never>(async (_push, stop) => {
      let group = this.groups.get(key);
      if (group) {
        void source[Symbol.asyncIterator]().return?.(); // never read: the group has its own
      } else {
        // graphql-js's execute runs the subscription's selection on one event, as its own subscribe
        // would (Yoga's executor would start a new subscription instead); errors masked as Yoga does.
        const run = async (event: unknown) => {
          try {
            const { errors, ...result } = await execute({ ...args, rootValue: event });
            return JSON.stringify(errors ? { ...result, errors: errors.map((error) => this.masked(error)) } : result);
          } catch (error) {
            return JSON.stringify({ errors: [this.masked(error)] });
          }
        };
        const created: SharedSubscription = new SharedSubscription(source, run, this.maxBufferedBytes, () => {
          if (this.groups.get(key) === created) this.groups.delete(key);
        });
        this.groups.set(key, (group = created));
      }
      const subscriber: Subscriber = { socket, prefix: `{"id":${JSON.stringify(id)},"type":"next","payload":`, stop };
      group.subscribers.add(subscriber);
      await stop;
      group.leave(subscriber);
    });
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown>)?.[Symbol.asyncIterator] === 'function';
}
