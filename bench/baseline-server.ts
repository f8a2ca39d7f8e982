// The yardstick for bench/ingest.ts: the least a deploy-ingest endpoint can do on the same
// stack — node:http, one pg.Pool of Hookline's size, JSON.parse, one INSERT per request —
// with no framework, validation, auth, rate limit or transaction.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

/** Same pool size as Hookline's (src/db/client.ts), so both have the same database concurrency. */
export const BASELINE_POOL_SIZE = 10;

/** A table shaped like `deploys` (the columns the benchmark's body fills). */
export const CREATE_BASELINE_TABLE = `
CREATE TABLE baseline_deploys (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  commit_sha  text NOT NULL,
  environment text,
  branch      text,
  version     text,
  url         text,
  commits     jsonb,
  received_at timestamptz NOT NULL DEFAULT now()
)`;

const INSERT = `
INSERT INTO baseline_deploys (commit_sha, environment, branch, version, url, commits)
VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`;

export interface BaselineServer {
  url: string;
  close(): Promise<void>;
}

interface DeployBody {
  commit_sha: string;
  environment?: string;
  branch?: string;
  version?: string;
  url?: string;
  commits?: unknown[];
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function answer(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

export async function startBaselineServer(databaseUrl: string): Promise<BaselineServer> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: BASELINE_POOL_SIZE });
  pool.on('error', () => {});

  const server = http.createServer(async (request, response) => {
    if (request.method !== 'POST') return answer(response, 404, { error: 'not_found' });
    try {
      const deploy = JSON.parse(await readBody(request)) as DeployBody;
      const result = await pool.query<{ id: string }>(INSERT, [
        deploy.commit_sha,
        deploy.environment ?? null,
        deploy.branch ?? null,
        deploy.version ?? null,
        deploy.url ?? null,
        JSON.stringify(deploy.commits ?? []),
      ]);
      answer(response, 200, { status: 'accepted', deploy_id: result.rows[0]!.id });
    } catch (error) {
      answer(response, 500, { error: String(error) });
    }
  });
  // Fastify's default; node:http's 5 s would otherwise be the only difference in keep-alive.
  server.keepAliveTimeout = 72_000;

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}
