// The Four Keys (DORA) computed from plain inputs, checked against hand arithmetic.
import { describe, expect, it } from 'vitest';
import { computeDora, isoWeeksOf, median, utcDaysOf, type DoraInput } from '../src/domain/correlation/dora.ts';

const at = (iso: string) => new Date(`${iso}Z`);
const commit = (iso: string | null) => ({ timestamp: iso === null ? null : at(iso) });

// Period: [2026-01-01 00:00, 2026-01-08 00:00) = 7 days.
//
// Deploys in the period and their commits' lead times (deployedAt − commit timestamp):
//   d1  2026-01-02 10:00   09:00 → 3 600 s    08:00 → 7 200 s    (no timestamp) → skipped
//   d2  2026-01-03 12:00   11:30 → 1 800 s    12:30 → −1 800 s, negative → ignored
//   d3  2026-01-05 00:00   01-04 00:00 → 86 400 s
//   d4  2026-01-06 06:00   no commits
// Outside the half-open period: d5 at 2026-01-08 00:00 (= to) and d0 at 2025-12-31 23:59.
//
// Failed deploys: d2, d5 → only d2 is in the period.
//
// Incidents (resolvedAt − startedAt):
//   i1  01-02 10:30 → 01-02 11:15   2 700 s
//   i2  01-03 13:00 → 01-03 15:00   7 200 s
//   i3  01-06 07:00 → 01-06 07:20   1 200 s
//   i4  01-07 09:00 → unresolved    skipped
//   i5  01-07 20:00 → 01-08 02:00   resolved after the period → skipped
const d1 = {
  id: 'd1',
  deployedAt: at('2026-01-02T10:00:00'),
  commits: [commit('2026-01-02T09:00:00'), commit('2026-01-02T08:00:00'), commit(null)],
};
const d2 = { id: 'd2', deployedAt: at('2026-01-03T12:00:00'), commits: [commit('2026-01-03T11:30:00'), commit('2026-01-03T12:30:00')] };
const d3 = { id: 'd3', deployedAt: at('2026-01-05T00:00:00'), commits: [commit('2026-01-04T00:00:00')] };
const d4 = { id: 'd4', deployedAt: at('2026-01-06T06:00:00'), commits: [] };
const d5 = { id: 'd5', deployedAt: at('2026-01-08T00:00:00'), commits: [commit('2026-01-07T00:00:00')] };
const d0 = { id: 'd0', deployedAt: at('2025-12-31T23:59:00'), commits: [commit('2025-12-31T23:00:00')] };

const incidents: DoraInput['incidents'] = [
  { startedAt: at('2026-01-02T10:30:00'), resolvedAt: at('2026-01-02T11:15:00') },
  { startedAt: at('2026-01-03T13:00:00'), resolvedAt: at('2026-01-03T15:00:00') },
  { startedAt: at('2026-01-06T07:00:00'), resolvedAt: at('2026-01-06T07:20:00') },
  { startedAt: at('2026-01-07T09:00:00'), resolvedAt: null },
  { startedAt: at('2026-01-07T20:00:00'), resolvedAt: at('2026-01-08T02:00:00') },
];

const base: DoraInput = {
  from: at('2026-01-01T00:00:00'),
  to: at('2026-01-08T00:00:00'),
  deploys: [d0, d1, d2, d3, d4, d5],
  failedDeploys: [d2, d5],
  incidents,
};

