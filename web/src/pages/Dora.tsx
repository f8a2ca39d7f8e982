// DORA's four keys for a service (or the whole organization) over a period, and a chart of
// its deploys: per day up to two weeks, per week beyond. The period is the last N × 24 hours;
// days and weeks are the API's (UTC days, ISO weeks from Monday 00:00 UTC, cut to the period),
// so every number on the page is one the API gives for the same bounds.
import { useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import type { DoraPerformance, DoraWeekFragment } from '../gql/graphql';
import { Badge, ErrorAlert, Loading, PageHeader, ServiceOptions, TableWrap } from '../components';
import { formatDateTime, formatPercent, formatSeconds, shortSha } from '../format';
import { graphql } from '../gql';
import { SERVICE_OPTIONS } from './Deploys';

const PERIODS = [7, 14, 30, 90] as const;
const MS_PER_DAY = 86_400_000;

graphql(`
  fragment DoraWeek on DoraMetrics {
    from to deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds
  }
`);

/** The period's keys and the same for each ISO week that overlaps it, in one request. */
const DORA = graphql(`
  query Dora($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {
      from to deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds
      failedDeployCount rolledBackCount judgedCausedCount topSuspectCount
      bands { deploymentFrequency leadTimeForChanges changeFailureRate timeToRestore }
      byWeek { ...DoraWeek }
    }
  }
`);

/** The period's deploys per UTC day, for the chart of short periods. */
const DORA_DAYS = graphql(`
  query DoraDays($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {
      byDay { from to deployCount }
    }
  }
`);

const DORA_ENVIRONMENTS = graphql(`
  query DoraEnvironments {
    environments { name }
  }
`);

const DEFAULT_ENVIRONMENT = 'production';
const ALL_ENVIRONMENTS = '*';

/** What the four keys count, for the same period: failed deploys, restored incidents, and each service's keys. */
const DORA_DRILL_DOWNS = graphql(`
  query DoraDrillDowns($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {
      failedDeploys(first: 100) { reason deploy { id commitSha version environment deployedAt service { id name } } }
      restoreIncidents(first: 100) { id title severity environment startedAt resolvedAt service { id name } }
      byService {
        service { id name }
        keys { deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate failedDeployCount timeToRestoreSeconds }
      }
    }
  }
`);

const FAILURE_REASON = {
  ROLLED_BACK: 'rolled back',
  JUDGED_CAUSED: 'judged CAUSED for an incident',
  TOP_SUSPECT: 'top suspect of an incident, no verdict',
} as const;

/** Dates as the API cuts days and weeks: in UTC. */
const utcDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const utcDayTime = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});

/** "Nov 24 – 30" for a whole week, "Nov 29" for a whole day; a piece cut by the period gives its cut bound's time. */
function pieceLabel(piece: { from: string; to: string }): string {
  const from = new Date(piece.from);
  const to = new Date(piece.to);
  const whole = (time: Date) => time.getTime() % MS_PER_DAY === 0;
  const first = whole(from) ? utcDay.format(from) : utcDayTime.format(from);
  // The last day the piece touches: a bound at midnight ends the day before.
  const lastDay = new Date(to.getTime() - (whole(to) ? MS_PER_DAY : 0));
  const last = whole(to) ? utcDay.format(lastDay) : utcDayTime.format(to);
  return first === last || (whole(from) && whole(to) && to.getTime() - from.getTime() === MS_PER_DAY) ? first : `${first} – ${last}`;
}

