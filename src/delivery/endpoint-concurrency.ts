// How many attempts each endpoint may have in flight, learned from its answers (additive
// increase, multiplicative decrease, as TCP's congestion window): a receiver that answers 2xx
// quickly gets one more slot per such answer, up to `max`, so a healthy one soon takes a backlog
// at full speed; one that times out, refuses the connection, or answers 429 or 5xx is telling
// us it is struggling, and gets half as many, down to `min`. Attempts sent before a decrease
// that fail after it were sent at the old limit: they are the same sign, counted once. Other
// answers (a 4xx, a redirect) say nothing of its load and change nothing. Endpoints start at
// `initial`.

export interface EndpointConcurrencyOptions {
  initial: number;
  min: number;
  max: number;
}

/** How an attempt ended, as far as the receiver's load goes. */
export type LoadSignal = 'fast' | 'struggling' | 'neutral';

export interface EndpointConcurrency {
  /** The limit of an endpoint nothing has been learned of (`initial`, within the bounds). */
  readonly initial: number;
  /** The attempts `endpointId` may have in flight now. */
  limitOf(endpointId: string): number;
  /** An attempt to `endpointId`, sent at `startedAt` and ended at `endedAt` (ms), ended so. */
  observe(endpointId: string, signal: LoadSignal, attempt: { startedAt: number; endedAt: number }): void;
  /** The endpoints whose limit is not `initial` now, with their limits. */
  learned(): Map<string, number>;
}

/** What an attempt's result says of its receiver's load; a 2xx slower than `slowMs` earns no slot (the receiver may be near its limit). */
export function loadSignal(result: { status: number | null; durationMs: number; timedOut: boolean }, slowMs: number): LoadSignal {
  const { status } = result;
  if (result.timedOut || status === null || status === 429 || status >= 500) return 'struggling';
  if (status >= 200 && status < 300) return result.durationMs < slowMs ? 'fast' : 'neutral';
  return 'neutral';
}

interface EndpointState {
  limit: number;
  /** When its limit was last halved. */
  decreasedAt?: number;
}

export function createEndpointConcurrency({ initial, min, max }: EndpointConcurrencyOptions): EndpointConcurrency {
  const start = Math.min(max, Math.max(min, initial));
  /** Endpoints whose limit moved away from the start, or was halved (back) to it. */
  const endpoints = new Map<string, EndpointState>();

  return {
    initial: start,
    limitOf: (endpointId) => endpoints.get(endpointId)?.limit ?? start,
    observe(endpointId, signal, { startedAt, endedAt }) {
      if (signal === 'neutral') return;
      const state = endpoints.get(endpointId) ?? { limit: start };
      if (signal === 'fast') {
        state.limit = Math.min(max, state.limit + 1);
        if (state.limit === start) endpoints.delete(endpointId);
        else endpoints.set(endpointId, state);
        return;
      }
      if (state.decreasedAt !== undefined && startedAt < state.decreasedAt) return;
      state.limit = Math.max(min, Math.floor(state.limit / 2));
      state.decreasedAt = endedAt;
      endpoints.set(endpointId, state);
    },
    learned: () =>
      new Map([...endpoints].filter(([, state]) => state.limit !== start).map(([endpointId, state]) => [endpointId, state.limit])),
  };
}
