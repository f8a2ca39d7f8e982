// The bodies monitoring systems send, and what Hookline reads from them: Alertmanager's webhook
// (version 4) and Grafana's webhook contact point (the same shape with more fields), and
// PagerDuty's Events API v2. Each becomes a list of reported alerts, with what routing needs
// (the service and environment they name, their severity, a title) read the same way.
import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Severity } from '../../generated/prisma/client.ts';
import { ingestUrl } from './deploys.ts';
import { requiredText, storableJson, storableText, storableTimestamp, validateInput, type Validated } from '../shared/input.ts';

export const ALERT_TITLE_MAX_LENGTH = 200;
export const DEDUP_KEY_MAX_LENGTH = 255;

/** One alert as its source reports it now. */
export interface ReportedAlert {
  /** Alertmanager's fingerprint (of the labels; computed the same way when absent) or the PagerDuty dedup_key. */
  fingerprint: string;
  status: 'FIRING' | 'RESOLVED';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: Date;
  /** When it stopped firing: resolved alerts only (a firing alert's endsAt is only Alertmanager's timeout). */
  endsAt: Date | null;
  generatorUrl: string | null;
  /** The values that may name its service, in the order they are tried, with where each came from. */
  serviceNames: { from: string; value: string }[];
  environment: string | null;
  severity: Severity;
  title: string;
}

/** Alerts of one group: an Alertmanager groupKey, or one PagerDuty dedup_key. */
export interface AlertGroup {
  groupKey: string;
  alerts: ReportedAlert[];
}

const SEVERITIES: Record<string, Severity> = {
  critical: 'SEV1',
  error: 'SEV2',
  high: 'SEV2',
  warning: 'SEV3',
  info: 'SEV4',
  low: 'SEV4',
};

/** critical → SEV1, error/high → SEV2, warning → SEV3, info/low → SEV4; anything else (or none) SEV3. */
export function severityOf(value: string | undefined): Severity {
  return (value !== undefined && SEVERITIES[value.toLowerCase()]) || 'SEV3';
}

/** The value of a label, its name in any letter case (an exact match first). */
function labelValue(labels: Record<string, string>, name: string): string | undefined {
  if (labels[name] !== undefined) return labels[name];
  const key = Object.keys(labels).find((key) => key.toLowerCase() === name);
  return key === undefined ? undefined : labels[key];
}

function present(pairs: { from: string; value: string | undefined }[]) {
  return pairs.filter((pair): pair is { from: string; value: string } => pair.value !== undefined && pair.value.trim() !== '');
}

const title = (text: string) => text.trim().slice(0, ALERT_TITLE_MAX_LENGTH) || 'Alert';

