// /metrics as Prometheus's own linter reads it: `promtool check metrics` (Debian's prometheus
// package, installed by .ci/run) finds nothing to say about any metric, ours or the runtime's.
import { execFile } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHookline } from './support/fixture.ts';

const PROMTOOL = '/usr/bin/promtool';

const hookline = useHookline({ tenant: false });

beforeAll(async () => {
  // A request or two, so that labelled series exist too.
  const tenant = await hookline.createTenant();
  await fetch(`${hookline.baseUrl}/api/ingest/deploy`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-deploy-token': tenant.deployToken },
    body: JSON.stringify({ commit_sha: 'a1b2c3d', environment: 'production' }),
  });
});

function promtoolCheck(exposition: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(PROMTOOL, ['check', 'metrics'], (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, output: `${stdout}${stderr}` });
    });
    child.stdin!.end(exposition);
  });
}

describe('promtool check metrics', () => {
  it('finds no problem in /metrics', async () => {
    const response = await fetch(`${hookline.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    const exposition = await response.text();
    expect(exposition).toContain('hookline_ingest_requests_total');
    expect(await promtoolCheck(exposition)).toEqual({ code: 0, output: '' });
  });
});
