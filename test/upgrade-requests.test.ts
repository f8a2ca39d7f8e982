// A WebSocket's upgrade request never reaches Fastify, yet its origin (for the cookie's origin rule)
// and its client address (for audit entries) must be read by TRUST_PROXY exactly as Fastify reads
// an HTTP request's. Each case sends one request to a Fastify with that trustProxy, and compares
// Fastify's own request.ip, protocol and host with what upgradeRequestReader makes of the same raw
// request.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ownOrigin, upgradeRequestReader } from '../src/http/sessions.ts';

const FORWARDED = { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-host': 'hooks.example.test', 'x-forwarded-proto': 'https' };

const CASES: { name: string; trustProxy: boolean | string[]; peer: string; headers: Record<string, string> }[] = [
  { name: 'no proxy trusted: forwarded headers are ignored', trustProxy: false, peer: '203.0.113.9', headers: FORWARDED },
  { name: 'every proxy trusted', trustProxy: true, peer: '203.0.113.9', headers: FORWARDED },
  { name: 'a listed proxy: believed', trustProxy: ['10.0.0.1'], peer: '10.0.0.1', headers: FORWARDED },
  { name: 'a peer not in the list: not believed', trustProxy: ['10.0.0.1'], peer: '203.0.113.9', headers: FORWARDED },
  { name: 'a range name', trustProxy: ['loopback'], peer: '127.0.0.1', headers: FORWARDED },
  {
    name: 'repeated values: the nearest proxy’s (the last)',
    trustProxy: true,
    peer: '10.0.0.1',
    headers: { 'x-forwarded-for': '198.51.100.7, 192.0.2.4', 'x-forwarded-host': 'a.test, b.test', 'x-forwarded-proto': 'http, https' },
  },
  { name: 'no forwarded headers', trustProxy: true, peer: '10.0.0.1', headers: {} },
];

describe('upgrade requests are read by TRUST_PROXY as Fastify reads HTTP requests', () => {
  it.each(CASES)('$name', async ({ trustProxy, peer, headers }) => {
    const app = Fastify({ trustProxy });
    const reader = upgradeRequestReader(trustProxy);
    app.get('/', async (request) => ({
      fastify: { ip: request.ip, origin: ownOrigin(request) },
      upgrade: { ip: reader.ip(request.raw), origin: reader.origin(request.raw) },
    }));
    try {
      const answer = await app.inject({ url: '/', remoteAddress: peer, headers: { host: 'hookline.test:4000', ...headers } });
      const { fastify, upgrade } = answer.json();
      expect(upgrade).toEqual(fastify);
    } finally {
      await app.close();
    }
  });
});
