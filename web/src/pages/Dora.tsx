// DORA's four keys for a service (or the whole organization) over a period, and a chart of
// its deploys: per day up to two weeks, per week beyond.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useSearchParams } from 'react-router';
import { useClient, useQuery, type OperationResult } from 'urql';
import type { DeployTimesQuery, DeployTimesQueryVariables } from '../gql/graphql';
import { ErrorAlert, Loading, PageHeader, ServiceOptions } from '../components';
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
    }
  }
`);

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
  const environment = params.get('environment') || null;
  const days = Number(params.get('days')) || 30;
  const [{ data: options }] = useQuery({ query: SERVICE_OPTIONS });
  const [environmentDraft, setEnvironmentDraft] = useState(environment ?? '');
  useEffect(() => setEnvironmentDraft(environment ?? ''), [environment]);

  // The period: `days` calendar days up to now; fixed while the filters stay the same.
  const period = useMemo(() => {
    const to = new Date();
    const from = startOfDay(new Date(to.getTime() - (days - 1) * 86_400_000));
    return { from, to };
  }, [days, serviceId, environment]);
  const variables = { serviceId, environment, from: period.from.toISOString(), to: period.to.toISOString() };
  const [{ data, fetching, error }] = useQuery({ query: DORA, variables });

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const metrics = data?.dora;

  return (
    <>
      <PageHeader title="DORA metrics" />
      <form
        className="filters"
        role="search"
        aria-label="DORA period and scope"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter('environment', environmentDraft.trim());
        }}
      >
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
          <input id={`${id}-environment`} value={environmentDraft} placeholder="any" onChange={(e) => setEnvironmentDraft(e.target.value)} onBlur={() => environmentDraft.trim() !== (environment ?? '') && setFilter('environment', environmentDraft.trim())} />
        </div>
        <button type="submit">Apply</button>
      </form>
      {error && <ErrorAlert error={error} />}
      {!metrics && fetching && <Loading what="Computing the four keys" />}
      {metrics && (
        <ul className="keys" aria-label="The four keys">
          <li className="card key">
            <h2>Deployment frequency</h2>
            <p className="key-value">{metrics.deploymentFrequencyPerDay.toFixed(2)} <span>per day</span></p>
            {/* The chosen calendar days, today's hours so far included (the API's fractional `days` is 29.3 at 7 am). */}
            <p className="subtle">{metrics.deployCount} deploys in {days} days</p>
          </li>
          <li className="card key">
            <h2>Lead time for changes</h2>
            <p className="key-value">{formatSeconds(metrics.leadTimeForChangesSeconds)}</p>
            <p className="subtle">median, commit to deploy</p>
          </li>
          <li className="card key">
            <h2>Change failure rate</h2>
            <p className="key-value">{formatPercent(metrics.changeFailureRate)}</p>
            <p className="subtle">deploys that caused an incident</p>
          </li>
          <li className="card key">
            <h2>Time to restore</h2>
            <p className="key-value">{formatSeconds(metrics.timeToRestoreSeconds)}</p>
            <p className="subtle">median, incident start to resolution</p>
          </li>
        </ul>
      )}
      <DeploysOverTime serviceId={serviceId} environment={environment} from={period.from} to={period.to} />
    </>
  );
}

function DeploysOverTime({ serviceId, environment, from, to }: { serviceId: string | null; environment: string | null; from: Date; to: Date }) {
  const client = useClient();
  const [state, setState] = useState<{ times: Date[]; truncated: boolean } | { error: string } | null>(null);

  useEffect(() => {
    let cancelled = false;
    setState(null);
    (async () => {
      const times: Date[] = [];
      let after: string | null = null;
      for (let page = 0; page < CHART_MAX_PAGES; page++) {
        const result: OperationResult<DeployTimesQuery, DeployTimesQueryVariables> = await client.query(DEPLOY_TIMES, { serviceId, environment, after }, { requestPolicy: 'network-only' }).toPromise();
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
