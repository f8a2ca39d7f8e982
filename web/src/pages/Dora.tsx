// DORA's four keys for a service (or the whole organization) over a period, and a chart of
// its deploys: per day up to two weeks, per week beyond.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useClient, useQuery, type OperationResult } from 'urql';
import type { DeployTimesQuery, DeployTimesQueryVariables, DoraPerformance, DoraWeekFragment } from '../gql/graphql';
import { ErrorAlert, Loading, PageHeader, ServiceOptions, TableWrap } from '../components';
import { errorMessage } from '../errors';
import { formatPercent, formatSeconds } from '../format';
import { graphql } from '../gql';
import { SERVICE_OPTIONS } from './Deploys';

const PERIODS = [7, 14, 30, 90] as const;
/** The chart reads at most this many deploys (pages of 100). */
const CHART_MAX_PAGES = 10;

const DORA = graphql(`
  query Dora($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {
      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds
      bands { deploymentFrequency leadTimeForChanges changeFailureRate timeToRestore }
    }
  }
`);

graphql(`
  fragment DoraWeek on DoraMetrics {
    deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds
  }
`);

/** The four keys over each of the last 8 weeks (7-day windows up to now), in one request. */
const DORA_WEEKS = graphql(`
  query DoraWeeks(
    $serviceId: ID, $environment: String,
    $f0: DateTime!, $f1: DateTime!, $f2: DateTime!, $f3: DateTime!, $f4: DateTime!, $f5: DateTime!, $f6: DateTime!, $f7: DateTime!, $to: DateTime!
  ) {
    w0: dora(serviceId: $serviceId, environment: $environment, from: $f0, to: $f1) { ...DoraWeek }
    w1: dora(serviceId: $serviceId, environment: $environment, from: $f1, to: $f2) { ...DoraWeek }
    w2: dora(serviceId: $serviceId, environment: $environment, from: $f2, to: $f3) { ...DoraWeek }
    w3: dora(serviceId: $serviceId, environment: $environment, from: $f3, to: $f4) { ...DoraWeek }
    w4: dora(serviceId: $serviceId, environment: $environment, from: $f4, to: $f5) { ...DoraWeek }
    w5: dora(serviceId: $serviceId, environment: $environment, from: $f5, to: $f6) { ...DoraWeek }
    w6: dora(serviceId: $serviceId, environment: $environment, from: $f6, to: $f7) { ...DoraWeek }
    w7: dora(serviceId: $serviceId, environment: $environment, from: $f7, to: $to) { ...DoraWeek }
  }
`);
const TREND_WEEKS = 8;

const DORA_ENVIRONMENTS = graphql(`
  query DoraEnvironments {
    environments { name }
  }
`);

const DEFAULT_ENVIRONMENT = 'production';
const ALL_ENVIRONMENTS = '*';

