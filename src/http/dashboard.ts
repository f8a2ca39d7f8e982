// The dashboard: the single-page app built from web/ (`npm run build:web`, run by
// `npm install`) served at `/`, with its client routes (/services/..., /webhooks/...)
// answered by index.html. The API keeps its paths: /graphql, /api/*, /healthz, /readyz and
// /metrics are exact routes or fall through to the JSON 404, never to the app.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

export interface DashboardOptions {
  /** The built app (web/dist by default). */
  root?: string;
}

/** Paths that belong to the API: never answered with the app. */
const API_PATH = /^\/(?:api|graphql|healthz|readyz|metrics)(?:\/|$)/;
/** A path with a file extension names a file: a missing one is a 404, not the app. */
const FILE_PATH = /\/[^/]*\.[^/]*$/;

// The app talks only to its own origin (GraphQL over HTTP and WebSocket); nothing inline.
const HTML_HEADERS = {
  'content-security-policy':
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; " +
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-cache',
};

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hookline: dashboard not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The dashboard has not been built</h1>
<p>Hookline's API is running (<code>/graphql</code>, <code>/api/...</code>), but the dashboard's files are missing,
probably because <code>npm install</code> ran with <code>--ignore-scripts</code>.</p>
<p>Build it with <code>npm run build:web</code>, then restart Hookline.</p>
</body></html>
`;

export async function dashboardRoutes(app: FastifyInstance, options: DashboardOptions) {
  const root = options.root ?? DEFAULT_DASHBOARD_DIR;
  const built = existsSync(path.join(root, 'index.html'));

  if (built) {
    await app.register(fastifyStatic, {
      root,
      // One route per built file (no catch-all of its own: the one below decides).
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders(response, filePath) {
        // Vite names every asset by its content hash: cache them for good; anything else is revalidated.
        const hashed = filePath.startsWith(path.join(root, 'assets') + path.sep);
        if (filePath.endsWith('.html')) for (const [name, value] of Object.entries(HTML_HEADERS)) response.setHeader(name, value);
        response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        response.setHeader('x-content-type-options', 'nosniff');
      },
    });
  }

  const serveApp = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0]!;
    if (API_PATH.test(pathname) || FILE_PATH.test(pathname)) return reply.callNotFound();
    if (!built)
      return reply.status(503).headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).send(NOT_BUILT_PAGE);
    return reply.headers(HTML_HEADERS).sendFile('index.html', root, { cacheControl: false });
  };
  app.get('/', serveApp);
  app.get('/*', serveApp);
}

export default dashboardRoutes;
