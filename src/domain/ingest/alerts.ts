// Alerts in: routing reported alerts to services, and the incidents they open, update and resolve.
//
// One incident per (alert source, service, group key) while it is not resolved. An alert is one
// firing of one fingerprint (fingerprint and startsAt): a firing already recorded in an incident
// of its group is not news, so a repeat (Alertmanager's repeat_interval, a retried notification)
// changes nothing and emits nothing, and an incident someone resolved by hand stays resolved
// while the same alerts keep firing. Every request of a source runs under a lock on the source's
// row: its notifications are applied one at a time, in the order they arrive.
import type { AlertSourceKind, Prisma, PrismaClient, Severity } from '../../generated/prisma/client.ts';
import type { AlertGroup, PagerDutyEvent, ReportedAlert } from './alert-payloads.ts';
import { rankIncidentSuspects, rerankIncidentSuspects } from '../correlation/correlation.ts';
import { recordIncidentActivity } from '../correlation/incident-activity.ts';
import { alertSourceActor } from '../shared/actors.ts';
import { emitIncidentEvent, takenBy, type IncidentDependencies } from '../correlation/incidents.ts';

type Tx = Prisma.TransactionClient;

export type IncidentAction = 'opened' | 'updated' | 'resolved' | 'unchanged';

export interface AlertOutcome {
  incidents: { incidentId: string; action: IncidentAction }[];
  unrouted: { fingerprint: string; reason: string }[];
}

/** A request's claim to be a source: the kind it sends as, and the hash of its token. */
export interface AlertSourceClaim {
  kind: AlertSourceKind;
  tokenHash: string;
}

interface LockedSource {
  id: string;
  organizationId: string;
}

// Alert storms wait on the source's lock and rank suspects: more time than Prisma's 5 s default.
const TRANSACTION_OPTIONS = { timeout: 30_000, maxWait: 30_000 };

/** The live source of this kind whose token hashes to `tokenHash`, locked for the transaction; null when none. */
async function lockSource(tx: Tx, { kind, tokenHash }: AlertSourceClaim): Promise<LockedSource | null> {
  const [source] = await tx.$queryRaw<LockedSource[]>`
    SELECT id::text, organization_id::text AS "organizationId" FROM alert_sources
     WHERE token_hash = ${tokenHash} AND kind = ${kind}::"AlertSourceKind" FOR UPDATE`;
  return source ?? null;
}

/** Whether a live source of this kind has the token (for a refused request: 401 or the content's error). */
export async function authenticateAlertToken(prisma: PrismaClient, { kind, tokenHash }: AlertSourceClaim): Promise<boolean> {
  return (await prisma.alertSource.count({ where: { tokenHash, kind } })) > 0;
}

const SEVERITY_RANK: Record<Severity, number> = { SEV1: 1, SEV2: 2, SEV3: 3, SEV4: 4 };
const mostSevere = (severities: Severity[]) => severities.reduce((a, b) => (SEVERITY_RANK[b] < SEVERITY_RANK[a] ? b : a));

const earliest = (dates: Date[]) => new Date(Math.min(...dates.map((date) => date.getTime())));
const latest = (dates: Date[]) => new Date(Math.max(...dates.map((date) => date.getTime())));

/** Routing: each alert to the first service its service names name (case-insensitively), or a reason. */
async function routeAlerts(tx: Tx, organizationId: string, alerts: ReportedAlert[]) {
  const names = [...new Set(alerts.flatMap((alert) => alert.serviceNames.map((name) => name.value.toLowerCase())))];
  const services = names.length
    ? await tx.$queryRaw<{ id: string; name: string }[]>`
        SELECT id::text, name FROM services WHERE organization_id = ${organizationId}::uuid AND lower(name) = ANY(${names}::text[])
        ORDER BY created_at, id`
    : [];
  const serviceOf = (value: string) =>
    services.find((service) => service.name === value) ?? services.find((service) => service.name.toLowerCase() === value.toLowerCase());
  const routed = new Map<string, ReportedAlert[]>();
  const unrouted: { alert: ReportedAlert; reason: string }[] = [];
  for (const alert of alerts) {
    const service = alert.serviceNames.map((name) => serviceOf(name.value)).find((found) => found !== undefined);
    if (service) routed.set(service.id, [...(routed.get(service.id) ?? []), alert]);
    else unrouted.push({ alert, reason: unroutedReason(alert) });
  }
  return { routed, unrouted };
}

