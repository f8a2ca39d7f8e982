// The files a pipeline needs to record deploys without installing Hookline, served by every
// Hookline so that they match its version: GET /ci/hookline-deploy.mjs (`hookline deploy` as one
// file, built from src/client/deploy) and GET /ci/hookline-deploy.gitlab-ci.yml (the GitLab CI
// template that downloads and runs it).
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { TRANSPORT_RESPONSES } from './route-schemas.ts';

const CI_FILES = [
  {
    name: 'hookline-deploy.mjs',
    mediaType: 'text/javascript',
    schema: {
      operationId: 'deployScript',
      summary: '`hookline deploy` as one dependency-free Node script, for pipelines without Hookline installed',
      description: 'Run it with `node hookline-deploy.mjs --environment production`; `--help` lists its flags.',
      answer: 'The script (an ES module)',
    },
  },
  {
    name: 'hookline-deploy.gitlab-ci.yml',
    mediaType: 'application/yaml',
    schema: {
      operationId: 'gitLabTemplate',
      summary: 'The GitLab CI template that downloads and runs /ci/hookline-deploy.mjs (include it with include:remote)',
      answer: 'The template',
    },
  },
];

export async function ciFileRoutes(app: FastifyInstance) {
  for (const {
    name,
    mediaType,
    schema: { answer, ...described },
  } of CI_FILES) {
    const content = await readFile(new URL(`../../ci/${name}`, import.meta.url));
    const contentType = `${mediaType}; charset=utf-8`;
    const response = { '200': { description: answer, content: { [mediaType]: { schema: z.string() } } }, ...TRANSPORT_RESPONSES };
    app.get(`/ci/${name}`, { schema: { ...described, response } }, async (_request, reply) =>
      reply
        .header('content-type', contentType)
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(content),
    );
  }
}