/** Alertmanager's own fingerprint is a hash of the label set; this stands in when a sender omits it. */
function labelsFingerprint(labels: Record<string, string>): string {
  const canonical = Object.keys(labels)
    .sort()
    .map((name) => `${name}\u00ff${labels[name]}`)
    .join('\u00ff');
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** Times are never in the future (a sender's clock ahead of ours is read as now). */
const notAfter = (date: Date, now: Date) => (date > now ? now : date);

// --- Alertmanager and Grafana ----------------------------------------------------------------

/** A link, or none: Grafana sends "" when it has none. */
const optionalUrl = z.preprocess((value) => (value === '' ? null : value), ingestUrl);

const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

const labelSet = z.record(storableText(), storableText({ error: 'must be a string' }), { error: 'must be an object of strings' });

const alertmanagerAlert = z.object(
  {
    status: z.enum(['firing', 'resolved'], { error: 'must be "firing" or "resolved"' }),
    labels: labelSet,
    annotations: labelSet.nullish(),
    startsAt: storableTimestamp,
    // Alertmanager and Grafana write Go's zero time for "no end".
    endsAt: z.preprocess((value) => (value === GO_ZERO_TIME ? null : value), storableTimestamp.nullish()),
    generatorURL: optionalUrl,
    fingerprint: storableText()
      .min(1, 'must not be empty')
      .max(DEDUP_KEY_MAX_LENGTH, `must be at most ${DEDUP_KEY_MAX_LENGTH} characters`)
      .nullish(),
  },
  { error: 'must be an object' },
);

export const alertmanagerBodySchema = z.object(
  {
    groupKey: requiredText().min(1, 'must not be empty'),
    alerts: z.array(alertmanagerAlert, { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array') }),
  },
  { error: 'must be a JSON object' },
);

export type AlertmanagerBody = z.output<typeof alertmanagerBodySchema>;

/** Every invalid field is reported; unknown fields (Grafana's values, silenceURL, ...) are ignored. */
export function validateAlertmanagerBody(body: unknown): Validated<AlertmanagerBody> {
  return validateInput(alertmanagerBodySchema, body);
}

/**
 * The alerts of an Alertmanager (or Grafana) notification, as of `now`; an alert listed twice
 * (the same fingerprint) counts once, as its last listing says.
 */
export function alertmanagerGroup(body: AlertmanagerBody, now: Date): AlertGroup {
  const alerts = new Map<string, ReportedAlert>();
  for (const alert of body.alerts) {
    const annotations = alert.annotations ?? {};
    const startsAt = notAfter(new Date(alert.startsAt), now);
    const resolved = alert.status === 'resolved';
    // A resolved alert without a usable end ended when we heard of it.
    const reportedEnd = alert.endsAt ? new Date(alert.endsAt) : null;
    const fingerprint = alert.fingerprint ?? labelsFingerprint(alert.labels);
    alerts.set(fingerprint, {
      fingerprint,
      status: resolved ? 'RESOLVED' : 'FIRING',
      labels: alert.labels,
      annotations,
      startsAt,
      endsAt: !resolved ? null : reportedEnd && reportedEnd > startsAt ? notAfter(reportedEnd, now) : now,
      generatorUrl: alert.generatorURL || null,
      serviceNames: present(['service', 'app', 'job'].map((name) => ({ from: `label ${name}`, value: labelValue(alert.labels, name) }))),
      environment: labelValue(alert.labels, 'environment') ?? labelValue(alert.labels, 'env') ?? null,
      severity: severityOf(labelValue(alert.labels, 'severity')),
      title: title(annotations.summary ?? annotations.title ?? alert.labels.alertname ?? ''),
    });
  }
  return { groupKey: body.groupKey, alerts: [...alerts.values()] };
}

// --- PagerDuty Events API v2 -----------------------------------------------------------------

/** ISO 8601 as PagerDuty's own examples write it too: an offset without its colon (+0000). */
const pagerDutyTimestamp = z
  .string({ error: 'must be a string' })
  .transform((value) => value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
  .pipe(storableTimestamp)
  .meta({ format: 'date-time', description: 'ISO 8601 with a time zone; an offset without a colon (+0200) is taken too' });

const boundedText = (max: number) => requiredText().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const pagerDutyPayload = z.object(
  {
    summary: boundedText(1024),
    source: boundedText(255),
    severity: z.enum(['critical', 'error', 'warning', 'info'], { error: 'must be one of critical, error, warning, info' }),
    timestamp: pagerDutyTimestamp.nullish(),
    component: storableText().nullish(),
    group: storableText().nullish(),
    class: storableText().nullish(),
    custom_details: storableJson.optional(),
  },
  { error: (issue) => (issue.input === undefined ? 'is required for a trigger event' : 'must be an object') },
);

const pagerDutyLink = z.object({ href: ingestUrl, text: storableText().nullish() }, { error: 'must be an object' });

const pagerDutyFields = {
  routing_key: z.string().meta({ description: 'The alert source token (hlk_…)' }),
  event_action: z.enum(['trigger', 'acknowledge', 'resolve'], {
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be one of trigger, acknowledge, resolve'),
  }),
  dedup_key: boundedText(DEDUP_KEY_MAX_LENGTH).nullish(),
  client: storableText().nullish(),
  client_url: optionalUrl,
  links: z.array(pagerDutyLink, { error: 'must be an array' }).nullish(),
};

/** The Events API v2 body as documented: payload is required for a trigger, dedup_key for the others. */
export const pagerDutyEventSchema = z.object({ ...pagerDutyFields, payload: pagerDutyPayload.optional() }).meta({
  if: { properties: { event_action: { const: 'trigger' } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword, not a thenable
  then: { required: ['payload'], properties: { payload: { type: 'object' } } },
  else: { required: ['dedup_key'], properties: { dedup_key: { type: 'string', minLength: 1 } } },
});

const pagerDutyBody = z
  .object(
    // Read only for a trigger (PagerDuty ignores it otherwise): checked below.
    { ...pagerDutyFields, payload: z.unknown().optional() },
    { error: 'must be a JSON object' },
  )
  .superRefine((event, context) => {
    if (event.event_action !== 'trigger') {
      if (!event.dedup_key)
        context.addIssue({ code: 'custom', path: ['dedup_key'], message: `is required for ${event.event_action} events` });
      return;
    }
    const payload = pagerDutyPayload.safeParse(event.payload);
    for (const issue of payload.error?.issues ?? []) context.addIssue({ ...issue, code: 'custom', path: ['payload', ...issue.path] });
  });

export interface PagerDutyEvent {
  action: 'trigger' | 'acknowledge' | 'resolve';
  dedupKey: string;
  /** The alert of a trigger event. */
  alert: ReportedAlert | null;
}

function detailText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A PagerDuty event as of `now`. A trigger without dedup_key gets one, as PagerDuty makes one;
 * the alert's labels are PagerDuty's fields, its annotations the summary and the custom details.
 */
export function validatePagerDutyEvent(body: unknown, now: Date): Validated<PagerDutyEvent> {
  const validation = validateInput(pagerDutyBody, body);
  if (!validation.ok) return validation;
  const event = validation.value;
  const dedupKey = event.dedup_key || randomUUID().replaceAll('-', '');
  if (event.event_action !== 'trigger') return { ok: true, value: { action: event.event_action, dedupKey, alert: null } };
  const payload = pagerDutyPayload.parse(event.payload);
  const details =
    typeof payload.custom_details === 'object' && payload.custom_details !== null && !Array.isArray(payload.custom_details)
      ? Object.fromEntries(Object.entries(payload.custom_details).map(([name, value]) => [name, detailText(value)]))
      : payload.custom_details === undefined || payload.custom_details === null
        ? {}
        : { details: detailText(payload.custom_details) };
  const labels = Object.fromEntries(
    Object.entries({
      severity: payload.severity,
      source: payload.source,
      component: payload.component,
      group: payload.group,
      class: payload.class,
    }).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  return {
    ok: true,
    value: {
      action: 'trigger',
      dedupKey,
      alert: {
        fingerprint: dedupKey,
        status: 'FIRING',
        labels,
        annotations: { summary: payload.summary, ...details },
        startsAt: payload.timestamp ? notAfter(new Date(payload.timestamp), now) : now,
        endsAt: null,
        generatorUrl: event.client_url || event.links?.find((link) => link.href)?.href || null,
        serviceNames: present([
          { from: 'payload.component', value: payload.component ?? undefined },
          { from: 'payload.source', value: payload.source },
        ]),
        environment: labelValue(details, 'environment') ?? labelValue(details, 'env') ?? null,
        severity: severityOf(payload.severity),
        title: title(payload.summary),
      },
    },
  };
}