describe('computeDora', () => {
  it('computes the four keys for the week by hand', () => {
    const m = computeDora(base);
    // days = 7; deploys in [from, to) = d1..d4 = 4; frequency = 4 / 7 = 0.571428…
    expect(m.days).toBe(7);
    expect(m.deployCount).toBe(4);
    expect(m.deploymentFrequencyPerDay).toBe(4 / 7);
    // Lead times sorted: 1 800, 3 600, 7 200, 86 400 (even count) → (3 600 + 7 200) / 2 = 5 400 s
    expect(m.leadTimeForChangesSeconds).toBe(5_400);
    // Failed in period: d2 → 1 / 4 = 0.25
    expect(m.changeFailureRate).toBe(0.25);
    // Restore times sorted: 1 200, 2 700, 7 200 (odd count) → 2 700 s
    expect(m.timeToRestoreSeconds).toBe(2_700);
  });

  it('takes the middle lead time for an odd count and the mean of two for restore times', () => {
    const m = computeDora({
      ...base,
      // Without d3: lead times 1 800, 3 600, 7 200 (odd) → 3 600 s
      deploys: [d1, d2, d4],
      // Plus i6 01-07 22:00 → 01-07 23:00 = 3 600 s: 1 200, 2 700, 3 600, 7 200 → (2 700 + 3 600) / 2 = 3 150 s
      incidents: [...incidents, { startedAt: at('2026-01-07T22:00:00'), resolvedAt: at('2026-01-07T23:00:00') }],
    });
    expect(m.deployCount).toBe(3);
    expect(m.deploymentFrequencyPerDay).toBe(3 / 7);
    expect(m.leadTimeForChangesSeconds).toBe(3_600);
    // Failed: d2 → 1 / 3
    expect(m.changeFailureRate).toBe(1 / 3);
    expect(m.timeToRestoreSeconds).toBe(3_150);
  });

  it('allows fractional days: 3 deploys in 12 h = 6 per day', () => {
    const m = computeDora({
      from: at('2026-01-02T00:00:00'),
      to: at('2026-01-02T12:00:00'),
      deploys: [
        { id: 'a', deployedAt: at('2026-01-02T00:00:00'), commits: [commit('2026-01-02T00:00:00')] },
        { id: 'b', deployedAt: at('2026-01-02T06:00:00'), commits: [] },
        { id: 'c', deployedAt: at('2026-01-02T11:59:59'), commits: [] },
      ],
      failedDeploys: [
        { id: 'a', deployedAt: at('2026-01-02T00:00:00') },
        { id: 'b', deployedAt: at('2026-01-02T06:00:00') },
        { id: 'c', deployedAt: at('2026-01-02T11:59:59') },
      ],
      incidents: [],
    });
    // days = 12 h / 24 h = 0.5; 3 / 0.5 = 6; lead time of the single commit = 0 s; all failed → 1
    expect(m.days).toBe(0.5);
    expect(m.deploymentFrequencyPerDay).toBe(6);
    expect(m.leadTimeForChangesSeconds).toBe(0);
    expect(m.changeFailureRate).toBe(1);
    expect(m.timeToRestoreSeconds).toBeNull();
  });

  it('gives null for what it cannot measure and 0 deploys per day for an empty period', () => {
    expect(computeDora({ from: base.from, to: base.to, deploys: [], failedDeploys: [], incidents: [] })).toEqual({
      deploymentFrequencyPerDay: 0,
      deployCount: 0,
      days: 7,
      leadTimeForChangesSeconds: null,
      changeFailureRate: null,
      failedDeployCount: 0,
      rolledBackCount: 0,
      judgedCausedCount: 0,
      topSuspectCount: 0,
      timeToRestoreSeconds: null,
    });
  });

  it('has no lead time when no commit has a usable timestamp, and no restore time when nothing resolved', () => {
    const m = computeDora({
      ...base,
      deploys: [
        { id: 'x', deployedAt: at('2026-01-02T10:00:00'), commits: [commit(null)] },
        { id: 'y', deployedAt: at('2026-01-02T11:00:00'), commits: [commit('2026-01-02T12:00:00')] },
      ],
      failedDeploys: [],
      incidents: [{ startedAt: at('2026-01-02T10:00:00'), resolvedAt: null }],
    });
    expect(m.deployCount).toBe(2);
    expect(m.leadTimeForChangesSeconds).toBeNull();
    expect(m.changeFailureRate).toBe(0);
    expect(m.timeToRestoreSeconds).toBeNull();
  });

  it('adds the figures of whole days to the deploys given one by one', () => {
    // d1 and d3 given one by one (lead times 3 600, 7 200 and 86 400 s); the days add 2 deploys.
    const m = computeDora({ ...base, deploys: [d1, d3], days: { deployCount: 2, rolledBackCount: 0 }, failedDeploys: [d1] });
    expect(m.deployCount).toBe(4);
    expect(m.leadTimeForChangesSeconds).toBe(7_200);
    expect(m.changeFailureRate).toBe(0.25);
  });

  it('takes the lead time as the median of the figures when they bring it, and refuses deploys that bring more', () => {
    const m = computeDora({
      ...base,
      deploys: [],
      days: { deployCount: 5, leadTimeMedianMs: 90_000, rolledBackCount: 1 },
      failedDeploys: [],
    });
    expect(m).toMatchObject({ deployCount: 5, leadTimeForChangesSeconds: 90, changeFailureRate: 0.2 });
    expect(
      computeDora({ ...base, deploys: [], days: { deployCount: 0, leadTimeMedianMs: null, rolledBackCount: 0 }, failedDeploys: [] }),
    ).toMatchObject({ deployCount: 0, leadTimeForChangesSeconds: null });
    expect(() => computeDora({ ...base, deploys: [d1], days: { deployCount: 5, leadTimeMedianMs: 90_000, rolledBackCount: 0 } })).toThrow(
      RangeError,
    );
  });

  it('counts the rolled-back deploys of whole days as failed, beside the failed deploys given one by one', () => {
    const m = computeDora({
      ...base,
      deploys: [d1, d3],
      days: { deployCount: 6, rolledBackCount: 2 },
      failedDeploys: [d1],
    });
    expect(m.deployCount).toBe(8);
    expect(m.changeFailureRate).toBe(3 / 8);
  });

  it('tells the failures apart: rolled back, judged CAUSED, ranked first without a verdict; each deploy once', () => {
    const m = computeDora({
      ...base,
      deploys: [d1, d2, d3],
      days: { deployCount: 6, rolledBackCount: 2 },
      failedDeploys: [
        { ...d1, judgedCaused: true },
        { ...d1, judgedCaused: true },
        { ...d2, judgedCaused: false },
        { ...d3, judgedCaused: true },
      ],
    });
    expect(m).toMatchObject({ deployCount: 9, failedDeployCount: 5, rolledBackCount: 2, judgedCausedCount: 2, topSuspectCount: 1 });
    expect(m.changeFailureRate).toBe(5 / 9);
  });

  it('refuses an empty or inverted period', () => {
    expect(() => computeDora({ ...base, to: base.from })).toThrow(RangeError);
    expect(() => computeDora({ ...base, from: base.to, to: base.from })).toThrow(RangeError);
  });
});

