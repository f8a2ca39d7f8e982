// Environments and their aliases: `environments` and setEnvironmentAliases.
import { builder, listOf } from '../builder.ts';
import { audited } from '../audit.ts';
import { quoted } from '../../domain/shared/audit.ts';
import {
  listEnvironments,
  MAX_ALIASES_PER_ENVIRONMENT,
  MAX_ENVIRONMENTS_LISTED,
  MAX_SPELLINGS_LISTED,
  setEnvironmentAliases,
  type Environment,
} from '../../domain/correlation/environments.ts';

const EnvironmentRef = builder.objectRef<Environment>('Environment').implement({
  description:
    'An environment of the organization, by its canonical name: the lower-case name, which its aliases and every spelling of it ' +
    'mean too. Suspect ranking, DORA and the environment filters compare canonical names.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The canonical name (lower case).' }),
    aliases: t.exposeStringList('aliases', {
      description: `Its other names, set by setEnvironmentAliases (at most ${MAX_ALIASES_PER_ENVIRONMENT}), alphabetical.`,
      complexity: listOf(MAX_ALIASES_PER_ENVIRONMENT),
    }),
    spellings: t.exposeStringList('spellings', {
      description: `The names, as sent, of the deploys, change events and incidents that mean it (the first ${MAX_SPELLINGS_LISTED}).`,
      complexity: listOf(MAX_SPELLINGS_LISTED),
    }),
  }),
});

builder.queryField('environments', (t) =>
  t.withAuth({ organization: true }).field({
    type: [EnvironmentRef],
    description: `The organization's environments in use or with aliases, by canonical name (the first ${MAX_ENVIRONMENTS_LISTED}).`,
    complexity: listOf(MAX_ENVIRONMENTS_LISTED),
    resolve: (_root, _args, context) => listEnvironments(context.prisma, context.organization.id),
  }),
);

builder.mutationField('setEnvironmentAliases', (t) =>
  t.withAuth({ organization: true }).field({
    type: EnvironmentRef,
    description:
      `Replaces the aliases of an environment (at most ${MAX_ALIASES_PER_ENVIRONMENT}; an empty list removes them): prod and prd for ` +
      'production. Names are compared in lower case. An alias may not be the environment itself, an alias of another ' +
      'environment, or an environment with aliases of its own; the environment may not be an alias (BAD_USER_INPUT per item).',
    args: {
      environment: t.arg.string({ required: true }),
      aliases: t.arg.stringList({ required: true }),
    },
    resolve: (_root, args, context) =>
      audited(
        context,
        'environment.setAliases',
        (scoped) => setEnvironmentAliases(scoped.prisma, scoped.organization.id, args),
        (environment) => ({
          objectId: null,
          summary: `Set the aliases of environment ${quoted(environment.name)}: ${environment.aliases.map(quoted).join(', ') || 'none'}`,
        }),
      ),
  }),
);
