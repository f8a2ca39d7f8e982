// Rollbacks on deploys: isRollback / restoredDeploy and rolledBack / rolledBackBy, read from the
// deploy history of each deploy's service and environment, once per request for all deploys asked.
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import type { Deploy } from '../../generated/prisma/client.ts';
import { loadRollbackFacts } from '../../domain/correlation/correlation.ts';
import { DeployRef } from './Deploy.ts';

interface DeployRollbacks {
  restores: string | null;
  rolledBackBy: string | null;
}

const rollbackLoader = createContextCache(
  (context: Context) =>
    new DataLoader<Deploy, DeployRollbacks, string>(
      async (deploys) => {
        const facts = await loadRollbackFacts(context.prisma, deploys);
        return deploys.map((deploy) => ({
          restores: facts.restores.get(deploy.id) ?? null,
          rolledBackBy: facts.rolledBackBy.get(deploy.id) ?? null,
        }));
      },
      { cacheKeyFn: (deploy) => deploy.id },
    ),
);

const rollbacksOf = (context: Context, deploy: Deploy) => rollbackLoader(context).load(deploy);

builder.objectFields(DeployRef, (t) => ({
  isRollback: t.boolean({
    description:
      'True when this deploy brought back the commit or version of an earlier deploy of its service and environment, ' +
      'with other deploys in between (a redeploy of what ran right before is not a rollback). A rollback is not a suspect.',
    resolve: async (deploy, _args, context) => (await rollbacksOf(context, deploy)).restores !== null,
  }),
  restoredDeploy: t.prismaField({
    type: 'Deploy',
    nullable: true,
    description: 'For a rollback: the earlier deploy whose commit or version it brought back.',
    resolve: async (query, deploy, _args, context) => {
      const id = (await rollbacksOf(context, deploy)).restores;
      return id === null ? null : context.prisma.deploy.findUnique({ ...query, where: { id } });
    },
  }),
  rolledBack: t.boolean({
    description:
      'True when a later rollback undid this deploy. It stays a suspect of incidents (it was undone for a reason) and counts as ' +
      'a failed change in DORA metrics.',
    resolve: async (deploy, _args, context) => (await rollbacksOf(context, deploy)).rolledBackBy !== null,
  }),
  rolledBackBy: t.prismaField({
    type: 'Deploy',
    nullable: true,
    description: 'The first rollback after this deploy that undid it.',
    resolve: async (query, deploy, _args, context) => {
      const id = (await rollbacksOf(context, deploy)).rolledBackBy;
      return id === null ? null : context.prisma.deploy.findUnique({ ...query, where: { id } });
    },
  }),
}));
