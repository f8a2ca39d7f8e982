// The methods each path serves, collected from the routes as Fastify registers them (HEAD
// included: Fastify adds it to every GET route), for the Allow header of a 405. Exact paths and
// parametric ones (/api/webhooks/endpoints/:id, a resource per id) count; a wildcard route, such
// as the dashboard's catch-all for its client routes, names pages rather than resources, so
// other methods there stay 404.
import type { FastifyInstance } from 'fastify';

/** The methods `path` serves, sorted; undefined when no route has exactly this path. */
export type RouteMethods = (path: string) => string[] | undefined;

/** A route's URL as a pattern: each `:parameter` one path segment. */
function urlPattern(url: string): RegExp {
  const segments = url.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}

/** Call before any route is registered: the hook sees only the routes registered after it. */
export function collectRouteMethods(app: FastifyInstance): RouteMethods {
  const methodsByUrl = new Map<string, Set<string>>();
  const parametric: { pattern: RegExp; methods: Set<string> }[] = [];
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    let methods = methodsByUrl.get(route.url);
    if (!methods) {
      methods = new Set<string>();
      methodsByUrl.set(route.url, methods);
      if (route.url.includes(':')) parametric.push({ pattern: urlPattern(route.url), methods });
    }
    for (const method of [route.method].flat()) methods.add(method);
  });
  return (path) => {
    const methods = methodsByUrl.get(path) ?? parametric.find(({ pattern }) => pattern.test(path))?.methods;
    return methods && [...methods].sort();
  };
}
