// The worker's circuit breaker on its own, on a clock the test sets: when an endpoint's
// deliveries are skipped, when one probe may go, and what an answer or another timeout does.
// test/fair-delivery.test.ts shows the same through a real worker and receiver.
import { expect, it } from 'vitest';
import { createCircuitBreaker } from '../src/delivery/circuit-breaker.ts';

const COOLDOWN_MS = 1000;

it('opens after the threshold of consecutive timeouts, probes after the cooldown, and reopens when the probe times out', () => {
  const breaker = createCircuitBreaker({ threshold: 3, cooldownMs: COOLDOWN_MS });
  expect(breaker.timedOut('a', 0)).toBeUndefined();
  expect(breaker.timedOut('a', 10)).toBeUndefined();
  expect(breaker.restrictions(10)).toEqual({ skipped: [], probing: [] });

  expect(breaker.timedOut('a', 20)).toEqual({ openUntil: 20 + COOLDOWN_MS, opened: true });
  expect(breaker.restrictions(20)).toEqual({ skipped: ['a'], probing: [] });
  expect(breaker.openUntil('a', 500)).toBe(20 + COOLDOWN_MS);

  // An attempt in flight when it opened times out too: the cooldown starts again, not a new opening.
  expect(breaker.timedOut('a', 600)).toEqual({ openUntil: 600 + COOLDOWN_MS, opened: false });

  // Cooldown over: one probe may go (the fetch allows the endpoint one attempt in flight).
  expect(breaker.restrictions(1600)).toEqual({ skipped: [], probing: ['a'] });
  expect(breaker.openUntil('a', 1600)).toBeUndefined();

  // The probe timed out: open again, for another cooldown.
  expect(breaker.timedOut('a', 1700)).toEqual({ openUntil: 1700 + COOLDOWN_MS, opened: true });
  expect(breaker.restrictions(1700)).toEqual({ skipped: ['a'], probing: [] });
});

it('closes on any answer, and an answer resets the count of an endpoint not yet open', () => {
  const breaker = createCircuitBreaker({ threshold: 2, cooldownMs: COOLDOWN_MS });
  breaker.timedOut('a', 0);
  expect(breaker.answered('a')).toBe(false);
  expect(breaker.timedOut('a', 10)).toBeUndefined();

  expect(breaker.timedOut('a', 20)).toEqual({ openUntil: 20 + COOLDOWN_MS, opened: true });
  breaker.timedOut('b', 20);
  expect(breaker.answered('a')).toBe(true);
  expect(breaker.restrictions(30)).toEqual({ skipped: [], probing: [] });
  expect(breaker.timedOut('a', 40)).toBeUndefined();
  expect(breaker.timedOut('b', 40)).toEqual({ openUntil: 40 + COOLDOWN_MS, opened: true });
  expect(breaker.restrictions(50)).toEqual({ skipped: ['b'], probing: [] });
});