export function DoraPage() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const serviceId = params.get('service') || null;
  const days = Number(params.get('days')) || 30;
  const [{ data: options }] = useQuery({ query: SERVICE_OPTIONS });
  const [{ data: environments }] = useQuery({ query: DORA_ENVIRONMENTS });
  const known = environments?.environments.map((environment) => environment.name);
  // Production by default when there is one: DORA's keys describe what users get, and staging or
  // test deploys would only dilute them. `*` in the address: every environment.
  const chosen =
    params.get('environment') ?? (known ? (known.includes(DEFAULT_ENVIRONMENT) ? DEFAULT_ENVIRONMENT : ALL_ENVIRONMENTS) : null);
  const environment = chosen === ALL_ENVIRONMENTS ? null : chosen;

  // The period: the last `days` × 24 hours up to now, as the API counts it; fixed while the filters stay the same.
  const period = useMemo(() => {
    const to = new Date();
    const from = new Date(to.getTime() - days * MS_PER_DAY);
    return { from, to };
  }, [days, serviceId, environment]);
  const variables = { serviceId, environment, from: period.from.toISOString(), to: period.to.toISOString() };
  // Nothing is computed before the default environment is known.
  const [{ data, fetching, error }] = useQuery({ query: DORA, variables, pause: chosen === null });

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const metrics = data?.dora;

  return (
    <>
      <PageHeader title="DORA metrics">
        <Link to="/environments">Environments and aliases</Link>
      </PageHeader>
      <form className="filters" role="search" aria-label="DORA period and scope" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={`${id}-service`}>Service</label>
          <select id={`${id}-service`} value={serviceId ?? ''} onChange={(e) => setFilter('service', e.target.value)}>
            <ServiceOptions none="Whole organization" services={options?.services.edges} />
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-days`}>Period</label>
          <select id={`${id}-days`} value={days} onChange={(e) => setFilter('days', e.target.value)}>
            {PERIODS.map((value) => (
              <option key={value} value={value}>
                Last {value} days
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-environment`}>Environment</label>
          <select
            id={`${id}-environment`}
            value={chosen ?? ''}
            onChange={(e) => setFilter('environment', e.target.value)}
            disabled={!known}
          >
            <option value={ALL_ENVIRONMENTS}>All environments</option>
            {known?.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
            {chosen && chosen !== ALL_ENVIRONMENTS && known && !known.includes(chosen) && (
              <option value={chosen}>{chosen} (no deploys)</option>
            )}
          </select>
        </div>
      </form>
      {error && <ErrorAlert error={error} />}
      {!metrics && fetching && <Loading what="Computing the four keys" />}
      {metrics && (
        <p className="help" data-testid="dora-period">
          From {utcDayTime.format(new Date(metrics.from))} to {utcDayTime.format(new Date(metrics.to))} UTC ({days} × 24 hours). Days and
          weeks are UTC: a week runs from Monday 00:00 UTC, and the first and last are cut to the period.
        </p>
      )}
      {metrics && (
        <ul className="keys" aria-label="The four keys" data-from={metrics.from} data-to={metrics.to}>
          <li className="card key">
            <h2>Deployment frequency</h2>
            <Band value={metrics.bands.deploymentFrequency} />
            <p className="key-value">
              {metrics.deploymentFrequencyPerDay.toFixed(2)} <span>per day</span>
            </p>
            <p className="subtle">
              {metrics.deployCount} deploys in {metrics.days} days
            </p>
          </li>
          <li className="card key">
            <h2>Lead time for changes</h2>
            <Band value={metrics.bands.leadTimeForChanges} />
            <p className="key-value">{formatSeconds(metrics.leadTimeForChangesSeconds)}</p>
            <p className="subtle">median, commit to deploy</p>
          </li>
          <li className="card key">
            <h2>Change failure rate</h2>
            <Band value={metrics.bands.changeFailureRate} />
            <p className="key-value">{formatPercent(metrics.changeFailureRate)}</p>
            <p className="subtle" data-testid="failure-definition">
              {metrics.failedDeployCount} of {metrics.deployCount} deploys failed: {metrics.rolledBackCount} rolled back,{' '}
              {metrics.judgedCausedCount} judged CAUSED for an incident, {metrics.topSuspectCount} top suspect of an incident without a
              verdict
            </p>
            <p className="help">
              A deploy fails when a later deploy rolled it back, when someone judged it CAUSED for an incident, or when it was an incident's
              top suspect and nobody dismissed it or named another cause. Each counts once, in that order.
            </p>
          </li>
          <li className="card key">
            <h2>Time to restore</h2>
            <Band value={metrics.bands.timeToRestore} />
            <p className="key-value">{formatSeconds(metrics.timeToRestoreSeconds)}</p>
            <p className="subtle">median, incident start to resolution</p>
          </li>
        </ul>
      )}
      {metrics && <WeeklyTrends weeks={metrics.byWeek} />}
      {metrics && <DrillDowns variables={variables} />}
      {metrics && (
        <DeploysOverTime weeks={metrics.byWeek} daily={days <= DAILY_BARS_UP_TO ? { ...variables, serviceId, environment } : null} />
      )}
    </>
  );
}