describe('median', () => {
  it('is the middle value, the mean of the two middle values, or null', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNull();
  });
});

describe('days and weeks of a period', () => {
  const iso = (ranges: { from: Date; to: Date }[]) => ranges.map(({ from, to }) => [from.toISOString(), to.toISOString()]);
  // 30 × 24 h up to Sunday 2026-11-29 07:31 UTC: from Friday 2026-10-30 07:31.
  const period = { from: at('2026-10-30T07:31:00'), to: at('2026-11-29T07:31:00') };

  it('cuts ISO weeks at Monday 00:00 UTC and lists only those that overlap the period, the first and last cut to it', () => {
    expect(iso(isoWeeksOf(period))).toEqual([
      ['2026-10-30T07:31:00.000Z', '2026-11-02T00:00:00.000Z'],
      ['2026-11-02T00:00:00.000Z', '2026-11-09T00:00:00.000Z'],
      ['2026-11-09T00:00:00.000Z', '2026-11-16T00:00:00.000Z'],
      ['2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
      ['2026-11-23T00:00:00.000Z', '2026-11-29T07:31:00.000Z'],
    ]);
    // A period that starts on a Monday at midnight starts a whole week; one inside a week is one piece.
    expect(iso(isoWeeksOf({ from: at('2026-11-02T00:00:00'), to: at('2026-11-16T00:00:00') }))).toEqual([
      ['2026-11-02T00:00:00.000Z', '2026-11-09T00:00:00.000Z'],
      ['2026-11-09T00:00:00.000Z', '2026-11-16T00:00:00.000Z'],
    ]);
    expect(iso(isoWeeksOf({ from: at('2026-11-04T10:00:00'), to: at('2026-11-05T10:00:00') }))).toEqual([
      ['2026-11-04T10:00:00.000Z', '2026-11-05T10:00:00.000Z'],
    ]);
    // Before 1970's first Monday too.
    expect(iso(isoWeeksOf({ from: at('1969-12-31T12:00:00'), to: at('1970-01-06T00:00:00') }))).toEqual([
      ['1969-12-31T12:00:00.000Z', '1970-01-05T00:00:00.000Z'],
      ['1970-01-05T00:00:00.000Z', '1970-01-06T00:00:00.000Z'],
    ]);
  });

  it('cuts UTC days at midnight, the first and last cut to the period', () => {
    expect(iso(utcDaysOf({ from: at('2026-11-27T07:31:00'), to: at('2026-11-29T07:31:00') }))).toEqual([
      ['2026-11-27T07:31:00.000Z', '2026-11-28T00:00:00.000Z'],
      ['2026-11-28T00:00:00.000Z', '2026-11-29T00:00:00.000Z'],
      ['2026-11-29T00:00:00.000Z', '2026-11-29T07:31:00.000Z'],
    ]);
    expect(utcDaysOf(period)).toHaveLength(31);
  });
});
