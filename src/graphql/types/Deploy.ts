import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { viewerOf, type Context } from '../context.ts';
import { requestLoader } from '../loaders.ts';
import { ownedWhere } from '../ownership.ts';
import type { Deploy } from '../../generated/prisma/client.ts';
import { isUuid } from '../../domain/ids.ts';
import { storableText } from '../../domain/input.ts';
import { changesSincePrevious, previousDeploys, type ChangeCommit } from '../../domain/insights.ts';

/** Newest first; the id breaks ties so that pages are stable. */
export const DEPLOY_ORDER = [{ deployedAt: 'desc' }, { id: 'desc' }] as const satisfies object[];

export const DeployRef = builder.prismaObject('Deploy', {
  description: 'One deploy of a service, as its CI pipeline reported it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The `deploy_id` the ingest endpoint returned.' }),
    commitSha: t.exposeString('commitSha'),
    commitMessage: t.exposeString('commitMessage', { nullable: true }),
    branch: t.exposeString('branch', { nullable: true }),
    deployedBy: t.exposeString('deployedBy', { nullable: true }),
    environment: t.exposeString('environment', { nullable: true }),
    version: t.exposeString('version', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    url: t.exposeString('url', { nullable: true }),
    deployedAt: t.expose('deployedAt', {
      type: 'DateTime',
      description: 'When the deploy happened: the payload\'s `deployed_at`, else when it was received.',
    }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime', description: 'When Hookline received it.' }),
    service: t.relation('service'),
    commits: t.relation('commits', {
      description: `The commits the pipeline sent with the deploy (at most ${LIST_BOUNDS.commits}), in the order sent (empty when it sent none).`,
      query: { orderBy: { position: 'asc' }, take: LIST_BOUNDS.commits },
      complexity: listOf(LIST_BOUNDS.commits),
    }),
    previousDeploy: t.prismaField({
      type: 'Deploy',
      nullable: true,
      description: 'The latest earlier deploy of the same service to the same environment (no environment: the latest other one without).',
      resolve: (_query, deploy, _args, context) => requestLoader(context, 'previousDeploy', null, (deploys: readonly Deploy[]) => previousDeploys(context.prisma, deploys)).load(deploy),
    }),
    commitsSincePrevious: t.field({
      type: [ChangeCommitRef],
      complexity: listOf(LIST_BOUNDS.commits),
      description:
        'The commits this deploy brought since the previous one: those the pipeline sent or, when it sent none, the deployed ' +
        'head commit itself (`derived: true`) unless the previous deploy had the same commit (a redeploy brings nothing new).',
      resolve: (deploy, _args, context) => changesOf(context, deploy),
    }),
    authors: t.stringList({
      description: 'The distinct authors of commitsSincePrevious, in the order they first appear.',
      complexity: listOf(LIST_BOUNDS.commits),
      resolve: async (deploy, _args, context) => {
        const authors = (await changesOf(context, deploy)).map((commit) => commit.author);
        return [...new Set(authors.filter((author): author is string => author !== null))];
      },
    }),
    suspectIn: t.relation('suspectIn', {
      description: `The incidents this deploy is a suspect of, most recently opened first (the latest ${LIST_BOUNDS.suspectIn}).`,
      query: { orderBy: [{ incident: { openedAt: 'desc' } }, { incidentId: 'desc' }], take: LIST_BOUNDS.suspectIn },
      complexity: listOf(LIST_BOUNDS.suspectIn),
    }),
  }),
});

builder.prismaObject('Commit', {
  description: 'A commit the pipeline sent with a deploy.',
  fields: (t) => ({
    sha: t.exposeString('sha'),
    message: t.exposeString('message', { nullable: true }),
    author: t.exposeString('author', { nullable: true }),
    timestamp: t.expose('timestamp', { type: 'DateTime', nullable: true }),
    position: t.exposeInt('position', { description: 'Its index in the payload\'s `commits` array (0 for the first).' }),
  }),
});

const ChangeCommitRef = builder.objectRef<ChangeCommit>('ChangeCommit').implement({
  description: 'A commit a deploy brought since the previous deploy of its service and environment.',
  fields: (t) => ({
    sha: t.exposeString('sha'),
    message: t.exposeString('message', { nullable: true }),
    author: t.exposeString('author', { nullable: true }),
    timestamp: t.expose('timestamp', { type: 'DateTime', nullable: true }),
    leadTimeSeconds: t.exposeFloat('leadTimeSeconds', {
      nullable: true,
      description: 'Seconds from the commit timestamp to the deploy (0 when the commit is dated after it); null without a timestamp.',
    }),
    derived: t.exposeBoolean('derived', {
      description: 'True when the pipeline sent no commits and this entry stands for the deployed head commit.',
    }),
  }),
});

/** commitsSincePrevious and authors read the same list: one batch for every deploy of the request. */
function changesOf(context: Context, deploy: Deploy): Promise<ChangeCommit[]> {
  return requestLoader(context, 'changesSincePrevious', null, (deploys: readonly Deploy[]) => changesSincePrevious(context.prisma, deploys)).load(deploy);
}

export const DeployConnection = builder.connectionObject({ type: DeployRef, name: 'DeployConnection' }, { name: 'DeployEdge' });

builder.queryFields((t) => ({
  deploys: t.prismaConnection(
    {
      authScopes: { organization: true },
      type: 'Deploy',
      cursor: 'id',
      description: "The organization's deploys, newest first (by deployedAt), optionally of one service and environment.",
      args: {
        serviceId: t.arg.id({ required: false }),
        // Compared with stored text, so it must be text PostgreSQL can take (else BAD_USER_INPUT).
        environment: t.arg.string({ required: false, validate: storableText().nullish() }),
      },
      resolve: async (query, _root, { serviceId, environment }, context) => {
        // Another organization's (or a malformed) service id is a service without deploys.
        if (serviceId != null && !isUuid(String(serviceId))) return [];
        return context.prisma.deploy.findMany({
          ...query,
          where: {
            organizationId: viewerOf(context).id,
            ...(serviceId != null ? { serviceId: String(serviceId) } : {}),
            ...(environment != null ? { environment } : {}),
          },
          orderBy: [...DEPLOY_ORDER],
        });
      },
    },
    DeployConnection,
  ),
  deploy: t.prismaField({
    authScopes: { organization: true },
    type: 'Deploy',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const where = ownedWhere(context, id);
      return where && context.prisma.deploy.findFirst({ ...query, where });
    },
  }),
}));
