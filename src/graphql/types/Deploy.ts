import { authenticatedConnection, builder, LIST_BOUNDS, listOf } from '../builder.ts';
import type { AuthenticatedContext, Context } from '../context.ts';
import { requestLoader } from '../loaders.ts';
import { ownedWhere } from '../ownership.ts';
import type { Deploy } from '../../generated/prisma/client.ts';
import { countRows } from '../../domain/shared/counts.ts';
import { environmentSpellings } from '../../domain/correlation/environments.ts';
import { isUuid } from '../../domain/shared/ids.ts';
import { storableText } from '../../domain/shared/input.ts';
import { changesSincePrevious, previousDeploys, type ChangeCommit } from '../../domain/correlation/insights.ts';
import { commitUrl, compareUrl, deployHeadline, pullRequestUrl, subjectAndBody } from '../../domain/shared/repository-links.ts';

/** What a deploy's links need of its service. */
const REPOSITORY = { service: { select: { repositoryUrl: true } } } as const;

/** Newest first; the id breaks ties so that pages are stable. */
export const DEPLOY_ORDER = [{ deployedAt: 'desc' }, { id: 'desc' }] as const satisfies object[];

/** Stages of a rollout listed (a rollout reports a handful: 1 %, 5 %, 25 %, 100 %). */
const MAX_ROLLOUT_STAGES_LISTED = 20;

