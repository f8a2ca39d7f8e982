import type { IncidentStatus as IncidentStatusValue } from '../../generated/prisma/enums.ts';
import { authenticatedConnection, builder } from '../builder.ts';
import { ownedWhere } from '../ownership.ts';
import { storableText } from '../../domain/shared/input.ts';
import { rotateGitHubWebhookSecret } from '../../domain/ingest/github-deployments.ts';
import { createService, rotateDeployToken, setServiceRepositoryUrl } from '../../domain/ingest/services.ts';
import { quoted } from '../../domain/shared/audit.ts';
import { countRows } from '../../domain/shared/counts.ts';
import { audited } from '../audit.ts';
import { DEPLOY_ORDER, DeployConnection } from './Deploy.ts';
import { INCIDENT_ORDER, IncidentConnection, IncidentStatus } from './Incident.ts';

const deploysOf = (service: { id: string }, environment: string | null | undefined) => ({
  serviceId: service.id,
  ...(environment != null ? { environment } : {}),
});
const incidentsOf = (service: { id: string }, status: IncidentStatusValue | null | undefined) => ({
  serviceId: service.id,
  ...(status ? { status } : {}),
});

export const ServiceRef = builder.prismaNode('Service', {
  id: { field: 'id' },
  nullable: true,
  description: 'Something that is deployed; CI pipelines authenticate as it with its deploy token.',
  fields: (t) => ({
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    repositoryUrl: t.exposeString('repositoryUrl', {
      nullable: true,
      description:
        'Its source repository (http or https): set with setServiceRepositoryUrl, or taken from the first deploy whose payload names one ' +
        '(`repository_url`, which `hookline deploy` reads from GitHub Actions, GitLab CI and Bitbucket Pipelines) while none is set.',
    }),
    deployTokenPrefix: t.string({
      description: 'The first characters of the live deploy token, to recognise it; the token itself is shown only once.',
      nullable: true,
      select: { deployTokens: { where: { revokedAt: null }, select: { prefix: true }, take: 1 } },
      resolve: (service) => service.deployTokens[0]?.prefix ?? null,
    }),
    gitHubWebhookSecretCreatedAt: t.expose('githubWebhookSecretCreatedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When its GitHub webhook secret was made (rotateGitHubWebhookSecret); null: it has no GitHub webhook.',
    }),
    // Connections of their own rather than related ones: the plugin loads a related list of one
    // parent without a LIMIT, and counts it whole.
    deploys: t.prismaConnection(
      {
        type: 'Deploy',
        cursor: 'id',
        description: 'Its deploys, newest first (by deployedAt), optionally to one environment.',
        args: { environment: t.arg.string({ required: false, validate: storableText().nullish() }) },
        totalCount: (service, { environment }, context) => countRows(context.prisma.deploy, deploysOf(service, environment), 'deployedAt'),
        resolve: (query, service, { environment }, context) =>
          context.prisma.deploy.findMany({ ...query, where: deploysOf(service, environment), orderBy: [...DEPLOY_ORDER] }),
      },
      DeployConnection,
    ),
    incidents: t.prismaConnection(
      {
        type: 'Incident',
        cursor: 'id',
        description: 'Its incidents, most recently opened first, optionally by status.',
        args: { status: t.arg({ type: IncidentStatus, required: false }) },
        totalCount: (service, { status }, context) => countRows(context.prisma.incident, incidentsOf(service, status), 'openedAt'),
        resolve: (query, service, { status }, context) =>
          context.prisma.incident.findMany({ ...query, where: incidentsOf(service, status), orderBy: [...INCIDENT_ORDER] }),
      },
      IncidentConnection,
    ),
  }),
});

builder.queryFields((t) => ({
  services: t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'Service',
      cursor: 'id',
      totalCount: (_root, _args, context) => countRows(context.prisma.service, { organizationId: context.organization.id }, 'createdAt'),
      resolve: (query, _root, _args, context) =>
        context.prisma.service.findMany({
          ...query,
          where: { organizationId: context.organization.id },
          orderBy: { name: 'asc' },
        }),
    },
    authenticatedConnection(builder.connectionObject({ type: ServiceRef, name: 'ServiceConnection' }, { name: 'ServiceEdge' })),
  ),
  service: t.withAuth({ organization: true }).prismaField({
    type: 'Service',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const where = ownedWhere(context, id);
      return where && context.prisma.service.findFirst({ ...query, where });
    },
  }),
}));

