// What a delivery's page shows of each attempt, through the GraphQL API: the request exactly as
// the receiver got it (headers and body) and the answer's headers, for a receiver that answered
// and one that did not.
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';

const hookline = useHookline({
  environment: { ...LOCAL_RECEIVERS, DELIVERY_MAX_RETRIES: '0', DELIVERY_TIMEOUT_MS: '2000' },
  receiver: true,
});

interface Header {
  name: string;
  value: string;
}
interface DeliveryView {
  status: string;
  requestBody: string;
  attempts: { responseStatus: number | null; error: string | null; requestHeaders: Header[] | null; responseHeaders: Header[] | null }[];
}

beforeAll(async () => {
  hookline.receiver.respond((request, response) => {
    if (request.path === '/teapot')
      response
        .writeHead(418, { 'content-type': 'text/plain', 'x-receiver': 'kettle', 'set-cookie': ['a=1', 'b=2'] })
        .end('short and stout');
    else response.writeHead(200, { 'content-type': 'application/json', 'x-receiver': 'orders' }).end('{"ok":true}');
  });
});

async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${hookline.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: T; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

const DELIVERY = `query($id: ID!) { delivery(id: $id) {
  status requestBody
  attempts { responseStatus error requestHeaders { name value } responseHeaders { name value } }
} }`;

/** Sends a test.ping to a new endpoint at `url` and waits for its delivery to end. */
async function pingAndWait(url: string): Promise<DeliveryView> {
  const endpoint = await createEndpoint(hookline, hookline.tenant.apiToken, {
    url,
    name: 'exchange',
    headers: [{ name: 'Authorization', value: 'Bearer receiver-key' }],
  });
  const { sendTestEvent } = await graphql<{ sendTestEvent: { id: string } }>(
    'mutation($id: ID!) { sendTestEvent(endpointId: $id) { id } }',
    {
      id: endpoint.id,
    },
  );
  return eventually(
    async () => {
      const { delivery } = await graphql<{ delivery: DeliveryView }>(DELIVERY, { id: sendTestEvent.id });
      return delivery.status === 'PENDING' ? undefined : delivery;
    },
    15_000,
    'the delivery ended',
  );
}

const asObject = (headers: Header[] | null) => Object.fromEntries((headers ?? []).map(({ name, value }) => [name.toLowerCase(), value]));

describe('a delivery as its page shows it', () => {
  it("keeps each attempt's request headers and body as sent, and the answer's headers", async () => {
    const delivery = await pingAndWait(`${hookline.receiver.url}/ok`);
    expect(delivery.status).toBe('SUCCEEDED');
    const [received] = hookline.receiver.requests.filter((request) => request.path === '/ok');
    expect(delivery.requestBody).toBe(received!.body);
    const sent = asObject(delivery.attempts[0]!.requestHeaders);
    for (const name of [
      'content-type',
      'user-agent',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'x-service-signature',
      'x-service-event',
      'authorization',
    ]) {
      expect(sent[name], name).toBe(received!.headers[name]);
    }
    expect(asObject(delivery.attempts[0]!.responseHeaders)).toMatchObject({ 'content-type': 'application/json', 'x-receiver': 'orders' });
  });

  it('keeps the headers of a refused answer, repeated ones joined, and none when no answer came', async () => {
    const refused = await pingAndWait(`${hookline.receiver.url}/teapot`);
    expect(refused.status).toBe('FAILED');
    expect(refused.attempts[0]!.responseStatus).toBe(418);
    expect(asObject(refused.attempts[0]!.responseHeaders)).toMatchObject({ 'x-receiver': 'kettle', 'set-cookie': 'a=1, b=2' });

    // Nothing listens on port 9 (discard) of the loopback: the connection is refused.
    const unanswered = await pingAndWait('http://127.0.0.1:9/hooks');
    expect(unanswered.status).toBe('FAILED');
    expect(unanswered.attempts[0]!.error).toBeTruthy();
    expect(unanswered.attempts[0]!.responseHeaders).toBeNull();
    expect(asObject(unanswered.attempts[0]!.requestHeaders)['x-service-event']).toBe('test.ping');
  });
});
