// Where webhooks may go (SSRF protection): only public unicast addresses, over https, unless
// the deployment allows otherwise for local development. The rules are checked when an
// endpoint is made or changed (here) and again at every attempt, after DNS resolution
// (src/delivery/destination.ts), because a name can be re-pointed after the check.
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export interface DestinationPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
  /** The longest attempt timeout an endpoint may ask for (DELIVERY_TIMEOUT_MS). */
  maxTimeoutMs?: number;
}

export const MAX_ENDPOINT_URL_LENGTH = 2048;

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
 * DNS resolution at every attempt.
 */
export function validateEndpointUrl(url: string, policy: DestinationPolicy): EndpointUrlValidation {
  if (url.length > MAX_ENDPOINT_URL_LENGTH) {
    return refuse(`url must be at most ${MAX_ENDPOINT_URL_LENGTH} characters long`);
  }
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed) return refuse('url must be a valid absolute URL');
  const wrongScheme = schemeRefusal(parsed, policy);
  if (wrongScheme) return refuse(wrongScheme);
  if (parsed.username || parsed.password) return refuse('url must not contain credentials');
  if (!policy.allowPrivate) {
    const host = unbracketed(parsed.hostname);
    if (isLocalhostName(host)) return refuse(`url must not point to localhost (allowed only where ${LOCAL_DEVELOPMENT.private})`);
    if (net.isIP(host) && !isPublicAddress(host)) {
      return refuse(
        `url must not point to a private, loopback, link-local or other non-public address (allowed only where ${LOCAL_DEVELOPMENT.private})`,
      );
    }
  }
  return { ok: true, url: parsed };
}

/**
 * Why `url`'s scheme is refused (https only, or http too where allowed), or undefined when it
 * is not. Checked at creation and again at every attempt: a deployment may stop allowing http.
 */
export function schemeRefusal(url: URL, policy: DestinationPolicy): string | undefined {
  if (url.protocol === 'https:' || (policy.allowHttp && url.protocol === 'http:')) return undefined;
  return policy.allowHttp ? 'url must use https or http' : `url must use https (http is allowed only where ${LOCAL_DEVELOPMENT.http})`;
}

function refuse(message: string): EndpointUrlValidation {
  return { ok: false, message };
}

function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** A URL's hostname without the brackets of an IPv6 literal. */
export function unbracketed(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}