/** Why an alert names no service, and what to change. */
export function unroutedReason(alert: Pick<ReportedAlert, 'serviceNames'>): string {
  if (alert.serviceNames.length === 0) {
    return 'The alert has no service, app or job label (PagerDuty: payload.component or payload.source). Add one whose value is the name of a Hookline service.';
  }
  const tried = alert.serviceNames.map((name) => `"${name.value}" (${name.from})`).join(', ');
  return `No service is named ${tried}. Create a service of that name, or change the label to the name of an existing service.`;
}

function alertRow(alert: ReportedAlert) {
  return {
    fingerprint: alert.fingerprint,
    status: alert.status,
    labels: alert.labels,
    annotations: alert.annotations,
    startsAt: alert.startsAt,
    endsAt: alert.endsAt,
    generatorUrl: alert.generatorUrl,
  };
}

/** Unrouted alerts are kept once per firing (a repeat is the same row), for the dashboard. */
async function keepUnrouted(
  tx: Tx,
  source: LockedSource,
  groupKey: string,
  unrouted: { alert: ReportedAlert; reason: string }[],
  now: Date,
) {
  for (const { alert, reason } of unrouted) {
    const known = await tx.alert.findFirst({
      where: { alertSourceId: source.id, groupKey, fingerprint: alert.fingerprint, startsAt: alert.startsAt, incidentId: null },
      select: { id: true, status: true },
    });
    if (!known) {
      await tx.alert.create({
        data: { ...alertRow(alert), organizationId: source.organizationId, alertSourceId: source.id, groupKey, unroutedReason: reason },
      });
    } else if (known.status !== alert.status) {
      await tx.alert.update({ where: { id: known.id }, data: { status: alert.status, endsAt: alert.endsAt, updatedAt: now } });
    }
  }
}

/** Applies a group's alerts routed to one service to that service's incident of the group. */
async function applyToService(
  tx: Tx,
  deps: IncidentDependencies,
  source: LockedSource,
  serviceId: string,
  groupKey: string,
  alerts: ReportedAlert[],
  now: Date,
): Promise<{ incidentId: string; action: IncidentAction } | null> {
  // Fixed now, an alert that routed nowhere before is no longer the dashboard's concern.
  await tx.alert.deleteMany({
    where: { alertSourceId: source.id, incidentId: null, fingerprint: { in: alerts.map((alert) => alert.fingerprint) } },
  });
  const incident = await tx.incident.findFirst({
    where: { alertSourceId: source.id, alertGroupKey: groupKey, serviceId, status: { not: 'RESOLVED' } },
    include: { alerts: { select: { id: true, fingerprint: true, status: true, startsAt: true, endsAt: true } } },
  });
  if (incident) return updateIncident(tx, deps, incident, alerts, now);

  const seen = await tx.alert.findMany({
    where: {
      alertSourceId: source.id,
      groupKey,
      incidentId: { not: null },
      OR: alerts.map((alert) => ({ fingerprint: alert.fingerprint, startsAt: alert.startsAt })),
    },
    select: { fingerprint: true, startsAt: true, incidentId: true, incident: { select: { openedAt: true } } },
  });
  const isSeen = (alert: ReportedAlert) =>
    seen.some((row) => row.fingerprint === alert.fingerprint && row.startsAt.getTime() === alert.startsAt.getTime());
  const fresh = alerts.filter((alert) => !isSeen(alert));
  const firing = fresh.filter((alert) => alert.status === 'FIRING').sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  if (firing.length === 0) {
    // Nothing new fires: the incident these alerts belong to (if Hookline ever saw them) stays as it is.
    const last = seen.sort((a, b) => b.incident!.openedAt.getTime() - a.incident!.openedAt.getTime())[0];
    return last ? { incidentId: last.incidentId!, action: 'unchanged' } : null;
  }
  const opened = await tx.incident.create({
    data: {
      organizationId: source.organizationId,
      serviceId,
      title: firing[0]!.title,
      severity: mostSevere(firing.map((alert) => alert.severity)),
      environment: firing.find((alert) => alert.environment)?.environment ?? null,
      startedAt: firing[0]!.startsAt,
      openedAt: now,
      alertSourceId: source.id,
      alertGroupKey: groupKey,
    },
  });
  await tx.alert.createMany({
    data: fresh.map((alert) => ({
      ...alertRow(alert),
      organizationId: source.organizationId,
      alertSourceId: source.id,
      incidentId: opened.id,
      groupKey,
    })),
  });
  await rankIncidentSuspects(tx, opened, deps.lookbackMs);
  await recordIncidentActivity(tx, { incidentId: opened.id, kind: 'OPENED', actor: alertSourceActor(source.id), at: opened.startedAt });
  await emitIncidentEvent(tx, deps, opened, 'incident.opened');
  return { incidentId: opened.id, action: 'opened' };
}

