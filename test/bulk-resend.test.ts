// resendDeliveries: a bulk resend of the deliveries a filter selects, the same set that
// deliveries(filter:) lists and counts, each sent again with its own delivery id.
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, ingest } from './support/operations.ts';

const hookline = useHookline({
  environment: { ...LOCAL_RECEIVERS, DELIVERY_MAX_RETRIES: '0', ENDPOINT_DISABLE_AFTER_FAILURES: '50' },
  receiver: true,
});
let failing = true;

beforeAll(async () => {
  hookline.receiver.respond((request, response) => {
    if (request.path.startsWith('/flaky') && failing) response.writeHead(500).end('down');
    else response.end('ok');
  });
});

async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<{ data: T; errors?: { message: string }[] }> {
  const response = await fetch(`${hookline.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data: T; errors?: { message: string }[] };
}

async function countOf(filter: Record<string, unknown>): Promise<number> {
  const { data } = await graphql<{ deliveries: { totalCount: number } }>(
    'query($filter: DeliveryFilter) { deliveries(filter: $filter, first: 1) { totalCount } }',
    { filter },
  );
  return data.deliveries.totalCount;
}

const RESEND = 'mutation($filter: DeliveryFilter!) { resendDeliveries(filter: $filter) { queued skipped hasMore nextFrom } }';

describe('resendDeliveries', () => {
  it('sends again every delivery the filter selects, as many as deliveries(filter:) counts, and skips those of an inactive endpoint', async () => {
    const flaky = (await createEndpoint(hookline, hookline.tenant.apiToken, { url: `${hookline.receiver.url}/flaky`, name: 'bulk' })).id;
    const steady = (await createEndpoint(hookline, hookline.tenant.apiToken, { url: `${hookline.receiver.url}/steady`, name: 'bulk' })).id;
    for (let index = 0; index < 4; index += 1) {
      await ingest(hookline, hookline.tenant.deployToken, { commit_sha: `bulk${index}` });
    }
    await eventually(async () => ((await countOf({ status: 'PENDING' })) === 0 ? true : undefined), 20_000, 'every delivery ended');
    const failedFilter = { endpointId: flaky, status: 'FAILED' };
    expect(await countOf(failedFilter)).toBe(4);
    expect(await countOf({ endpointId: steady, status: 'SUCCEEDED' })).toBe(4);

    failing = false;
    const before = hookline.receiver.requests.length;
    const { data, errors } = await graphql<{
      resendDeliveries: { queued: number; skipped: number; hasMore: boolean; nextFrom: string | null };
    }>(RESEND, { filter: failedFilter });
    expect(errors).toBeUndefined();
    expect(data.resendDeliveries).toEqual({ queued: 4, skipped: 0, hasMore: false, nextFrom: null });
    await eventually(
      async () => ((await countOf({ endpointId: flaky, status: 'SUCCEEDED' })) === 4 ? true : undefined),
      20_000,
      'the resent deliveries succeeded',
    );
    const resent = hookline.receiver.requests.slice(before);
    expect(resent.filter((request) => request.path === '/flaky')).toHaveLength(4);
    expect(resent.filter((request) => request.path === '/steady')).toHaveLength(0);

    // The steady endpoint paused: its deliveries are skipped, not refused one by one.
    await graphql('mutation($id: ID!) { setWebhookEndpointActive(id: $id, active: false) { id } }', { id: steady });
    const paused = await graphql<{ resendDeliveries: { queued: number; skipped: number } }>(RESEND, { filter: { endpointId: steady } });
    expect(paused.data.resendDeliveries).toMatchObject({ queued: 0, skipped: 4 });
  });

  it('refuses a filter the list refuses', async () => {
    const { errors } = await graphql(RESEND, { filter: { eventType: 'no.such.event' } });
    expect(errors?.[0]?.message).toBeTruthy();
  });
});