const DEPLOY_TIMES = graphql(`
  query DeployTimes($serviceId: ID, $environment: String, $after: String) {
    deploys(first: 100, after: $after, serviceId: $serviceId, environment: $environment) {
      edges { node { id deployedAt } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

function dayKey(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
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

  // The period: `days` calendar days up to now; fixed while the filters stay the same.
  const period = useMemo(() => {
    const to = new Date();
    const from = startOfDay(new Date(to.getTime() - (days - 1) * 86_400_000));
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
        <ul className="keys" aria-label="The four keys" data-from={period.from.toISOString()} data-to={period.to.toISOString()}>
          <li className="card key">
            <h2>Deployment frequency</h2>
            <Band value={metrics.bands.deploymentFrequency} />
            <p className="key-value">
              {metrics.deploymentFrequencyPerDay.toFixed(2)} <span>per day</span>
            </p>
            {/* The chosen calendar days, today's hours so far included (the API's fractional `days` is 29.3 at 7 am). */}
            <p className="subtle">
              {metrics.deployCount} deploys in {days} days
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
            <p className="subtle">deploys that caused an incident</p>
          </li>
          <li className="card key">
            <h2>Time to restore</h2>
            <Band value={metrics.bands.timeToRestore} />
            <p className="key-value">{formatSeconds(metrics.timeToRestoreSeconds)}</p>
            <p className="subtle">median, incident start to resolution</p>
          </li>
        </ul>
      )}
      {chosen !== null && <WeeklyTrends serviceId={serviceId} environment={environment} to={period.to} />}
      {chosen !== null && <DeploysOverTime serviceId={serviceId} environment={environment} from={period.from} to={period.to} />}
    </>
  );
}

function DeploysOverTime({
  serviceId,
  environment,
  from,
  to,
}: {
  serviceId: string | null;
  environment: string | null;
  from: Date;
  to: Date;
}) {
  const client = useClient();
  const [state, setState] = useState<{ times: Date[]; truncated: boolean } | { error: string } | null>(null);

  useEffect(() => {
    let cancelled = false;
    setState(null);
    (async () => {
      const times: Date[] = [];
      let after: string | null = null;
      for (let page = 0; page < CHART_MAX_PAGES; page++) {
        const result: OperationResult<DeployTimesQuery, DeployTimesQueryVariables> = await client
          .query(DEPLOY_TIMES, { serviceId, environment, after }, { requestPolicy: 'network-only' })
          .toPromise();
        if (cancelled) return;
        if (result.error || !result.data) {
          setState({ error: errorMessage(result.error) ?? 'Could not read the deploys.' });
          return;
        }
        const { edges, pageInfo } = result.data.deploys;
        let older = false;
        for (const { node } of edges) {
          const at = new Date(node.deployedAt);
          if (at < from) older = true;
          else if (at < to) times.push(at);
        }
        if (older || !pageInfo.hasNextPage || !pageInfo.endCursor) {
          setState({ times, truncated: false });
          return;
        }
        after = pageInfo.endCursor;
      }
      setState({ times, truncated: true });
    })();
    return () => {
      cancelled = true;
    };
  }, [client, serviceId, environment, from, to]);

  const buckets = useMemo(() => {
    const list: Day[] = [];
    for (let day = startOfDay(from); day < to; day = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1)) {
      list.push({ key: dayKey(day), date: day, count: 0 });
    }
    if (state && 'times' in state) {
      const byKey = new Map(list.map((entry) => [entry.key, entry]));
      for (const time of state.times) {
        const entry = byKey.get(dayKey(time));
        if (entry) entry.count++;
      }
    }
    return groupDays(list, list.length > DAILY_BARS_UP_TO ? 7 : 1);
  }, [from, to, state]);
  const unit = buckets.some((bucket) => bucket.days.length > 1) ? 'week' : 'day';

  return (
    <section className="card chart" aria-labelledby="deploys-over-time">
      <h2 id="deploys-over-time">Deploys per {unit}</h2>
      {!state && <Loading what="Counting deploys" />}
      {state && 'error' in state && <ErrorAlert>{state.error}</ErrorAlert>}
      {state && 'times' in state && <BarChart buckets={buckets} unit={unit} />}
      {state && 'times' in state && state.truncated && <p className="help">Only the latest {CHART_MAX_PAGES * 100} deploys are counted.</p>}
    </section>
  );
}

interface Day {
  key: string;
  date: Date;
  count: number;
}

interface Bucket {
  days: Day[];
  count: number;
  /** "Nov 23", or "Nov 17 – 23" for several days. */
  label: string;
}

/** Up to this many days, one bar per day; longer periods get one bar per week (few deploys leave most days empty). */
const DAILY_BARS_UP_TO = 14;

const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** Buckets of `size` days counted back from the last day, so every bar but the oldest is whole. */
function groupDays(days: Day[], size: number): Bucket[] {
  const buckets: Bucket[] = [];
  for (let end = days.length; end > 0; end -= size) {
    const slice = days.slice(Math.max(0, end - size), end);
    const first = slice[0]!.date;
    const last = slice[slice.length - 1]!.date;
    buckets.unshift({
      days: slice,
      count: slice.reduce((sum, day) => sum + day.count, 0),
      label: slice.length === 1 ? dayLabel.format(first) : dayLabel.formatRange(first, last),
    });
  }
  return buckets;
}

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
  const dayCount = buckets.reduce((sum, bucket) => sum + bucket.days.length, 0);
  const dayWidth = width / dayCount;
  const max = Math.max(1, ...buckets.map((bucket) => bucket.count));
  const total = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  const busiest = buckets.reduce((best, bucket) => (bucket.count > best.count ? bucket : best), buckets[0]!);
  const summary =
    total === 0
      ? `No deploys in the last ${dayCount} days.`
      : `${total} deploys in ${dayCount} days; the busiest ${unit} was ${busiest.label} with ${busiest.count}.`;

  // Bars are as wide as the days they count (the oldest week may be shorter), less a gap.
  let offset = 0;
  const bars = buckets.map((bucket) => {
    const slot = bucket.days.length * dayWidth;
    const gap = Math.min(8, slot * 0.3);
    const bar = { bucket, x: offset * dayWidth + gap / 2, width: slot - gap };
    offset += bucket.days.length;
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
            <g key={bucket.days[0]!.key}>
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
  const x = (index: number) => 4 + (index * (width - 8)) / (values.length - 1);
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

/** The four keys week by week over the last 8 weeks: a sparkline each, and the numbers in a table. */
function WeeklyTrends({ serviceId, environment, to }: { serviceId: string | null; environment: string | null; to: Date }) {
  const bounds = useMemo(
    () => Array.from({ length: TREND_WEEKS + 1 }, (_, index) => new Date(to.getTime() - (TREND_WEEKS - index) * 7 * 86_400_000)),
    [to],
  );
  const [{ data, error }] = useQuery({
    query: DORA_WEEKS,
    variables: {
      serviceId,
      environment,
      f0: bounds[0]!.toISOString(),
      f1: bounds[1]!.toISOString(),
      f2: bounds[2]!.toISOString(),
      f3: bounds[3]!.toISOString(),
      f4: bounds[4]!.toISOString(),
      f5: bounds[5]!.toISOString(),
      f6: bounds[6]!.toISOString(),
      f7: bounds[7]!.toISOString(),
      to: bounds[8]!.toISOString(),
    },
  });
  const weeks: Week[] | null = data ? [data.w0, data.w1, data.w2, data.w3, data.w4, data.w5, data.w6, data.w7] : null;
  const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
  return (
    <section aria-labelledby="weekly-trends">
      <h2 id="weekly-trends">Weekly trends</h2>
      {error && <ErrorAlert error={error} />}
      {!weeks && !error && <Loading what="Computing the weeks" />}
      {weeks && (
        <>
          <ul className="trends">
            {TREND_KEYS.map((key) => {
              const values = weeks.map(key.value);
              return (
                <li key={key.name} className="card trend">
                  <h3>{key.name}</h3>
                  <Sparkline values={values} label={`${key.name}, week by week: ${values.map(key.text).join(', ')}`} />
                  <p className="subtle">this week: {key.text(values[values.length - 1]!)}</p>
                </li>
              );
            })}
          </ul>
          <TableWrap label="Weekly trends" className="trend-table">
            <thead>
              <tr>
                <th scope="col">Week from</th>
                {TREND_KEYS.map((key) => (
                  <th key={key.name} scope="col">
                    {key.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((week, index) => (
                <tr key={bounds[index]!.toISOString()} data-from={bounds[index]!.toISOString()} data-to={bounds[index + 1]!.toISOString()}>
                  <th scope="row">{day.format(bounds[index]!)}</th>
                  {TREND_KEYS.map((key) => (
                    <td key={key.name}>{key.text(key.value(week))}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </TableWrap>
        </>
      )}
    </section>
  );
}
