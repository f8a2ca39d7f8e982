// The labelled scenario suite against the ranking itself: top-1 and top-3 accuracy over every
// scenario (printed in the test's name and on stdout), and each scenario's own result.
import { describe, expect, it } from 'vitest';
import { rankSuspects } from '../src/domain/correlation/suspects.ts';
import { rankingOptionsOf, SCENARIOS, suspectInputOf, type Scenario } from './support/correlation-scenarios.ts';

const MIN_SCENARIOS = 40;
const TOP1_TARGET = 0.95;
const TOP3_TARGET = 1;

function placeOfCulprit(scenario: Scenario): number {
  const ranked = rankSuspects(suspectInputOf(scenario), rankingOptionsOf(scenario));
  return ranked.findIndex((suspect) => suspect.id === scenario.culprit) + 1; // 0: not ranked at all
}

const results = SCENARIOS.map((scenario) => ({ scenario, place: placeOfCulprit(scenario) }));
const top1 = results.filter((r) => r.place === 1).length / results.length;
const top3 = results.filter((r) => r.place >= 1 && r.place <= 3).length / results.length;
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

describe('labelled correlation scenarios', () => {
  it(`${results.length} scenarios: top-1 ${percent(top1)} (target ≥ ${percent(TOP1_TARGET)}), top-3 ${percent(top3)} (target ≥ ${percent(TOP3_TARGET)})`, () => {
    const misses = results.filter((r) => r.place !== 1).map((r) => `  #${r.place || '—'} ${r.scenario.name}`);
    console.log(
      [
        `Correlation scenarios: ${results.length}; top-1 ${percent(top1)}, top-3 ${percent(top3)}`,
        ...(misses.length > 0 ? ['Culprit not ranked first in:', ...misses] : []),
      ].join('\n'),
    );
    expect(results.length).toBeGreaterThanOrEqual(MIN_SCENARIOS);
    expect(top1).toBeGreaterThanOrEqual(TOP1_TARGET);
    expect(top3).toBeGreaterThanOrEqual(TOP3_TARGET);
  });

  it('covers every kind of scenario the ranking must handle', () => {
    const tags = new Set(SCENARIOS.flatMap((scenario) => scenario.tags));
    for (const tag of [
      'rollback',
      'dependency',
      'flag',
      'busy',
      'staging',
      'late',
      'prior',
      'redeploy',
      'time',
      'revert',
      'alias',
      'lookback',
      'shared',
      'history',
      'named',
      'rollout',
      'health',
    ] as const) {
      expect(SCENARIOS.filter((scenario) => scenario.tags.includes(tag)).length, tag).toBeGreaterThanOrEqual(2);
    }
    expect(tags.size).toBeGreaterThanOrEqual(9);
  });

  it.each(results.map((r) => [r.scenario.name, r] as const))('%s: the culprit is in the top 3', (_name, { scenario, place }) => {
    expect(place, `${scenario.culprit} (${scenario.why})`).toBeGreaterThanOrEqual(1);
    expect(place, `${scenario.culprit} (${scenario.why})`).toBeLessThanOrEqual(3);
  });
});
