// Webhook signatures must verify with a stock Standard Webhooks library, under either
// header set, and across a secret rotation.
import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signPayload, webhookHeaders } from '../src/delivery/signing.ts';
import { generateSigningSecret } from '../src/domain/webhooks/signing-secrets.ts';

const body = JSON.stringify({ id: randomUUID(), type: 'test.ping', createdAt: new Date().toISOString(), organizationId: 'org', data: {} });
// standardwebhooks rejects timestamps more than 5 minutes from now.
const nowSeconds = () => Math.floor(Date.now() / 1000);

function headersFor(secrets: string[]) {
  return webhookHeaders({ deliveryId: randomUUID(), eventType: 'test.ping', timestamp: nowSeconds(), body, secrets, version: '1.2.3' });
}

function asStandardHeaders(headers: Record<string, string>) {
  return {
    'webhook-id': headers['x-service-delivery']!,
    'webhook-timestamp': headers['x-service-timestamp']!,
    'webhook-signature': headers['x-service-signature']!,
  };
}

describe('generateSigningSecret', () => {
  it('is whsec_ and 32 random bytes in base64', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });
});

describe('webhookHeaders', () => {
  it('has exactly the documented headers, the signature as v1,<base64>', () => {
    const deliveryId = randomUUID();
    const timestamp = nowSeconds();
    const headers = webhookHeaders({
      deliveryId,
      eventType: 'deploy.ingested',
      timestamp,
      body,
      secrets: [generateSigningSecret()],
      version: '1.2.3',
    });
    expect(Object.keys(headers).sort()).toEqual([
      'content-type',
      'user-agent',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
      'x-service-delivery',
      'x-service-event',
      'x-service-signature',
      'x-service-timestamp',
    ]);
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Hookline-Webhooks/1.2.3',
      'x-service-event': 'deploy.ingested',
      'x-service-delivery': deliveryId,
      'x-service-timestamp': String(timestamp),
      'webhook-id': deliveryId,
      'webhook-timestamp': String(timestamp),
    });
    expect(headers['x-service-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers['webhook-signature']).toBe(headers['x-service-signature']);
  });

  it('verifies with standardwebhooks under both header sets', () => {
    const secret = generateSigningSecret();
    const headers = headersFor([secret]);
    const webhook = new Webhook(secret);
    expect(webhook.verify(body, headers)).toEqual(JSON.parse(body));
    expect(webhook.verify(body, asStandardHeaders(headers))).toEqual(JSON.parse(body));
  });

  it('fails verification with a wrong secret or a changed body', () => {
    const headers = headersFor([generateSigningSecret()]);
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(generateSigningSecret()).verify(body, asStandardHeaders(headers))).toThrow();
  });

  it('during a rotation carries both signatures, newest first, and either secret verifies', () => {
    const [newest, previous] = [generateSigningSecret(), generateSigningSecret()];
    const headers = headersFor([newest, previous]);
    const [first, second] = headers['webhook-signature']!.split(' ');
    const only = (secret: string) =>
      signPayload({ deliveryId: headers['webhook-id']!, timestamp: Number(headers['webhook-timestamp']), body, secrets: [secret] });
    expect(first).toBe(only(newest));
    expect(second).toBe(only(previous));
    for (const secret of [newest, previous]) {
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
      expect(new Webhook(secret).verify(body, asStandardHeaders(headers))).toEqual(JSON.parse(body));
    }
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow();
  });
});

describe('signPayload', () => {
  it('matches an HMAC-SHA256 of "<id>.<timestamp>.<body>" computed here', () => {
    const key = Buffer.alloc(32, 7);
    const signedContent = 'c0ffee00-0000-4000-8000-000000000001.1700000000.{"type":"test.ping"}';
    const expected = `v1,${createHmac('sha256', key).update(signedContent).digest('base64')}`;
    expect(
      signPayload({
        deliveryId: 'c0ffee00-0000-4000-8000-000000000001',
        timestamp: 1700000000,
        body: '{"type":"test.ping"}',
        secrets: [`whsec_${key.toString('base64')}`],
      }),
    ).toBe(expected);
  });

  it('reproduces the published Standard Webhooks example signature', () => {
    expect(
      signPayload({
        deliveryId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        timestamp: 1614265330,
        body: '{"test": 2432232314}',
        secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      }),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('refuses no secrets, a secret without whsec_, and a timestamp that is not whole seconds', () => {
    const input = { deliveryId: 'd', timestamp: 1700000000, body: '{}', secrets: [generateSigningSecret()] };
    expect(() => signPayload({ ...input, secrets: [] })).toThrow(/at least one/);
    expect(() => signPayload({ ...input, secrets: ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] })).toThrow(/whsec_/);
    expect(() => signPayload({ ...input, timestamp: 1700000000.5 })).toThrow(/unix seconds/);
  });
});