const RolloutStageRef = builder.objectRef<{ percentage: number; at: Date }>('RolloutStage').implement({
  description: 'A stage of a staged rollout: the share of traffic the deploy reached, and when.',
  fields: (t) => ({
    percentage: t.exposeFloat('percentage'),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

export const DeployRef = builder.prismaNode('Deploy', {
  id: { field: 'id', description: 'The `deploy_id` the ingest endpoint returned.' },
  nullable: true,

  description: 'One deploy of a service, as its CI pipeline reported it.',
  fields: (t) => ({
    commitSha: t.exposeString('commitSha'),
    commitMessage: t.exposeString('commitMessage', { nullable: true }),
    branch: t.exposeString('branch', { nullable: true }),
    deployedBy: t.exposeString('deployedBy', { nullable: true }),
    environment: t.exposeString('environment', { nullable: true }),
    rolloutPercentage: t.exposeFloat('rolloutPercentage', {
      nullable: true,
      description: 'For a staged rollout (rollout_percentage), the share of traffic reached so far; null: not reported as staged.',
    }),
    rolloutStages: t.field({
      type: [RolloutStageRef],
      description: 'The stages of a staged rollout as reported, the first at deployedAt; empty when not staged.',
      complexity: listOf(MAX_ROLLOUT_STAGES_LISTED),
      resolve: (deploy) =>
        (deploy.rolloutStages as { percentage: number; at: string }[])
          .slice(0, MAX_ROLLOUT_STAGES_LISTED)
          .map((stage) => ({ percentage: stage.percentage, at: new Date(stage.at) })),
    }),
    version: t.exposeString('version', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    url: t.exposeString('url', { nullable: true }),
    deployedAt: t.expose('deployedAt', {
      type: 'DateTime',
      description: "When the deploy happened: the payload's `deployed_at`, else when it was received.",
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
      resolve: (_query, deploy, _args, context) =>
        requestLoader(context, 'previousDeploy', null, (deploys: readonly Deploy[]) => previousDeploys(context.prisma, deploys)).load(
          deploy,
        ),
    }),
    commitsSincePrevious: t.field({
      type: [ChangeCommitRef],
      complexity: listOf(LIST_BOUNDS.commits),
      select: REPOSITORY,
      description:
        'The commits this deploy brought since the previous one: those the pipeline sent or, when it sent none, the deployed ' +
        'head commit itself (`derived: true`) unless the previous deploy had the same commit (a redeploy brings nothing new).',
      resolve: async (deploy, _args, context) =>
        (await changesOf(context, deploy)).map((commit) => ({ ...commit, repositoryUrl: deploy.service.repositoryUrl })),
    }),
    headline: t.string({
      nullable: true,
      select: {
        commits: {
          where: { message: { not: null } },
          orderBy: { position: 'asc' },
          take: LIST_BOUNDS.commits,
          select: { sha: true, message: true },
        },
      },
      complexity: listOf(LIST_BOUNDS.commits),
      description:
        "What the deploy says about itself: commitMessage, else the message of the sent commit that is the deployed one, else the first sent commit's message; null when none has one.",
      resolve: (deploy) => deployHeadline(deploy.commitMessage, deploy.commitSha, deploy.commits),
    }),
    commitUrl: t.string({
      nullable: true,
      select: REPOSITORY,
      description:
        "The deployed commit's page in the service's repository; null without a repository on a known host (GitHub, GitLab, Bitbucket).",
      resolve: (deploy) => commitUrl(deploy.service.repositoryUrl, deploy.commitSha),
    }),
    pullRequestUrl: t.string({
      nullable: true,
      select: REPOSITORY,
      description:
        'The pull (merge) request that commitMessage names ("Merge pull request #123", "… (#123)", "See merge request …!123", ' +
        '"(pull request #123)"), in the service\'s repository; null when it names none or there is no repository.',
      resolve: (deploy) => pullRequestUrl(deploy.service.repositoryUrl, deploy.commitMessage),
    }),
    compareUrl: t.string({
      nullable: true,
      select: REPOSITORY,
      description:
        "The comparison of previousDeploy's commit with this deploy's in the service's repository; null without a previous deploy, " +
        'for the same commit, or without a repository on a known host.',
      resolve: async (deploy, _args, context) => {
        const previous = await requestLoader(context, 'previousDeploy', null, (deploys: readonly Deploy[]) =>
          previousDeploys(context.prisma, deploys),
        ).load(deploy);
        return previous ? compareUrl(deploy.service.repositoryUrl, previous.commitSha, deploy.commitSha) : null;
      },
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
    position: t.exposeInt('position', { description: "Its index in the payload's `commits` array (0 for the first)." }),
  }),
});

const ChangeCommitRef = builder.objectRef<ChangeCommit & { repositoryUrl: string | null }>('ChangeCommit').implement({
  description: 'A commit a deploy brought since the previous deploy of its service and environment.',
  fields: (t) => ({
    sha: t.exposeString('sha'),
    message: t.exposeString('message', { nullable: true }),
    subject: t.string({
      nullable: true,
      description: "The message's first line; null without a message.",
      resolve: (commit) => subjectAndBody(commit.message).subject,
    }),
    body: t.string({
      nullable: true,
      description: 'The message after its first line, trimmed; null when there is none.',
      resolve: (commit) => subjectAndBody(commit.message).body,
    }),
    url: t.string({
      nullable: true,
      description: "The commit's page in the service's repository; null without a repository on a known host.",
      resolve: (commit) => commitUrl(commit.repositoryUrl, commit.sha),
    }),
    pullRequestUrl: t.string({
      nullable: true,
      description: "The pull (merge) request the commit's message names, in the service's repository; null when none.",
      resolve: (commit) => pullRequestUrl(commit.repositoryUrl, commit.message),
    }),
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
  return requestLoader(context, 'changesSincePrevious', null, (deploys: readonly Deploy[]) =>
    changesSincePrevious(context.prisma, deploys),
  ).load(deploy);
}

export const DeployConnection = builder.connectionObject({ type: DeployRef, name: 'DeployConnection' }, { name: 'DeployEdge' });

/**
 * The deploys (or change events) a list of one service and environment holds: the environment
 * matched case-insensitively and through the organization's aliases; null: none (another
 * organization's or a malformed service id). A service's list is asked by service alone once the
 * service is known to be the organization's: with the organization in the condition too, the
 * planner may read the organization's rows by time and filter them for the service.
 */
export async function serviceEnvironmentWhere(
  context: AuthenticatedContext,
  { serviceId, environment }: { serviceId?: string | null; environment?: string | null },
) {
  const organizationId = context.organization.id;
  if (serviceId != null) {
    const owned =
      isUuid(serviceId) && (await context.prisma.service.findFirst({ where: { id: serviceId, organizationId }, select: { id: true } }));
    if (!owned) return null;
  }
  return {
    ...(serviceId != null ? { serviceId } : { organizationId }),
    ...(environment != null ? { environment: { in: await environmentSpellings(context.prisma, organizationId, environment) } } : {}),
  };
}

builder.queryFields((t) => ({
  deploys: t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'Deploy',
      cursor: 'id',
      description:
        "The organization's deploys, newest first (by deployedAt), optionally of one service and environment (matched " +
        "case-insensitively and through the organization's environment aliases).",
      args: {
        serviceId: t.arg.id({ required: false }),
        // Compared with stored text, so it must be text PostgreSQL can take (else BAD_USER_INPUT).
        environment: t.arg.string({ required: false, validate: storableText().nullish() }),
      },
      totalCount: async (_root, args, context) => {
        const where = await serviceEnvironmentWhere(context, args);
        return where ? countRows(context.prisma.deploy, where, 'deployedAt') : 0;
      },
      resolve: async (query, _root, args, context) => {
        const where = await serviceEnvironmentWhere(context, args);
        return where ? context.prisma.deploy.findMany({ ...query, where, orderBy: [...DEPLOY_ORDER] }) : [];
      },
    },
    authenticatedConnection(DeployConnection),
  ),
  deploy: t.withAuth({ organization: true }).prismaField({
    type: 'Deploy',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const where = ownedWhere(context, id);
      return where && context.prisma.deploy.findFirst({ ...query, where });
    },
  }),
}));
