// A worker's circuit breaker over endpoints whose attempts keep timing out. Each such attempt
// holds a worker slot for the whole timeout, so after `threshold` of them in a row the
// endpoint's circuit opens: its deliveries stay queued and are not fetched (no slot held, no
// attempt counted) for `cooldownMs`; then one probe attempt is made. An attempt that ends any
// other way (an answer, even an error status, or a refusal) closes the circuit; a timeout
// while it is open or probing opens it for another cooldown.

export interface CircuitBreakerOptions {
  /** Consecutive timed-out attempts that open an endpoint's circuit. */
  threshold: number;
  cooldownMs: number;
}

export interface FetchRestrictions {
  /** Endpoints whose deliveries are not fetched now. */
  skipped: string[];
  /** Endpoints whose cooldown is over: one attempt at a time, the probe. */
  probing: string[];
}

export interface CircuitBreaker {
  /** A timed-out attempt to `endpointId` ended; says when it opens the circuit (or keeps it open). */
  timedOut(endpointId: string, now: number): { openUntil: number; opened: boolean } | undefined;
  /** An attempt to `endpointId` ended otherwise; true when that closed its circuit. */
  answered(endpointId: string): boolean;
  /** Until when `endpointId`'s deliveries wait, if its circuit is open now (not yet probing). */
  openUntil(endpointId: string, now: number): number | undefined;
  restrictions(now: number): FetchRestrictions;
}

interface EndpointState {
  consecutiveTimeouts: number;
  /** Set while the circuit is open (then probing once the time is past). */
  openUntil?: number;
}

export function createCircuitBreaker({ threshold, cooldownMs }: CircuitBreakerOptions): CircuitBreaker {
  /** Only endpoints with a timeout since their last answer are kept. */
  const endpoints = new Map<string, EndpointState>();

  return {
    timedOut(endpointId, now) {
      const state = endpoints.get(endpointId) ?? { consecutiveTimeouts: 0 };
      endpoints.set(endpointId, state);
      state.consecutiveTimeouts++;
      if (state.openUntil === undefined && state.consecutiveTimeouts < threshold) return undefined;
      const opened = state.openUntil === undefined || state.openUntil <= now;
      state.openUntil = now + cooldownMs;
      return { openUntil: state.openUntil, opened };
    },
    answered(endpointId) {
      const state = endpoints.get(endpointId);
      endpoints.delete(endpointId);
      return state?.openUntil !== undefined;
    },
    openUntil(endpointId, now) {
      const until = endpoints.get(endpointId)?.openUntil;
      return until !== undefined && until > now ? until : undefined;
    },
    restrictions(now) {
      const skipped: string[] = [];
      const probing: string[] = [];
      for (const [endpointId, { openUntil }] of endpoints) {
        if (openUntil === undefined) continue;
        (openUntil > now ? skipped : probing).push(endpointId);
      }
      return { skipped, probing };
    },
  };
}
