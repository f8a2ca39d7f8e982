// The DORA report's performance clusters of each key, at their bounds.
import { describe, expect, it } from 'vitest';
import { performanceBands, type DoraMetrics } from '../src/domain/correlation/dora.ts';

const HOUR = 3600;
const DAY = 24 * HOUR;

function metrics(overrides: Partial<DoraMetrics>): DoraMetrics {
  return {
    deploymentFrequencyPerDay: 1,
    deployCount: 30,
    days: 30,
    leadTimeForChangesSeconds: null,
    changeFailureRate: null,
    failedDeployCount: 0,
    rolledBackCount: 0,
    judgedCausedCount: 0,
    topSuspectCount: 0,
    timeToRestoreSeconds: null,
    ...overrides,
  };
}

describe('performanceBands', () => {
  it('bands deployment frequency: daily or more ELITE, weekly HIGH, monthly MEDIUM, less LOW', () => {
    const of = (perDay: number) => performanceBands(metrics({ deploymentFrequencyPerDay: perDay })).deploymentFrequency;
    expect([of(3), of(1), of(0.99), of(1 / 7), of(0.1), of(1 / 30), of(0.03)]).toEqual([
      'ELITE',
      'ELITE',
      'HIGH',
      'HIGH',
      'MEDIUM',
      'MEDIUM',
      'LOW',
    ]);
    expect(performanceBands(metrics({ deploymentFrequencyPerDay: 0, deployCount: 0 })).deploymentFrequency).toBeNull();
  });

  it('bands lead time (a day, a week, a month), change failure rate (5, 10, 20 %) and time to restore (an hour, a day, a week)', () => {
    const lead = (seconds: number) => performanceBands(metrics({ leadTimeForChangesSeconds: seconds })).leadTimeForChanges;
    expect([lead(DAY), lead(DAY + 1), lead(7 * DAY), lead(30 * DAY), lead(31 * DAY)]).toEqual(['ELITE', 'HIGH', 'HIGH', 'MEDIUM', 'LOW']);
    const failures = (rate: number) => performanceBands(metrics({ changeFailureRate: rate })).changeFailureRate;
    expect([failures(0), failures(0.05), failures(0.06), failures(0.2), failures(0.21)]).toEqual([
      'ELITE',
      'ELITE',
      'HIGH',
      'MEDIUM',
      'LOW',
    ]);
    const restore = (seconds: number) => performanceBands(metrics({ timeToRestoreSeconds: seconds })).timeToRestore;
    expect([restore(HOUR), restore(HOUR + 1), restore(DAY + 1), restore(8 * DAY)]).toEqual(['ELITE', 'HIGH', 'MEDIUM', 'LOW']);
    expect(performanceBands(metrics({}))).toMatchObject({ leadTimeForChanges: null, changeFailureRate: null, timeToRestore: null });
  });
});
