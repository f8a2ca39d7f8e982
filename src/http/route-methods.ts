// The methods each path serves, collected from the routes as Fastify registers them (HEAD
// included: Fastify adds it to every GET route), for the Allow header of a 405. Only exact paths
// count: a wildcard or parametric route, such as the dashboard's catch-all for its client routes,
// names pages rather than resources, so other methods there stay 404.
import type { FastifyInstance } from 'fastify';

/** The methods `path` serves, sorted; undefined when no route has exactly this path. */
export type RouteMethods = (path: string) => string[] | undefined;

/** Call before any route is registered: the hook sees only the routes registered after it. */
export function collectRouteMethods(app: FastifyInstance): RouteMethods {
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (/[*:]/.test(route.url)) return;
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByPath.set(route.url, methods);
  });
  return (path) => {
    const methods = methodsByPath.get(path);
    return methods && [...methods].sort();
  };
}