/** The rows behind the keys: which deploys failed and why, which incidents were restored, and the keys of each service. */
function DrillDowns({ variables }: { variables: { serviceId: string | null; environment: string | null; from: string; to: string } }) {
  const [{ data, error }] = useQuery({ query: DORA_DRILL_DOWNS, variables });
  if (error) return <ErrorAlert error={error} />;
  if (!data) return <Loading what="Listing what the keys count" />;
  const { failedDeploys, restoreIncidents, byService } = data.dora;
  return (
    <>
      <section aria-labelledby="dora-by-service">
        <h2 id="dora-by-service">By service</h2>
        <TableWrap label="The four keys by service">
          <thead>
            <tr>
              <th scope="col">Service</th>
              <th scope="col">Deploys</th>
              <th scope="col">Per day</th>
              <th scope="col">Lead time</th>
              <th scope="col">Failure rate</th>
              <th scope="col">Restore time</th>
            </tr>
          </thead>
          <tbody>
            {byService.map(({ service, keys }) => (
              <tr key={service.id} data-service={service.id}>
                <th scope="row">
                  <Link to={`/dora?service=${service.id}&environment=${variables.environment ?? ALL_ENVIRONMENTS}`}>{service.name}</Link>
                </th>
                <td>{keys.deployCount}</td>
                <td>{keys.deploymentFrequencyPerDay.toFixed(2)}</td>
                <td>{formatSeconds(keys.leadTimeForChangesSeconds)}</td>
                <td>
                  {formatPercent(keys.changeFailureRate)}
                  {keys.deployCount > 0 && <span className="subtle"> ({keys.failedDeployCount} failed)</span>}
                </td>
                <td>{formatSeconds(keys.timeToRestoreSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      </section>
      <section aria-labelledby="dora-failed-deploys">
        <h2 id="dora-failed-deploys">Failed deploys</h2>
        {failedDeploys.length === 0 ? (
          <p className="subtle">No deploy of the period counts as failed.</p>
        ) : (
          <TableWrap label="Failed deploys">
            <thead>
              <tr>
                <th scope="col">Deploy</th>
                <th scope="col">Service</th>
                <th scope="col">Environment</th>
                <th scope="col">Deployed</th>
                <th scope="col">Counted as failed because</th>
              </tr>
            </thead>
            <tbody>
              {failedDeploys.map(({ reason, deploy }) => (
                <tr key={deploy.id} data-deploy={deploy.id}>
                  <td>
                    <Link to={`/deploys/${deploy.id}`}>
                      <span className="mono">{shortSha(deploy.commitSha)}</span>
                      {deploy.version ? ` · ${deploy.version}` : ''}
                    </Link>
                  </td>
                  <td>{deploy.service.name}</td>
                  <td>{deploy.environment ?? '—'}</td>
                  <td>{formatDateTime(deploy.deployedAt)}</td>
                  <td data-reason={reason}>{FAILURE_REASON[reason]}</td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
        {failedDeploys.length === 100 && <p className="help">The latest 100 are listed.</p>}
      </section>
      <section aria-labelledby="dora-restore-incidents">
        <h2 id="dora-restore-incidents">Incidents behind the restore time</h2>
        {restoreIncidents.length === 0 ? (
          <p className="subtle">No incident was resolved in the period.</p>
        ) : (
          <TableWrap label="Incidents counted toward time to restore">
            <thead>
              <tr>
                <th scope="col">Incident</th>
                <th scope="col">Service</th>
                <th scope="col">Started</th>
                <th scope="col">Resolved</th>
                <th scope="col">Restore time</th>
              </tr>
            </thead>
            <tbody>
              {restoreIncidents.map((incident) => (
                <tr key={incident.id} data-incident={incident.id}>
                  <td>
                    <Badge value={incident.severity} /> <Link to={`/incidents/${incident.id}`}>{incident.title}</Link>
                  </td>
                  <td>{incident.service.name}</td>
                  <td>{formatDateTime(incident.startedAt)}</td>
                  <td>{formatDateTime(incident.resolvedAt)}</td>
                  <td>{formatSeconds((Date.parse(incident.resolvedAt!) - Date.parse(incident.startedAt)) / 1000)}</td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
        {restoreIncidents.length === 100 && <p className="help">The latest 100 resolved are listed.</p>}
      </section>
    </>
  );
}

/** Deploys per UTC day (periods up to two weeks) or per ISO week, as the API counts them. */
function DeploysOverTime({
  weeks,
  daily,
}: {
  weeks: readonly Piece[];
  daily: { serviceId: string | null; environment: string | null; from: string; to: string } | null;
}) {
  const [{ data, error }] = useQuery({ query: DORA_DAYS, variables: daily ?? { from: '', to: '' }, pause: daily === null });
  const pieces = daily ? data?.dora.byDay : weeks;
  const unit = daily ? 'day' : 'week';
  const buckets = useMemo(() => pieces?.map((piece) => ({ ...piece, count: piece.deployCount, label: pieceLabel(piece) })), [pieces]);
  return (
    <section className="card chart" aria-labelledby="deploys-over-time">
      <h2 id="deploys-over-time">Deploys per {unit} (UTC)</h2>
      {error && <ErrorAlert error={error} />}
      {!buckets && !error && <Loading what="Counting deploys" />}
      {buckets && <BarChart buckets={buckets} unit={unit} />}
    </section>
  );
}

/** A day or week of the period, as the API cut it. */
interface Piece {
  from: string;
  to: string;
  deployCount: number;
}

interface Bucket {
  from: string;
  to: string;
  count: number;
  /** "Nov 23", or "Nov 17 – 23" for a week. */
  label: string;
}

/** Up to this many days, one bar per day; longer periods get one bar per week (few deploys leave most days empty). */
const DAILY_BARS_UP_TO = 14;

/** The figure's width in CSS pixels, so the chart is drawn at its real size and its text is never scaled down. */
function useWidth(element: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const target = element.current;
    if (!target) return;
    setWidth(target.clientWidth || fallback);
    const observer = new ResizeObserver(([entry]) => entry && setWidth(Math.round(entry.contentRect.width) || fallback));
    observer.observe(target);
    return () => observer.disconnect();
  }, [element, fallback]);
  return width;
}

const TICK_FONT_PX = 12;
/** A generous guess of a tick label's width (average glyph of a 12 px sans-serif font is under 7 px). */
const tickWidth = (text: string) => text.length * 7;
const TICK_GAP = 8;

function BarChart({ buckets, unit }: { buckets: Bucket[]; unit: 'day' | 'week' }) {
  const figure = useRef<HTMLElement>(null);
  const width = useWidth(figure, 640);
  const height = 180;
  const top = 18;
  const bottom = TICK_FONT_PX + 14;
  const durationOf = (bucket: Bucket) => Date.parse(bucket.to) - Date.parse(bucket.from);
  const duration = buckets.reduce((sum, bucket) => sum + durationOf(bucket), 0);
  const msWidth = width / duration;
  const dayCount = Math.round(duration / MS_PER_DAY);
  const max = Math.max(1, ...buckets.map((bucket) => bucket.count));
  const total = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  const busiest = buckets.reduce((best, bucket) => (bucket.count > best.count ? bucket : best), buckets[0]!);
  const summary =
    total === 0
      ? `No deploys in the last ${dayCount} days.`
      : `${total} deploys in ${dayCount} days; the busiest ${unit} was ${busiest.label} with ${busiest.count}.`;

  // Bars are as wide as the time they count (the first and last may be cut by the period), less a gap.
  let offset = 0;
  const bars = buckets.map((bucket) => {
    const slot = durationOf(bucket) * msWidth;
    const gap = Math.min(8, slot * 0.3);
    const bar = { bucket, x: offset * msWidth + gap / 2, width: Math.max(1, slot - gap) };
    offset += durationOf(bucket);
    return bar;
  });
  // A tick under a bar when its label fits whole inside the chart without touching its
  // neighbour; placed from the newest bar back, so the recent ones are the ones labelled.
  const ticks: { x: number; text: string }[] = [];
  for (const bar of [...bars].reverse()) {
    const text = bar.bucket.label;
    const half = tickWidth(text) / 2;
    const x = Math.min(Math.max(bar.x + bar.width / 2, half), width - half);
    const next = ticks.at(-1);
    if (next && x + half + TICK_GAP > next.x - tickWidth(next.text) / 2) continue;
    ticks.push({ x, text });
  }

  return (
    <figure className="bar-chart" ref={figure}>
      <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={summary}>
        <line x1={0} x2={width} y1={height - bottom} y2={height - bottom} className="axis" />
        {bars.map(({ bucket, x, width: barWidth }) => {
          const barHeight = ((height - top - bottom) * bucket.count) / max;
          return (
            <g key={bucket.from}>
              <rect x={x} y={height - bottom - barHeight} width={barWidth} height={barHeight} className="bar">
                <title>{`${bucket.label}: ${bucket.count} deploy${bucket.count === 1 ? '' : 's'}`}</title>
              </rect>
              {bucket.count > 0 && (
                <text x={x + barWidth / 2} y={height - bottom - barHeight - 4} className="bar-value" textAnchor="middle">
                  {bucket.count}
                </text>
              )}
            </g>
          );
        })}
        {ticks.map((tick) => (
          <text key={tick.text} x={tick.x} y={height - 6} className="tick" textAnchor="middle">
            {tick.text}
          </text>
        ))}
      </svg>
      <figcaption>{summary}</figcaption>
    </figure>
  );
}

const BAND_LABEL = { ELITE: 'Elite', HIGH: 'High', MEDIUM: 'Medium', LOW: 'Low' } as const;

/** The DORA report's cluster of a key, or nothing without data. */
function Band({ value }: { value: DoraPerformance | null | undefined }) {
  if (!value) return <p className="band band-none">no data</p>;
  return (
    <p
      className={`band band-${value.toLowerCase()}`}
      data-band={value}
      title="Performance cluster of the DORA report (State of DevOps 2023)"
    >
      {BAND_LABEL[value]}
    </p>
  );
}

type Week = DoraWeekFragment;

const TREND_KEYS: { name: string; value(week: Week): number | null; text(value: number | null): string }[] = [
  { name: 'Deploys', value: (week) => week.deployCount, text: (value) => String(value ?? 0) },
  { name: 'Lead time', value: (week) => week.leadTimeForChangesSeconds, text: formatSeconds },
  // Shorter names than the keys' own headings above, so that each heading names one thing.
  { name: 'Failure rate', value: (week) => week.changeFailureRate, text: (value) => formatPercent(value) },
  { name: 'Restore time', value: (week) => week.timeToRestoreSeconds, text: formatSeconds },
];

/** A line over the weeks that have a value (gaps where a week has none), in a small SVG. */
function Sparkline({ values, label }: { values: (number | null)[]; label: string }) {
  const width = 160;
  const height = 36;
  const known = values.filter((value): value is number => value !== null);
  const max = Math.max(...known, 0) || 1;
  const x = (index: number) => 4 + (index * (width - 8)) / (values.length - 1 || 1);
  const y = (value: number) => height - 4 - (value / max) * (height - 8);
  const points = values.map((value, index) => (value === null ? null : `${x(index).toFixed(1)},${y(value).toFixed(1)}`));
  const segments: string[][] = [[]];
  for (const point of points) {
    if (point === null) segments.push([]);
    else segments[segments.length - 1]!.push(point);
  }
  return (
    <svg className="sparkline" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      {segments
        .filter((segment) => segment.length > 1)
        .map((segment, index) => (
          <polyline key={index} points={segment.join(' ')} />
        ))}
      {points.map((point, index) => point && <circle key={index} cx={point.split(',')[0]} cy={point.split(',')[1]} r={2} />)}
    </svg>
  );
}

/** The four keys week by week (the ISO weeks that overlap the period): a sparkline each, and the numbers in a table. */
function WeeklyTrends({ weeks }: { weeks: readonly Week[] }) {
  return (
    <section aria-labelledby="weekly-trends">
      <h2 id="weekly-trends">Weekly trends</h2>
      <ul className="trends">
        {TREND_KEYS.map((key) => {
          const values = weeks.map(key.value);
          return (
            <li key={key.name} className="card trend">
              <h3>{key.name}</h3>
              <Sparkline values={values} label={`${key.name}, week by week: ${values.map(key.text).join(', ')}`} />
              <p className="subtle">this week: {key.text(values[values.length - 1] ?? null)}</p>
            </li>
          );
        })}
      </ul>
      <TableWrap label="Weekly trends" className="trend-table">
        <thead>
          <tr>
            <th scope="col">Week (UTC)</th>
            {TREND_KEYS.map((key) => (
              <th key={key.name} scope="col">
                {key.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.from} data-from={week.from} data-to={week.to}>
              <th scope="row">{pieceLabel(week)}</th>
              {TREND_KEYS.map((key) => (
                <td key={key.name}>{key.text(key.value(week))}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </TableWrap>
    </section>
  );
}
