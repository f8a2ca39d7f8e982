// Deploy.health: the alerts and incidents of a deploy's service in the hour after it, against the
// hour before; one statement for all the deploys of a request.
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { requestLoader } from '../loaders.ts';
import type { Deploy } from '../../generated/prisma/client.ts';
import { type DeployHealth, HEALTH_WINDOW_MS, loadDeployHealth } from '../../domain/correlation/deploy-health.ts';
import { DeployRef } from './Deploy.ts';

const NO_TROUBLE: DeployHealth = { before: { alerts: 0, incidents: 0 }, after: { alerts: 0, incidents: 0 } };

const DeployHealthRef = builder.objectRef<DeployHealth>('DeployHealth').implement({
  description:
    "What the deploy's service went through in the hour after the deploy, against the hour before: alerts that started " +
    '(routed to an incident of the service) and incidents that started (filed under the service or affecting it), of the ' +
    "deploy's environment or of none. The hour after may not be over yet.",
  fields: (t) => ({
    windowSeconds: t.int({ description: 'The length of each window: 3600.', resolve: () => HEALTH_WINDOW_MS / 1000 }),
    alertsBefore: t.int({ resolve: (health) => health.before.alerts }),
    alertsAfter: t.int({ resolve: (health) => health.after.alerts }),
    incidentsBefore: t.int({ resolve: (health) => health.before.incidents }),
    incidentsAfter: t.int({ resolve: (health) => health.after.incidents }),
  }),
});

builder.objectFields(DeployRef, (t) => ({
  health: t.field({
    type: DeployHealthRef,
    description: 'Alerts and incidents of its service in the hour after this deploy, against the hour before.',
    resolve: (deploy, _args, context: Context) =>
      requestLoader<Deploy, DeployHealth>(context, 'deployHealth', null, async (deploys) => {
        // A request reads one organization's deploys; grouped all the same, since the query takes one.
        const health = new Map<string, DeployHealth>();
        for (const organizationId of new Set(deploys.map((d) => d.organizationId))) {
          const ids = deploys.filter((d) => d.organizationId === organizationId).map((d) => d.id);
          for (const [id, value] of await loadDeployHealth(context.prisma, organizationId, ids)) health.set(id, value);
        }
        return deploys.map((d) => health.get(d.id) ?? NO_TROUBLE);
      }).load(deploy),
  }),
}));
