// The files a pipeline needs to record deploys without installing Hookline, served by every
// Hookline so that they match its version: GET /ci/hookline-deploy.mjs (`hookline deploy` as one
// file, built from src/client/deploy) and GET /ci/hookline-deploy.gitlab-ci.yml (the GitLab CI
// template that downloads and runs it).
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';

const CI_FILES = [
  { name: 'hookline-deploy.mjs', contentType: 'text/javascript; charset=utf-8' },
  { name: 'hookline-deploy.gitlab-ci.yml', contentType: 'application/yaml; charset=utf-8' },
];

export async function ciFileRoutes(app: FastifyInstance) {
  for (const { name, contentType } of CI_FILES) {
    const content = await readFile(new URL(`../../ci/${name}`, import.meta.url));
    app.get(`/ci/${name}`, async (_request, reply) =>
      reply
        .header('content-type', contentType)
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(content),
    );
  }
}
