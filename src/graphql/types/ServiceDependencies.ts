// Service dependencies: Service.dependsOn / Service.dependents and setServiceDependencies.
import { builder } from '../builder.ts';
import { audited } from '../audit.ts';
import { MAX_DEPENDENCIES, setServiceDependencies } from '../../domain/correlation/dependencies.ts';
import { ServiceRef } from './Service.ts';

/** Dependents listed per service: a shared database can have many. */
export const MAX_DEPENDENTS_LISTED = 100;

builder.prismaObjectFields('Service', (t) => ({
  dependsOn: t.field({
    type: [ServiceRef],
    description:
      `The services this one depends on (calls, or shares state with), by name; at most ${MAX_DEPENDENCIES}. ` +
      "A deploy or change of one of them is a related suspect of this service's incidents.",
    complexity: { field: 1, multiplier: MAX_DEPENDENCIES },
    select: (_args, _context, nestedSelection) => ({
      dependsOn: { select: { dependsOn: nestedSelection(true) }, orderBy: { dependsOn: { name: 'asc' } }, take: MAX_DEPENDENCIES },
    }),
    resolve: (service) => service.dependsOn.map((edge) => edge.dependsOn),
  }),
  dependents: t.field({
    type: [ServiceRef],
    description: `The services that depend on this one, by name (the first ${MAX_DEPENDENTS_LISTED}).`,
    complexity: { field: 1, multiplier: MAX_DEPENDENTS_LISTED },
    select: (_args, _context, nestedSelection) => ({
      dependents: { select: { service: nestedSelection(true) }, orderBy: { service: { name: 'asc' } }, take: MAX_DEPENDENTS_LISTED },
    }),
    resolve: (service) => service.dependents.map((edge) => edge.service),
  }),
}));

builder.mutationField('setServiceDependencies', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: 'Service',
    description:
      `Replaces the services that serviceId depends on (at most ${MAX_DEPENDENCIES}; an empty list removes them all). ` +
      'Each must be another service of the organization; cycles are allowed. The same id twice counts once.',
    args: {
      serviceId: t.arg.id({ required: true }),
      dependsOn: t.arg.idList({ required: true }),
    },
    resolve: async (query, _root, args, context) => {
      const serviceId = args.serviceId;
      await audited(
        context,
        'service.setDependencies',
        (scoped) => setServiceDependencies(scoped.prisma, scoped.organization.id, serviceId, args.dependsOn),
        () => ({ objectId: serviceId, summary: `Set the services service ${serviceId} depends on: ${args.dependsOn.length} given` }),
      );
      return context.prisma.service.findUniqueOrThrow({ ...query, where: { id: serviceId } });
    },
  }),
);
