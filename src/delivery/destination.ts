// The destination rules (src/domain/webhooks/destinations.ts) at every attempt, as configured now: the
// scheme and literal addresses before sending, names after DNS resolution, with the connection
// pinned to the checked address (transport.ts connects only through createPinnedLookup), so a
// re-pointed name cannot redirect it.
import dns from 'node:dns';
import net from 'node:net';
import { isPublicAddress, schemeRefusal, unbracketed, type DestinationPolicy } from '../domain/webhooks/destinations.ts';

export const DESTINATION_REFUSED = 'EDESTINATIONREFUSED';

export class DestinationRefusedError extends Error {
  readonly code = DESTINATION_REFUSED;

  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefusedError';
  }

  /** `host` resolves to (or is) `address`, which is not public. */
  static forAddress(host: string, address: string): DestinationRefusedError {
    return new DestinationRefusedError(
      host === address
        ? `refused to connect to ${address}: not a public address`
        : `refused to connect to ${host}: it resolves to ${address}, which is not a public address`,
    );
  }
}

/**
 * What can be checked before sending, under the policy as configured now: the scheme (an
 * endpoint made while http was allowed may no longer be), and a literal host (Node never calls
 * the `lookup` of a connection whose host is already an IP address). Returns the refusal, or
 * undefined when allowed; names are checked after resolution (createPinnedLookup).
 */
export function checkBeforeSending(url: string | URL, policy: DestinationPolicy): DestinationRefusedError | undefined {
  const parsed = new URL(url);
  const wrongScheme = schemeRefusal(parsed, policy);
  if (wrongScheme) return new DestinationRefusedError(`refused to send to an ${parsed.protocol}// URL: ${wrongScheme}`);
  if (policy.allowPrivate) return undefined;
  const host = unbracketed(parsed.hostname);
  return net.isIP(host) && !isPublicAddress(host) ? DestinationRefusedError.forAddress(host, host) : undefined;
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
        if (refused) callback(DestinationRefusedError.forAddress(hostname, refused.address), '');
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