type KnownIncident = Prisma.IncidentGetPayload<{
  include: { alerts: { select: { id: true; fingerprint: true; status: true; startsAt: true; endsAt: true } } };
}>;

/**
 * New alerts join the incident, known ones take their new status; when every alert of it is
 * resolved the incident is resolved at the latest end. Its start moves earlier (and its suspects
 * are ranked again) when an alert that began earlier joins; its severity rises with a more severe one.
 */
async function updateIncident(
  tx: Tx,
  deps: IncidentDependencies,
  incident: KnownIncident,
  alerts: ReportedAlert[],
  now: Date,
): Promise<{ incidentId: string; action: IncidentAction }> {
  const current = new Map(incident.alerts.map((alert) => [alert.fingerprint, alert]));
  const joined: ReportedAlert[] = [];
  let changed = false;
  for (const alert of alerts) {
    const known = current.get(alert.fingerprint);
    if (!known) {
      changed = true;
      joined.push(alert);
      const created = await tx.alert.create({
        data: {
          ...alertRow(alert),
          organizationId: incident.organizationId,
          alertSourceId: incident.alertSourceId,
          incidentId: incident.id,
          groupKey: incident.alertGroupKey!,
        },
        select: { id: true, fingerprint: true, status: true, startsAt: true, endsAt: true },
      });
      current.set(alert.fingerprint, created);
    } else if (known.status !== alert.status) {
      changed = true;
      // Firing again (a new firing of it) or resolved now.
      const change =
        alert.status === 'FIRING'
          ? { status: alert.status, startsAt: alert.startsAt, endsAt: null }
          : { status: alert.status, endsAt: alert.endsAt };
      if (alert.status === 'FIRING') joined.push(alert);
      await tx.alert.update({ where: { id: known.id }, data: { ...change, updatedAt: now } });
      current.set(alert.fingerprint, { ...known, ...change });
    }
  }
  if (!changed) return { incidentId: incident.id, action: 'unchanged' };

  const all = [...current.values()];
  if (all.every((alert) => alert.status === 'RESOLVED')) {
    const lastEnd = latest(all.map((alert) => alert.endsAt ?? now));
    // biome-ignore lint/complexity/useMathMinMax: Dates (Math.max would make a number of them)
    const resolvedAt = lastEnd < incident.startedAt ? incident.startedAt : lastEnd;
    const actor = alertSourceActor(incident.alertSourceId);
    const [resolved] = await tx.incident.updateManyAndReturn({
      where: { id: incident.id, status: { not: 'RESOLVED' } },
      data: { status: 'RESOLVED', resolvedAt, ...takenBy('resolved', actor) },
    });
    if (resolved) {
      await recordIncidentActivity(tx, { incidentId: incident.id, kind: 'RESOLVED', actor, at: resolvedAt });
      await emitIncidentEvent(tx, deps, resolved, 'incident.resolved');
    }
    return { incidentId: incident.id, action: 'resolved' };
  }

  const firing = joined.filter((alert) => alert.status === 'FIRING');
  if (firing.length > 0) {
    const startedAt = earliest([incident.startedAt, ...firing.map((alert) => alert.startsAt)]);
    const severity = mostSevere([incident.severity, ...firing.map((alert) => alert.severity)]);
    const updated = await tx.incident.update({ where: { id: incident.id }, data: { startedAt, severity } });
    if (startedAt < incident.startedAt)
      await rerankIncidentSuspects(tx, updated, deps.lookbackMs, alertSourceActor(incident.alertSourceId));
  }
  return { incidentId: incident.id, action: 'updated' };
}

/**
 * An Alertmanager (or Grafana) notification from the source of `claim`: null when no live source
 * of its kind has its token (nothing is stored).
 */
