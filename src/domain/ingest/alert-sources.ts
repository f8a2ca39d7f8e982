// Alert sources: a monitoring system (Alertmanager, Grafana, anything that pages PagerDuty) that
// opens and resolves incidents. Each has one live `hlk_` token, scoped to alert ingest of its
// organization; only its SHA-256 hash is stored, and rotation replaces it in one statement, so
// the old token is refused by every process from the moment it commits.
import type { AlertSource, AlertSourceKind, PrismaClient } from '../../generated/prisma/client.ts';
import { InputError, NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { trimmedText, validateInput } from '../shared/input.ts';
import { issueToken } from '../shared/tokens.ts';

export const ALERT_SOURCE_NAME_MAX_LENGTH = 200;

const alertSourceName = trimmedText(ALERT_SOURCE_NAME_MAX_LENGTH);

export interface AlertSourceWithToken {
  alertSource: AlertSource;
  /** hlk_…, shown once: only its hash is stored. */
  token: string;
}

export async function createAlertSource(
  prisma: PrismaClient,
  organizationId: string,
  input: { name: string; kind: AlertSourceKind },
): Promise<AlertSourceWithToken> {
  const validation = validateInput(alertSourceName, input.name);
  if (!validation.ok) {
    const message = `Alert source name ${validation.details[0]!.message}`;
    throw new InputError([{ field: 'name', message }], message);
  }
  const token = issueToken('alert');
  const alertSource = await prisma.alertSource.create({
    data: { organizationId, name: validation.value, kind: input.kind, tokenPrefix: token.prefix, tokenHash: token.hash },
  });
  return { alertSource, token: token.plaintext };
}

/** A new token for one of the organization's sources; the previous one is refused from the commit on. */
export async function rotateAlertSourceToken(prisma: PrismaClient, organizationId: string, id: string): Promise<AlertSourceWithToken> {
  const token = issueToken('alert');
  const [alertSource] = isUuid(id)
    ? await prisma.alertSource.updateManyAndReturn({
        where: { id, organizationId },
        data: { tokenPrefix: token.prefix, tokenHash: token.hash },
      })
    : [];
  if (!alertSource) throw new NotFoundError('Alert source', id);
  return { alertSource, token: token.plaintext };
}

/**
 * Deletes one of the organization's sources: its token is refused from then on and its unrouted
 * alerts go; the incidents it opened stay, with their alerts (their alertSource becomes null).
 */
export async function deleteAlertSource(prisma: PrismaClient, organizationId: string, id: string): Promise<string> {
  if (!isUuid(id)) throw new NotFoundError('Alert source', id);
  const [, deleted] = await prisma.$transaction([
    prisma.alert.deleteMany({ where: { alertSourceId: id, incidentId: null, organizationId } }),
    prisma.alertSource.deleteMany({ where: { id, organizationId } }),
  ]);
  if (deleted.count === 0) throw new NotFoundError('Alert source', id);
  return id;
}
