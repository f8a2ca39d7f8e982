import { viewerOf } from '../context.ts';
import { builder } from '../builder.ts';
import { ownedWhere } from '../ownership.ts';
import { storableText } from '../../domain/input.ts';
import { createService, rotateDeployToken } from '../../domain/services.ts';
import { DEPLOY_ORDER, DeployConnection } from './Deploy.ts';
import { INCIDENT_ORDER, IncidentConnection, IncidentStatus } from './Incident.ts';

export const ServiceRef = builder.prismaObject('Service', {
  description: 'Something that is deployed; CI pipelines authenticate as it with its deploy token.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deployTokenPrefix: t.string({
      description: 'The first characters of the live deploy token, to recognise it; the token itself is shown only once.',
      nullable: true,
      select: { deployTokens: { where: { revokedAt: null }, select: { prefix: true }, take: 1 } },
      resolve: (service) => service.deployTokens[0]?.prefix ?? null,
    }),
    deploys: t.relatedConnection(
      'deploys',
      {
        cursor: 'id',
        description: 'Its deploys, newest first (by deployedAt), optionally to one environment.',
        args: { environment: t.arg.string({ required: false, validate: storableText().nullish() }) },
        query: ({ environment }) => ({ where: environment != null ? { environment } : {}, orderBy: [...DEPLOY_ORDER] }),
      },
      DeployConnection,
    ),
    incidents: t.relatedConnection(
      'incidents',
      {
        cursor: 'id',
        description: 'Its incidents, most recently opened first, optionally by status.',
        args: { status: t.arg({ type: IncidentStatus, required: false }) },
        query: ({ status }) => ({ where: status ? { status } : {}, orderBy: [...INCIDENT_ORDER] }),
      },
      IncidentConnection,
    ),
  }),
});

builder.queryFields((t) => ({
  services: t.prismaConnection(
    {
      authScopes: { organization: true },
      type: 'Service',
      cursor: 'id',
      resolve: (query, _root, _args, context) =>
        context.prisma.service.findMany({
          ...query,
          where: { organizationId: viewerOf(context).id },
          orderBy: { name: 'asc' },
        }),
    },
    { name: 'ServiceConnection' },
    { name: 'ServiceEdge' },
  ),
  service: t.prismaField({
    authScopes: { organization: true },
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
  builder
    .objectRef<{ serviceId: string; deployToken: string }>(name)
    .implement({
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
  createService: t.field({
    authScopes: { organization: true },
    type: CreateServicePayload,
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_root, { name }, context) => {
      const created = await createService(context.prisma, viewerOf(context).id, name);
      return { serviceId: created.service.id, deployToken: created.deployToken };
    },
  }),
  rotateDeployToken: t.field({
    authScopes: { organization: true },
    type: RotateDeployTokenPayload,
    args: { serviceId: t.arg.id({ required: true }) },
    resolve: async (_root, { serviceId }, context) => {
      const rotated = await rotateDeployToken(context.prisma, viewerOf(context).id, String(serviceId));
      return { serviceId: rotated.service.id, deployToken: rotated.deployToken };
    },
  }),
}));
