// Each endpoint's attempts in flight, learned from its answers: one more per fast 2xx up to the
// maximum, half as many on a sign of overload down to the minimum, nothing learned from other
// answers. test/adaptive-concurrency.test.ts shows the same through a real worker and receivers.
import { describe, expect, it } from 'vitest';
import { createEndpointConcurrency, loadSignal } from '../src/delivery/endpoint-concurrency.ts';

const SLOW_MS = 1000;

describe('loadSignal', () => {
  it.each([
    [{ status: 200, durationMs: 5, timedOut: false }, 'fast'],
    [{ status: 204, durationMs: 999, timedOut: false }, 'fast'],
    [{ status: 200, durationMs: 1000, timedOut: false }, 'neutral'],
    [{ status: 429, durationMs: 5, timedOut: false }, 'struggling'],
    [{ status: 500, durationMs: 5, timedOut: false }, 'struggling'],
    [{ status: 503, durationMs: 5, timedOut: false }, 'struggling'],
    [{ status: null, durationMs: 15_000, timedOut: true }, 'struggling'],
    [{ status: null, durationMs: 2, timedOut: false }, 'struggling'],
    [{ status: 404, durationMs: 5, timedOut: false }, 'neutral'],
    [{ status: 301, durationMs: 5, timedOut: false }, 'neutral'],
  ] as const)('%o is %s', (result, signal) => {
    expect(loadSignal(result, SLOW_MS)).toBe(signal);
  });
});

/** An attempt sent at `startedAt` (ms) and answered 10 ms later. */
const at = (startedAt: number) => ({ startedAt, endedAt: startedAt + 10 });

describe('createEndpointConcurrency', () => {
  it('starts each endpoint at the initial limit and grows it by one per fast answer, up to the maximum', () => {
    const limits = createEndpointConcurrency({ initial: 10, min: 1, max: 12 });
    expect(limits.limitOf('a')).toBe(10);
    limits.observe('a', 'fast', at(0));
    expect(limits.limitOf('a')).toBe(11);
    limits.observe('a', 'fast', at(1));
    limits.observe('a', 'fast', at(2));
    expect(limits.limitOf('a')).toBe(12);
    expect(limits.limitOf('b')).toBe(10);
    expect(limits.learned()).toEqual(new Map([['a', 12]]));
  });

  it('halves on a sign of overload, down to the minimum, and grows back from there', () => {
    const limits = createEndpointConcurrency({ initial: 10, min: 2, max: 100 });
    limits.observe('a', 'struggling', at(0));
    expect(limits.limitOf('a')).toBe(5);
    limits.observe('a', 'struggling', at(100));
    expect(limits.limitOf('a')).toBe(2);
    limits.observe('a', 'struggling', at(200));
    expect(limits.limitOf('a')).toBe(2);
    limits.observe('a', 'fast', at(300));
    expect(limits.limitOf('a')).toBe(3);
  });

  it('halves once for the attempts that were in flight together, however many of them fail', () => {
    const limits = createEndpointConcurrency({ initial: 16, min: 1, max: 100 });
    // Sent together at 0; the first to fail (at 1000) halves, the others sent before then count for nothing more.
    for (let index = 0; index < 16; index++) limits.observe('a', 'struggling', { startedAt: index, endedAt: 1000 + index });
    expect(limits.limitOf('a')).toBe(8);
    // Sent after the decrease, failing: halved again.
    limits.observe('a', 'struggling', { startedAt: 1001, endedAt: 2000 });
    expect(limits.limitOf('a')).toBe(4);
  });

  it('learns nothing from neutral answers, and forgets an endpoint grown back to the initial limit', () => {
    const limits = createEndpointConcurrency({ initial: 4, min: 1, max: 8 });
    limits.observe('a', 'neutral', at(0));
    expect(limits.learned()).toEqual(new Map());
    limits.observe('a', 'struggling', at(10));
    expect(limits.learned()).toEqual(new Map([['a', 2]]));
    limits.observe('a', 'fast', at(30));
    limits.observe('a', 'fast', at(40));
    expect(limits.limitOf('a')).toBe(4);
    expect(limits.learned()).toEqual(new Map());
  });

  it('keeps the initial limit within the bounds', () => {
    expect(createEndpointConcurrency({ initial: 10, min: 1, max: 3 }).limitOf('a')).toBe(3);
    expect(createEndpointConcurrency({ initial: 10, min: 20, max: 30 }).limitOf('a')).toBe(20);
  });
});
