// Services and their deploy tokens. A service has exactly one live deploy token; rotation
// revokes it and issues the next in one transaction, and every ingest checks the token in
// the database, so the old one is refused by every process from the moment of commit.
import sql, { type Sql } from 'sql-template-tag';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { Queryable } from '../../db/client.ts';
import { InputError, NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { trimmedText, validateInput } from '../shared/input.ts';
import { hashToken, issueToken, looksLikeToken } from '../shared/tokens.ts';
import { normalizeRepositoryUrl } from '../shared/repository-links.ts';

export const SERVICE_NAME_MAX_LENGTH = 200;

export interface ServiceWithToken {
  service: { id: string; organizationId: string; name: string; createdAt: Date };
  deployToken: string;
}

const serviceName = trimmedText(SERVICE_NAME_MAX_LENGTH);

/** A name is said in a whole sentence ("Service name must be ..."), in the field too. */
function nameError(message: string): InputError {
  return new InputError([{ field: 'name', message }], message);
}

export async function createService(prisma: PrismaClient, organizationId: string, rawName: string): Promise<ServiceWithToken> {
  const validation = validateInput(serviceName, rawName);
  if (!validation.ok) throw nameError(`Service name ${validation.details[0]!.message}`);
  const name = validation.value;
  const token = issueToken('deploy');
  try {
    const service = await prisma.service.create({
      data: { organizationId, name, deployTokens: { create: { prefix: token.prefix, tokenHash: token.hash } } },
    });
    return { service, deployToken: token.plaintext };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw nameError(`A service named "${name}" already exists`);
    }
    throw error;
  }
}

export async function rotateDeployToken(prisma: PrismaClient, organizationId: string, serviceId: string): Promise<ServiceWithToken> {
  if (!isUuid(serviceId)) throw new NotFoundError('Service', serviceId);
  const token = issueToken('deploy');
  return prisma.$transaction(async (tx) => {
    // Locking the service row serialises concurrent rotations, so exactly one token stays
    // live; in SQL, as Prisma cannot lock a row.
    await tx.$executeRaw`SELECT 1 FROM services WHERE id = ${serviceId}::uuid FOR UPDATE`;
    const service = await tx.service.findFirst({ where: { id: serviceId, organizationId } });
    if (!service) throw new NotFoundError('Service', serviceId);
    await tx.deployToken.updateMany({ where: { serviceId, revokedAt: null }, data: { revokedAt: new Date() } });
    await tx.deployToken.create({ data: { serviceId, prefix: token.prefix, tokenHash: token.hash } });
    return { service, deployToken: token.plaintext };
  });
}

export interface DeployCredential {
  deployTokenId: string;
  serviceId: string;
  serviceName: string;
  organizationId: string;
}

/** SQL: the live deploy token whose hash is `hash`, with its service (the columns of DeployCredential). */
export function liveDeployToken(hash: string): Sql {
  return sql`SELECT t.id AS "deployTokenId", s.id AS "serviceId", s.name AS "serviceName", s.organization_id AS "organizationId"
  FROM deploy_tokens t JOIN services s ON s.id = t.service_id
  WHERE t.token_hash = ${hash} AND t.revoked_at IS NULL`;
}

/**
 * SQL: the live deploy token of the service `serviceId`, in the same columns: what records a
 * deploy that arrives by another way (a GitHub webhook) under the service.
 */
export function liveDeployTokenOfService(serviceId: string): Sql {
  return sql`SELECT t.id AS "deployTokenId", s.id AS "serviceId", s.name AS "serviceName", s.organization_id AS "organizationId"
  FROM deploy_tokens t JOIN services s ON s.id = t.service_id
  WHERE s.id = ${serviceId}::uuid AND t.revoked_at IS NULL`;
}

/**
 * The service a live deploy token belongs to, or null (unknown, malformed or revoked). SQL on
 * the pool rather than Prisma: it runs on ingest's path (every refused or test request).
 */
export async function authenticateDeployToken(db: Queryable, plaintext: string | undefined): Promise<DeployCredential | null> {
  if (!looksLikeToken('deploy', plaintext)) return null;
  const { rows } = await db.query<DeployCredential>(liveDeployToken(hashToken(plaintext)));
  return rows[0] ?? null;
}

/**
 * Sets (or, with null, clears) a service's repository address: http(s) only, kept without a
 * trailing slash or ".git". A cleared address is taken again from the next deploy that names one.
 */
export async function setServiceRepositoryUrl(prisma: PrismaClient, organizationId: string, serviceId: string, url: string | null) {
  const normalized = url === null || url.trim() === '' ? null : normalizeRepositoryUrl(url.trim());
  if (url !== null && url.trim() !== '' && (normalized === null || normalized.length > 2048))
    throw new InputError(
      [{ field: 'url', message: 'must be an http or https address of at most 2048 characters' }],
      'url must be an http or https address (at most 2048 characters)',
    );
  if (!isUuid(serviceId)) throw new NotFoundError('Service', serviceId);
  const { count } = await prisma.service.updateMany({ where: { id: serviceId, organizationId }, data: { repositoryUrl: normalized } });
  if (count === 0) throw new NotFoundError('Service', serviceId);
  return prisma.service.findUniqueOrThrow({ where: { id: serviceId } });
}
