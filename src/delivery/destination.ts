// Destination guard for outbound webhooks (SSRF protection): a static check of endpoint
// URLs at creation, and the checks of every connection (transport.ts connects only to
// addresses that passed them).
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export interface DestinationPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

export const MAX_ENDPOINT_URL_LENGTH = 2048;
export const DESTINATION_REFUSED = 'EDESTINATIONREFUSED';

export class DestinationRefusedError extends Error {
  readonly code = DESTINATION_REFUSED;

  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      host === address
        ? `refused to connect to ${address}: not a public address`
        : `refused to connect to ${host}: it resolves to ${address}, which is not a public address`,
    );
    this.name = 'DestinationRefusedError';
  }
}

// ---------------------------------------------------------------------------------------
// Address classification

const NAT64_WELL_KNOWN_PREFIX = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
// Deprecated IPv4-compatible form (::a.b.c.d): no legitimate destination uses it.
const IPV4_COMPATIBLE_PREFIX = ipaddr.IPv6.parseCIDR('::/96');

/** True when `address` (an IPv4 or IPv6 literal) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (net.isIP(address) === 0) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const ipv6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIPv4(ipv6);
  if (embedded) return embedded.range() === 'unicast';
  return ipv6.range() === 'unicast' && !ipv6.match(IPV4_COMPATIBLE_PREFIX);
}

/** The IPv4 address an IPv6 address stands for (mapped, translated, NAT64 or 6to4). */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const [, high6to4 = 0, low6to4 = 0, , , , high = 0, low = 0] = address.parts;
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || address.match(NAT64_WELL_KNOWN_PREFIX)) {
    return ipv4FromWords(high, low);
  }
  if (range === '6to4') return ipv4FromWords(high6to4, low6to4);
  return undefined;
}

function ipv4FromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

// ---------------------------------------------------------------------------------------
// Endpoint creation

/** The settings that lift a refusal, named in its message for whoever runs Hookline locally. */
const LOCAL_DEVELOPMENT = {
  http: 'WEBHOOK_ALLOW_HTTP=true, for local development',
  private: 'WEBHOOK_ALLOW_PRIVATE=true, for local development',
};

export type EndpointUrlValidation = { ok: true; url: URL } | { ok: false; message: string };

/**
 * The check at endpoint creation. The WHATWG parser has already turned decimal, octal, hex
 * and shorthand IPv4 hosts (2130706433, 0x7f.1, 0177.0.0.1, 127.1) into dotted form, so
 * the literal check below sees them as ordinary addresses. Names are checked again after
 * DNS resolution at every attempt (createPinnedLookup).
 */
export function validateEndpointUrl(url: string, policy: DestinationPolicy): EndpointUrlValidation {
  if (url.length > MAX_ENDPOINT_URL_LENGTH) {
    return refuse(`url must be at most ${MAX_ENDPOINT_URL_LENGTH} characters long`);
  }
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed) return refuse('url must be a valid absolute URL');
  if (parsed.protocol !== 'https:' && !(policy.allowHttp && parsed.protocol === 'http:')) {
    return refuse(policy.allowHttp ? 'url must use https or http' : `url must use https (http is allowed only where ${LOCAL_DEVELOPMENT.http})`);
  }
  if (parsed.username || parsed.password) return refuse('url must not contain credentials');
  if (!policy.allowPrivate) {
    const host = unbracketed(parsed.hostname);
    if (isLocalhostName(host)) return refuse(`url must not point to localhost (allowed only where ${LOCAL_DEVELOPMENT.private})`);
    if (net.isIP(host) && !isPublicAddress(host)) {
      return refuse(`url must not point to a private, loopback, link-local or other non-public address (allowed only where ${LOCAL_DEVELOPMENT.private})`);
    }
  }
  return { ok: true, url: parsed };
}

function refuse(message: string): EndpointUrlValidation {
  return { ok: false, message };
}

function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function unbracketed(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

// ---------------------------------------------------------------------------------------
// Every attempt

/**
 * Node never calls the `lookup` of a connection whose host is already an IP address, so a
 * literal host must be checked before sending: returns the refusal, or undefined when allowed.
 */
export function checkLiteralHost(url: string | URL, policy: DestinationPolicy): DestinationRefusedError | undefined {
  if (policy.allowPrivate) return undefined;
  const host = unbracketed(new URL(url).hostname);
  return net.isIP(host) && !isPublicAddress(host) ? new DestinationRefusedError(host, host) : undefined;
}

export type Resolver = (hostname: string, options: dns.LookupAllOptions) => Promise<dns.LookupAddress[]>;

const systemResolver: Resolver = (hostname, options) => dns.promises.lookup(hostname, options);

/**
 * A `lookup` for net/tls.connect (and so undici's `connect.lookup`) that resolves once,
 * refuses the host if any of its addresses is not public, and hands the checked addresses
 * to the socket, which therefore cannot be re-pointed by a second resolution (DNS rebinding).
 */
export function createPinnedLookup(policy: DestinationPolicy, resolve: Resolver = systemResolver): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }).then(
      (addresses) => {
        const refused = policy.allowPrivate ? undefined : addresses.find(({ address }) => !isPublicAddress(address));
        const [first] = addresses;
        if (refused) callback(new DestinationRefusedError(hostname, refused.address), '');
        else if (!first) callback(Object.assign(new Error(`no address found for ${hostname}`), { code: 'ENOTFOUND' }), '');
        else if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** The DestinationRefusedError behind an error thrown by the webhook transport, if any. */
export function findDestinationRefusal(error: unknown): DestinationRefusedError | undefined {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 10; depth++, current = current.cause) {
    if (current instanceof DestinationRefusedError) return current;
  }
  return undefined;
}