export async function receiveAlertGroup(
  deps: IncidentDependencies,
  claim: AlertSourceClaim,
  group: AlertGroup,
  now = new Date(),
): Promise<AlertOutcome | null> {
  return deps.prisma.$transaction(async (tx) => {
    const source = await lockSource(tx, claim);
    if (!source) return null;
    await tx.alertSource.update({ where: { id: source.id }, data: { lastReceivedAt: now } });
    const { routed, unrouted } = await routeAlerts(tx, source.organizationId, group.alerts);
    const incidents: AlertOutcome['incidents'] = [];
    for (const [serviceId, alerts] of routed) {
      const outcome = await applyToService(tx, deps, source, serviceId, group.groupKey, alerts, now);
      if (outcome) incidents.push(outcome);
    }
    await keepUnrouted(tx, source, group.groupKey, unrouted, now);
    return { incidents, unrouted: unrouted.map(({ alert, reason }) => ({ fingerprint: alert.fingerprint, reason })) };
  }, TRANSACTION_OPTIONS);
}

/**
 * A PagerDuty Events API v2 event from the source of `claim` (its token the routing key): a
 * trigger opens (or joins) the incident of its dedup_key, acknowledge and resolve move it on (a
 * dedup_key with no incident not resolved: nothing happens, as with PagerDuty). Null when no
 * live source of its kind has the key.
 */
export async function receivePagerDutyEvent(
  deps: IncidentDependencies,
  claim: AlertSourceClaim,
  event: PagerDutyEvent,
  now = new Date(),
): Promise<AlertOutcome | null> {
  return deps.prisma.$transaction(async (tx) => {
    const source = await lockSource(tx, claim);
    if (!source) return null;
    await tx.alertSource.update({ where: { id: source.id }, data: { lastReceivedAt: now } });
    if (event.alert) {
      const { routed, unrouted } = await routeAlerts(tx, source.organizationId, [event.alert]);
      const incidents: AlertOutcome['incidents'] = [];
      for (const [serviceId, alerts] of routed) {
        // A trigger repeated while its incident is open is the same alert (its one fingerprint is the dedup_key).
        const outcome = await applyToService(tx, deps, source, serviceId, event.dedupKey, alerts, now);
        if (outcome) incidents.push(outcome);
      }
      await keepUnrouted(tx, source, event.dedupKey, unrouted, now);
      return { incidents, unrouted: unrouted.map(({ alert, reason }) => ({ fingerprint: alert.fingerprint, reason })) };
    }
    const incident = await tx.incident.findFirst({
      where: { alertSourceId: source.id, alertGroupKey: event.dedupKey, status: { not: 'RESOLVED' } },
      orderBy: { openedAt: 'desc' },
    });
    if (!incident) return { incidents: [], unrouted: [] };
    if (event.action === 'acknowledge') {
      const actor = alertSourceActor(source.id);
      const [acknowledged] = await tx.incident.updateManyAndReturn({
        where: { id: incident.id, status: 'OPEN' },
        data: { status: 'ACKNOWLEDGED', acknowledgedAt: now, ...takenBy('acknowledged', actor) },
      });
      if (!acknowledged) return { incidents: [{ incidentId: incident.id, action: 'unchanged' }], unrouted: [] };
      await recordIncidentActivity(tx, { incidentId: incident.id, kind: 'ACKNOWLEDGED', actor, at: now });
      await emitIncidentEvent(tx, deps, acknowledged, 'incident.acknowledged');
      return { incidents: [{ incidentId: incident.id, action: 'updated' }], unrouted: [] };
    }
    // Guarded: a person may have resolved it meanwhile (transitions do not take the source's lock).
    const actor = alertSourceActor(source.id);
    const [resolved] = await tx.incident.updateManyAndReturn({
      where: { id: incident.id, status: { not: 'RESOLVED' } },
      data: { status: 'RESOLVED', resolvedAt: now, ...takenBy('resolved', actor) },
    });
    if (!resolved) return { incidents: [{ incidentId: incident.id, action: 'unchanged' }], unrouted: [] };
    await recordIncidentActivity(tx, { incidentId: incident.id, kind: 'RESOLVED', actor, at: now });
    await tx.alert.updateMany({
      where: { incidentId: incident.id, status: 'FIRING' },
      data: { status: 'RESOLVED', endsAt: now, updatedAt: now },
    });
    await emitIncidentEvent(tx, deps, resolved, 'incident.resolved');
    return { incidents: [{ incidentId: incident.id, action: 'resolved' }], unrouted: [] };
  }, TRANSACTION_OPTIONS);
}
