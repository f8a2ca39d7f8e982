// What browsers are told about every answer. Cross-origin access only for the origins in
// CORS_ORIGINS (none by default): the APIs authenticate with tokens in headers, never cookies,
// so credentials are never allowed, and an origin outside the list is answered as if CORS were
// off. The OWASP baseline headers on every answer; for API answers a policy that loads and
// frames nothing (pages set their own), and no caching. HSTS only where the request came over TLS: directly, or
// as a proxy believed by TRUST_PROXY says with X-Forwarded-Proto.
import cors, { type FastifyCorsOptionsDelegateCallback } from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { RouteMethods } from './route-methods.ts';

const HSTS = 'max-age=31536000; includeSubDomains';
/** Headers a cross-origin page may read: its rate limit, and when to come back. */
const EXPOSED_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];
const API_PATH = /^\/(?:api\/|graphql(?:[/?]|$))/;
/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

export interface BrowserPolicy {
  /** `*` for any origin, else the exact origins allowed (empty: none). */
  corsOrigins: '*' | string[];
  methodsOf: RouteMethods;
}

export function applyBrowserPolicy(app: FastifyInstance, { corsOrigins, methodsOf }: BrowserPolicy): void {
  app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    hsts: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // API answers may carry a secret shown once (a signing secret, a deploy or API token) and are
    // one organization's data: no cache, shared or the browser's, may keep them. Routes that
    // serve public files set their own.
    if (API_PATH.test(request.url)) reply.header('cache-control', 'no-store');
  });

  const allowed = (origin: string | undefined) => origin !== undefined && (corsOrigins === '*' || corsOrigins.includes(origin));
  const corsFor: FastifyCorsOptionsDelegateCallback = (request, callback) => {
    // Most requests carry no Origin (or another one): those are decided before any path lookup.
    const methods = allowed(request.headers.origin) ? methodsOf(request.url.split('?')[0]!) : undefined;
    if (!methods) return callback(null, { origin: false });
    callback(null, {
      origin: corsOrigins === '*' ? '*' : request.headers.origin,
      credentials: false,
      methods,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    });
  };
  app.register(cors, () => corsFor);
}
