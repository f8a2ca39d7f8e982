// The layers of src/ import only what docs/architecture.md allows: the rules of
// .dependency-cruiser.cjs (no cycles; db at the bottom; the domain on db alone, each of its
// subdomains on the ones below it; delivery, background, graphql and http on the domain, never on
// one another against the table; the top-level modules in their places), run over the real sources.
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';

let result: ICruiseResult;

beforeAll(async () => {
  const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
  const { output } = await cruise(['src'], options, undefined, { tsConfig: extractTSConfig('tsconfig.json') });
  result = output as ICruiseResult;
}, 60_000);

describe('the layers of src/', () => {
  it('break none of the dependency rules', () => {
    const violations = result.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`);
    expect(violations).toEqual([]);
  });

  it('were all looked at: every layer, with its imports resolved', () => {
    const modules = result.modules.filter((module) => module.source.startsWith('src/') && !module.source.startsWith('src/generated/'));
    for (const layer of [
      'db',
      'domain/shared',
      'domain/webhooks',
      'domain/correlation',
      'domain/ingest',
      'auth',
      'delivery',
      'background',
      'graphql',
      'http',
      'client',
    ]) {
      expect(
        modules.some((module) => module.source.startsWith(`src/${layer}/`)),
        layer,
      ).toBe(true);
    }
    // Every rule is in a subdomain, where the rules between subdomains see it.
    expect(modules.filter((module) => /^src\/domain\/[^/]+$/.test(module.source)).map((module) => module.source)).toEqual([]);
    // The worker's imports of the domain were seen (a resolution failure would hide every rule).
    const worker = modules.find((module) => module.source === 'src/delivery/worker.ts')!;
    expect(worker.dependencies.map((dependency) => dependency.resolved)).toContain('src/domain/webhooks/events.ts');
    const listen = modules.find((module) => module.source === 'src/client/listen.ts')!;
    expect(listen.dependencies.map((dependency) => dependency.resolved)).toContain('src/delivery/signing.ts');
    // The top level's too: the process composed in app.ts starts the background jobs.
    const app = modules.find((module) => module.source === 'src/app.ts')!;
    expect(app.dependencies.map((dependency) => dependency.resolved)).toContain('src/background/scheduler.ts');
  });
});
