import type dns from 'node:dns';
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptDelivery } from '../src/delivery/attempt.ts';
import { createWebhookTransport } from '../src/delivery/transport.ts';
import {
  DestinationRefusedError,
  checkBeforeSending,
  createPinnedLookup,
  findDestinationRefusal,
  type Resolver,
} from '../src/delivery/destination.ts';
import { isPublicAddress, validateEndpointUrl, type DestinationPolicy } from '../src/domain/webhooks/destinations.ts';
import { TIMER_SLACK_MS } from './support/receiver.ts';

const strict: DestinationPolicy = { allowHttp: false, allowPrivate: false };
const development: DestinationPolicy = { allowHttp: true, allowPrivate: true };

const NON_PUBLIC =
  'url must not point to a private, loopback, link-local or other non-public address (allowed only where WEBHOOK_ALLOW_PRIVATE=true, for local development)';

describe('validateEndpointUrl', () => {
  it.each([
    // IPv4
    ['loopback', 'https://127.0.0.1/hook'],
    ['loopback, end of range', 'https://127.255.255.254/'],
    ['private 10/8', 'https://10.0.0.1/'],
    ['private 172.16/12', 'https://172.16.5.4/'],
    ['private 172.16/12, end of range', 'https://172.31.255.255/'],
    ['private 192.168/16', 'https://192.168.0.10/'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest/meta-data/'],
    ['CGNAT', 'https://100.64.0.1/'],
    ['CGNAT, end of range', 'https://100.127.255.255/'],
    ['multicast', 'https://224.0.0.1/'],
    ['multicast, SSDP', 'https://239.255.255.250/'],
    ['unspecified', 'https://0.0.0.0/'],
    ['unspecified, written 0', 'https://0/'],
    ['broadcast', 'https://255.255.255.255/'],
    ['documentation TEST-NET-1', 'https://192.0.2.1/'],
    ['documentation TEST-NET-2', 'https://198.51.100.1/'],
    ['documentation TEST-NET-3', 'https://203.0.113.1/'],
    ['benchmarking', 'https://198.18.0.1/'],
    ['reserved 240/4', 'https://240.0.0.1/'],
    // IPv6
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv6 unspecified', 'https://[::]/'],
    ['IPv6 unique local fc00::/7', 'https://[fc00::1]/'],
    ['IPv6 unique local fd00::/8', 'https://[fd00:ec2::254]/'],
    ['IPv6 link-local', 'https://[fe80::1]/'],
    ['IPv6 multicast, link scope', 'https://[ff02::1]/'],
    ['IPv6 multicast, site scope', 'https://[ff05::2]/'],
    ['IPv6 documentation', 'https://[2001:db8::1]/'],
    ['IPv6 deprecated site-local', 'https://[fec0::1]/'],
    // IPv4 inside IPv6
    ['IPv4-mapped, dotted', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped, hex', 'https://[::ffff:7f00:1]/'],
    ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/'],
    ['IPv4-mapped metadata', 'https://[::ffff:169.254.169.254]/'],
    ['IPv4-translated (RFC 6145)', 'https://[::ffff:0:127.0.0.1]/'],
    ['IPv4-compatible (deprecated)', 'https://[::127.0.0.1]/'],
    ['NAT64 of loopback', 'https://[64:ff9b::127.0.0.1]/'],
    ['NAT64 local-use prefix', 'https://[64:ff9b:1::a00:1]/'],
    ['6to4 of loopback', 'https://[2002:7f00:1::1]/'],
    ['6to4 of private', 'https://[2002:c0a8:101::1]/'],
    ['Teredo', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
    // IPv4 written differently (the WHATWG parser turns all of these into dotted form)
    ['decimal', 'https://2130706433/'],
    ['hex', 'https://0x7f000001/'],
    ['hex, two parts', 'https://0x7f.1/'],
    ['octal', 'https://0177.0.0.1/'],
    ['octal, one part', 'https://017700000001/'],
    ['shorthand, two parts', 'https://127.1/'],
    ['shorthand, three parts', 'https://127.0.1/'],
    ['trailing dot', 'https://127.0.0.1./'],
    ['percent-encoded', 'https://%31%32%37.0.0.1/'],
    ['full-width dots', 'https://127。0。0。1/'],
    ['decimal private', 'https://3232235777/'],
    ['hex metadata', 'https://0xa9fea9fe/'],
  ])('refuses %s (%s)', (_name, url) => {
    expect(validateEndpointUrl(url, strict)).toEqual({ ok: false, message: NON_PUBLIC });
  });

  it.each([
    'https://localhost/',
    'https://localhost:8443/hook',
    'https://LOCALHOST./',
    'https://foo.localhost/',
    'https://a.b.LocalHost../',
  ])('refuses the name localhost: %s', (url) => {
    expect(validateEndpointUrl(url, strict)).toEqual({
      ok: false,
      message: 'url must not point to localhost (allowed only where WEBHOOK_ALLOW_PRIVATE=true, for local development)',
    });
  });

  it.each(['http://example.com/hook', 'ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://example.com/'])(
    'refuses a scheme other than https: %s',
    (url) => {
      expect(validateEndpointUrl(url, strict)).toEqual({
        ok: false,
        message: 'url must use https (http is allowed only where WEBHOOK_ALLOW_HTTP=true, for local development)',
      });
    },
  );

  it.each(['https://user:pass@example.com/', 'https://user@example.com/', 'https://:pass@example.com/'])(
    'refuses credentials: %s',
    (url) => {
      expect(validateEndpointUrl(url, strict)).toEqual({ ok: false, message: 'url must not contain credentials' });
    },
  );

  it.each([
    '',
    'not a url',
    '/relative/path',
    'example.com/hook',
    'https://',
    'https://exa mple.com/',
    'https://[::1/',
    'https://256.0.0.1/',
    'https://1.2.3.4.5/',
    'https://[fe80::1%25eth0]/',
  ])('refuses garbage: %j', (url) => {
    expect(validateEndpointUrl(url, strict)).toEqual({ ok: false, message: 'url must be a valid absolute URL' });
  });

  it('accepts 2048 characters and refuses 2049', () => {
    const prefix = 'https://example.com/';
    const longest = prefix + 'a'.repeat(2048 - prefix.length);
    expect(longest).toHaveLength(2048);
    expect(validateEndpointUrl(longest, strict).ok).toBe(true);
    expect(validateEndpointUrl(`${longest}a`, strict)).toEqual({
      ok: false,
      message: 'url must be at most 2048 characters long',
    });
  });

  it.each([
    'https://example.com/webhooks',
    'https://hooks.example.com:8443/in?source=hookline',
    'https://EXAMPLE.com./',
    'https://localhost.example.com/',
    'https://xn--bcher-kva.example/',
    'https://bücher.example/',
    'https://8.8.8.8/',
    'https://1.1.1.1:8443/hook',
    'https://[2606:4700:4700::1111]/',
    'https://[::ffff:8.8.8.8]/',
    'https://[64:ff9b::8.8.8.8]/',
    'https://[2002:808:808::1]/',
  ])('accepts %s', (url) => {
    expect(validateEndpointUrl(url, strict).ok).toBe(true);
  });

  it('returns the normalised URL', () => {
    const result = validateEndpointUrl('https://Hooks.Example.COM/In', strict);
    expect(result.ok && result.url.href).toBe('https://hooks.example.com/In');
  });

  it('allows http with allowHttp, still only http and https', () => {
    const policy = { allowHttp: true, allowPrivate: false };
    expect(validateEndpointUrl('http://example.com/hook', policy).ok).toBe(true);
    expect(validateEndpointUrl('ftp://example.com/', policy)).toEqual({ ok: false, message: 'url must use https or http' });
    expect(validateEndpointUrl('http://127.0.0.1/', policy)).toEqual({ ok: false, message: NON_PUBLIC });
  });

  it('allows private and loopback destinations with allowPrivate, nothing else', () => {
    const policy = { allowHttp: false, allowPrivate: true };
    for (const url of ['https://127.0.0.1/', 'https://localhost/', 'https://[::1]/', 'https://10.0.0.1/', 'https://2130706433/']) {
      expect(validateEndpointUrl(url, policy).ok).toBe(true);
    }
    expect(validateEndpointUrl('http://127.0.0.1/', policy)).toEqual({
      ok: false,
      message: 'url must use https (http is allowed only where WEBHOOK_ALLOW_HTTP=true, for local development)',
    });
    expect(validateEndpointUrl('https://u:p@127.0.0.1/', policy)).toEqual({ ok: false, message: 'url must not contain credentials' });
  });

  it('allows a local development receiver with both switches', () => {
    expect(validateEndpointUrl('http://localhost:3000/hook', development).ok).toBe(true);
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['93.184.215.14', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['::1', false],
    ['fd00::1', false],
    ['fe80::1%eth0', false],
    ['::ffff:7f00:1', false],
    ['64:ff9b::a00:1', false],
    ['2002:a00:1::', false],
    // Not canonical addresses: never public.
    ['2130706433', false],
    ['127.1', false],
    ['example.com', false],
    ['', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('checkBeforeSending', () => {
  const httpAllowed: DestinationPolicy = { allowHttp: true, allowPrivate: false };

  it('refuses non-public literal addresses', () => {
    for (const url of ['http://127.0.0.1:8080/', 'https://[::ffff:7f00:1]/', 'https://[::1]:443/', 'https://0x7f.1/']) {
      const refusal = checkBeforeSending(url, httpAllowed);
      expect(refusal).toBeInstanceOf(DestinationRefusedError);
      expect(refusal?.code).toBe('EDESTINATIONREFUSED');
    }
    expect(checkBeforeSending('http://127.0.0.1:8080/', httpAllowed)?.message).toBe(
      'refused to connect to 127.0.0.1: not a public address',
    );
  });

  it('refuses http unless allowed now, whatever was allowed when the endpoint was made', () => {
    const refusal = checkBeforeSending('http://example.com/hook', strict);
    expect(refusal).toBeInstanceOf(DestinationRefusedError);
    expect(refusal?.message).toBe(
      'refused to send to an http:// URL: url must use https (http is allowed only where WEBHOOK_ALLOW_HTTP=true, for local development)',
    );
    expect(checkBeforeSending('http://example.com/hook', httpAllowed)).toBeUndefined();
  });

  it('leaves names (checked at lookup), public addresses and allowPrivate alone', () => {
    expect(checkBeforeSending('https://example.com/', strict)).toBeUndefined();
    expect(checkBeforeSending('https://8.8.8.8/', strict)).toBeUndefined();
    expect(checkBeforeSending('http://127.0.0.1/', development)).toBeUndefined();
  });
});

describe('createPinnedLookup', () => {
  const resolvingTo =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  function lookup(fn: net.LookupFunction, hostname: string, options: dns.LookupOptions) {
    return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      fn(hostname, options, (error, address, family) => resolve({ error, address, family })),
    );
  }

  it('refuses a name that resolves to a non-public address, naming host and address', async () => {
    const { error } = await lookup(createPinnedLookup(strict, resolvingTo('127.0.0.1')), 'hooks.example.com', {});
    expect(error).toBeInstanceOf(DestinationRefusedError);
    expect(error?.code).toBe('EDESTINATIONREFUSED');
    expect(error?.message).toBe('refused to connect to hooks.example.com: it resolves to 127.0.0.1, which is not a public address');
  });

  it('refuses when any of the addresses is not public', async () => {
    const { error } = await lookup(createPinnedLookup(strict, resolvingTo('8.8.8.8', '2606:4700::1', 'fd00::7')), 'mixed.example.com', {
      all: true,
    });
    expect(error?.code).toBe('EDESTINATIONREFUSED');
    expect(error?.message).toContain('fd00::7');
  });

  it('answers with the checked addresses, in both callback shapes', async () => {
    const pinned = createPinnedLookup(strict, resolvingTo('8.8.8.8', '2606:4700::1'));
    expect(await lookup(pinned, 'hooks.example.com', { all: true })).toEqual({
      error: null,
      address: [
        { address: '8.8.8.8', family: 4 },
        { address: '2606:4700::1', family: 6 },
      ],
      family: undefined,
    });
    expect(await lookup(pinned, 'hooks.example.com', {})).toEqual({ error: null, address: '8.8.8.8', family: 4 });
  });

  it('lets private addresses through with allowPrivate', async () => {
    const pinned = createPinnedLookup(development, resolvingTo('127.0.0.1'));
    expect(await lookup(pinned, 'hooks.example.com', {})).toEqual({ error: null, address: '127.0.0.1', family: 4 });
  });

  it('passes resolution errors on', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    };
    const { error } = await lookup(createPinnedLookup(strict, failing), 'nowhere.invalid', {});
    expect(error?.code).toBe('ENOTFOUND');
  });

  it('uses dns.lookup by default (localhost resolves through /etc/hosts)', async () => {
    const { error } = await lookup(createPinnedLookup(strict), 'localhost', { all: true });
    expect(error?.code).toBe('EDESTINATIONREFUSED');
  });
});

describe('createWebhookTransport against a real server on 127.0.0.1', () => {
  const received: { url: string; host: string; body: string }[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ url: request.url ?? '', host: request.headers.host ?? '', body });
      if (request.url === '/moved') {
        response.writeHead(301, { location: `http://127.0.0.1:${port}/elsewhere` }).end('moved');
      } else if (request.url !== '/slow') {
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`got ${body}`);
      }
    });
  });
  let port = 0;
  let resolutions = 0;
  // A name that exists in no DNS: only the injected resolver knows it, and it answers 127.0.0.1.
  const rebindingResolver: Resolver = async () => {
    resolutions++;
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const hookUrl = (path: string) => `http://hooks.rebind.test:${port}${path}`;
  /** The receiver speaks plain http: only private destinations are refused here. */
  const privateRefused: DestinationPolicy = { allowHttp: true, allowPrivate: false };

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function reset() {
    received.length = 0;
    resolutions = 0;
  }

  it('refuses to connect to a name resolving to 127.0.0.1; the server receives nothing', async () => {
    reset();
    const $fetch = createWebhookTransport(privateRefused, { timeoutMs: 5_000, resolve: rebindingResolver });
    const error = await $fetch.raw(hookUrl('/hook'), { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    const refusal = findDestinationRefusal(error);
    expect(refusal?.code).toBe('EDESTINATIONREFUSED');
    expect(refusal?.message).toBe('refused to connect to hooks.rebind.test: it resolves to 127.0.0.1, which is not a public address');
    expect(received).toEqual([]);
  });

  it('uses the same lookup for https (TLS) connections', async () => {
    reset();
    const $fetch = createWebhookTransport(privateRefused, { timeoutMs: 5_000, resolve: rebindingResolver });
    const error = await $fetch.raw(`https://hooks.rebind.test:${port}/hook`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(findDestinationRefusal(error)?.code).toBe('EDESTINATIONREFUSED');
    expect(resolutions).toBe(1);
    expect(received).toEqual([]);
  });

  it('connects to exactly the address it resolved, once, when allowPrivate', async () => {
    reset();
    const $fetch = createWebhookTransport(development, { timeoutMs: 5_000, resolve: rebindingResolver });
    const body = '{"id":"evt_1", "type":"test.ping"}';
    const response = await $fetch.raw(hookUrl('/hook'), {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      responseType: 'text',
    });
    expect(response.status).toBe(200);
    expect(response._data).toBe(`got ${body}`);
    expect(received).toEqual([{ url: '/hook', host: `hooks.rebind.test:${port}`, body }]);
    expect(resolutions).toBe(1);
  });

  it('refuses a literal loopback address without resolving it; the server receives nothing', async () => {
    reset();
    const $fetch = createWebhookTransport(privateRefused, { timeoutMs: 5_000, resolve: rebindingResolver });
    const error = await $fetch.raw(`http://127.0.0.1:${port}/hook`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(findDestinationRefusal(error)?.message).toBe('refused to connect to 127.0.0.1: not a public address');
    expect(received).toEqual([]);
    expect(resolutions).toBe(0);
  });

  it('returns a redirect as it is, even when asked to follow it', async () => {
    reset();
    const $fetch = createWebhookTransport(development, { timeoutMs: 5_000, resolve: rebindingResolver });
    const response = await $fetch.raw(hookUrl('/moved'), { method: 'POST', body: '{}', redirect: 'follow' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe(`http://127.0.0.1:${port}/elsewhere`);
    expect(received.map((request) => request.url)).toEqual(['/moved']);
  });

  it('an attempt gives up after its timeoutMs, which is not a refusal', async () => {
    reset();
    const $fetch = createWebhookTransport(development, { timeoutMs: 5_000, resolve: rebindingResolver });
    const result = await attemptDelivery($fetch, { url: hookUrl('/slow'), body: '{}', headers: {}, timeoutMs: 200 });
    expect(result).toMatchObject({ succeeded: false, status: null, error: 'connected, but no answer within 200 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(200 - TIMER_SLACK_MS);
    expect(received.map((request) => request.url)).toEqual(['/slow']);
  });
});