const ServiceWithTokenFields = (name: string, description: string) =>
  builder.objectRef<{ serviceId: string; deployToken: string }>(name).implement({
    description,
    fields: (t) => ({
      service: t.prismaField({
        type: 'Service',
        resolve: (query, payload, _args, context) =>
          context.prisma.service.findUniqueOrThrow({ ...query, where: { id: payload.serviceId } }),
      }),
      deployToken: t.exposeString('deployToken', {
        description: 'The plaintext deploy token. It is shown only here, never again.',
      }),
    }),
  });

const CreateServicePayload = ServiceWithTokenFields('CreateServicePayload', 'A new service and its first deploy token.');
const RotateDeployTokenPayload = ServiceWithTokenFields(
  'RotateDeployTokenPayload',
  'The service and its new deploy token; the previous token is refused from now on.',
);

builder.mutationFields((t) => ({
  createService: t.withAuth({ organization: true }).field({
    type: CreateServicePayload,
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_root, { name }, context) => {
      const created = await audited(
        context,
        'service.create',
        (scoped) => createService(scoped.prisma, scoped.organization.id, name),
        ({ service }) => ({ objectId: service.id, summary: `Created service ${quoted(service.name)}` }),
      );
      return { serviceId: created.service.id, deployToken: created.deployToken };
    },
  }),
  rotateDeployToken: t.withAuth({ organization: true }).field({
    type: RotateDeployTokenPayload,
    args: { serviceId: t.arg.id({ required: true }) },
    resolve: async (_root, { serviceId }, context) => {
      const rotated = await audited(
        context,
        'service.rotateDeployToken',
        (scoped) => rotateDeployToken(scoped.prisma, scoped.organization.id, serviceId),
        ({ service }) => ({ objectId: service.id, summary: `Rotated the deploy token of service ${quoted(service.name)}` }),
      );
      return { serviceId: rotated.service.id, deployToken: rotated.deployToken };
    },
  }),
}));

const RotateGitHubWebhookSecretPayload = builder
  .objectRef<{ serviceId: string; secret: string }>('RotateGitHubWebhookSecretPayload')
  .implement({
    description: "The service's new GitHub webhook secret; deliveries signed with a previous one are refused from now on.",
    fields: (t) => ({
      service: t.prismaField({
        type: 'Service',
        resolve: (query, payload, _args, context) =>
          context.prisma.service.findUniqueOrThrow({ ...query, where: { id: payload.serviceId } }),
      }),
      secret: t.exposeString('secret', {
        description: "The webhook's Secret on GitHub. It is shown only here, never again.",
      }),
      payloadPath: t.string({
        description:
          "The webhook's Payload URL on GitHub, after this Hookline's address (Content type: application/json; event: Deployment statuses).",
        resolve: (payload) => `/api/ingest/github?service=${payload.serviceId}`,
      }),
    }),
  });

builder.mutationFields((t) => ({
  setServiceRepositoryUrl: t.withAuth({ organization: true }).prismaField({
    type: 'Service',
    description:
      "Sets the service's repository address (http or https; GitHub, GitLab and Bitbucket hosts get commit, pull request and compare links); " +
      'null or empty clears it, and the next deploy naming one sets it again.',
    args: { serviceId: t.arg.id({ required: true }), url: t.arg.string({ required: false, validate: storableText().nullish() }) },
    resolve: (_query, _root, { serviceId, url }, context) =>
      audited(
        context,
        'service.setRepositoryUrl',
        (scoped) => setServiceRepositoryUrl(scoped.prisma, scoped.organization.id, serviceId, url ?? null),
        (service) => ({
          objectId: service.id,
          summary: service.repositoryUrl
            ? `Set the repository of service ${quoted(service.name)} to ${service.repositoryUrl}`
            : `Cleared the repository of service ${quoted(service.name)}`,
        }),
      ),
  }),
  rotateGitHubWebhookSecret: t.withAuth({ organization: true }).field({
    type: RotateGitHubWebhookSecretPayload,
    description: "Makes the service's GitHub webhook secret (replacing any before it), for GitHub deployment_status webhooks.",
    args: { serviceId: t.arg.id({ required: true }) },
    resolve: (_root, { serviceId }, context) =>
      audited(
        context,
        'service.rotateGitHubWebhookSecret',
        (scoped) => rotateGitHubWebhookSecret(scoped.prisma, scoped.organization.id, serviceId),
        (rotated) => ({ objectId: rotated.serviceId, summary: `Rotated the GitHub webhook secret of service ${rotated.serviceId}` }),
      ),
  }),
}));
