// Environments that mean the same: names match case-insensitively (`Production` is
// `production`), and an organization can give an environment other names (`prod`, `prd`). The
// ranking, DORA and every filter by environment compare canonical names: the lower-case name, or
// the environment a lower-case alias stands for. Stored rows keep the name as it was sent.
import { z } from 'zod';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import { InputError } from '../shared/errors.ts';
import { parseInput, trimmedText } from '../shared/input.ts';

export const ENVIRONMENT_NAME_MAX_LENGTH = 100;
/** The most aliases one environment may have. */
export const MAX_ALIASES_PER_ENVIRONMENT = 20;
/** How many environments a list shows (by name), and how many spellings of each. */
export const MAX_ENVIRONMENTS_LISTED = 100;
export const MAX_SPELLINGS_LISTED = 20;

/** Lower-case alias → the lower-case environment it stands for. */
export type EnvironmentAliases = ReadonlyMap<string, string>;

type Db = PrismaClient | Prisma.TransactionClient;

/** The name every spelling and alias of an environment compares as. */
export function canonicalEnvironment(name: string, aliases: EnvironmentAliases): string {
  const lower = name.toLowerCase();
  return aliases.get(lower) ?? lower;
}

export async function loadEnvironmentAliases(db: Db, organizationId: string): Promise<Map<string, string>> {
  const rows = await db.environmentAlias.findMany({ where: { organizationId }, select: { alias: true, environment: true } });
  return new Map(rows.map((row) => [row.alias, row.environment]));
}

/**
 * The names, as stored, that mean the same environment as `environment` in the organization (it
 * included), so that a filter compares with `=` and reads the indexes on environment.
 */
export async function environmentSpellings(db: Db, organizationId: string, environment: string): Promise<string[]> {
  const [aliases, names] = await Promise.all([
    loadEnvironmentAliases(db, organizationId),
    db.environmentName.findMany({ where: { organizationId }, select: { name: true } }),
  ]);
  const wanted = canonicalEnvironment(environment, aliases);
  return [...new Set([environment, ...names.map((row) => row.name).filter((name) => canonicalEnvironment(name, aliases) === wanted)])];
}

export interface Environment {
  /** The canonical (lower-case) name. */
  name: string;
  /** Its aliases, in alphabetical order. */
  aliases: string[];
  /** The names as deploys, change events and incidents sent them that mean it. */
  spellings: string[];
}

/** The organization's environments: every name in use and every aliased environment, by canonical name (the first MAX_ENVIRONMENTS_LISTED). */
export async function listEnvironments(db: Db, organizationId: string): Promise<Environment[]> {
  const [aliases, names] = await Promise.all([
    loadEnvironmentAliases(db, organizationId),
    db.environmentName.findMany({ where: { organizationId }, select: { name: true }, orderBy: { name: 'asc' } }),
  ]);
  const environments = new Map<string, Environment>();
  const of = (name: string) => {
    let environment = environments.get(name);
    if (!environment) environments.set(name, (environment = { name, aliases: [], spellings: [] }));
    return environment;
  };
  for (const [alias, environment] of [...aliases].sort(([a], [b]) => (a < b ? -1 : 1))) of(environment).aliases.push(alias);
  for (const { name } of names) of(canonicalEnvironment(name, aliases)).spellings.push(name);
  return [...environments.values()]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .slice(0, MAX_ENVIRONMENTS_LISTED)
    .map((environment) => ({ ...environment, spellings: environment.spellings.slice(0, MAX_SPELLINGS_LISTED) }));
}

const environmentName = trimmedText(ENVIRONMENT_NAME_MAX_LENGTH).transform((name) => name.toLowerCase());

const aliasesSchema = z.object({
  environment: environmentName,
  aliases: z.array(environmentName).max(MAX_ALIASES_PER_ENVIRONMENT, `must have at most ${MAX_ALIASES_PER_ENVIRONMENT} aliases`),
});

/**
 * Replaces the aliases of `environment` (an empty list removes them). An alias may not be the
 * environment itself, an alias of another environment, or an environment that has aliases of its
 * own (aliases do not chain); `environment` may not be an alias itself. Each fault is an
 * InputError of its item; nothing changes then.
 */
export async function setEnvironmentAliases(
  prisma: PrismaClient,
  organizationId: string,
  input: { environment: string; aliases: readonly string[] },
): Promise<Environment> {
  const { environment, aliases } = parseInput(aliasesSchema, input);
  await prisma.$transaction(async (tx) => {
    // The organization's row lock serialises changes of its aliases (raw: Prisma has no FOR UPDATE).
    await tx.$queryRaw`SELECT 1 FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`;
    const current = await loadEnvironmentAliases(tx, organizationId);
    const problems = [];
    const standsFor = current.get(environment);
    if (standsFor !== undefined) {
      problems.push({ field: 'environment', message: `is an alias of ${standsFor}: set the aliases of ${standsFor}` });
    }
    const hasAliases = new Set(current.values());
    for (const [index, alias] of aliases.entries()) {
      const field = `aliases[${index}]`;
      const other = current.get(alias);
      if (alias === environment) problems.push({ field, message: 'must not be the environment itself' });
      else if (other !== undefined && other !== environment) problems.push({ field, message: `is already an alias of ${other}` });
      else if (hasAliases.has(alias)) problems.push({ field, message: `is an environment with aliases of its own` });
    }
    if (problems.length > 0) throw new InputError(problems);
    await tx.environmentAlias.deleteMany({ where: { organizationId, environment } });
    await tx.environmentAlias.createMany({ data: [...new Set(aliases)].map((alias) => ({ organizationId, alias, environment })) });
  });
  return (
    (await listEnvironments(prisma, organizationId)).find((listed) => listed.name === environment) ?? {
      name: environment,
      aliases: [],
      spellings: [],
    }
  );
}
