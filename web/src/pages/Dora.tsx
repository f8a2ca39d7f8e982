// DORA's four keys for a service (or the whole organization) over a period, and a chart of
// deploys per day.
import { useEffect, useId, useMemo, useState } from 'react';
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
            <p className="subtle">{metrics.deployCount} deploys in {Math.round(metrics.days)} days</p>
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
      <DeploysPerDay serviceId={serviceId} environment={environment} from={period.from} to={period.to} />
    </>
  );
}

function DeploysPerDay({ serviceId, environment, from, to }: { serviceId: string | null; environment: string | null; from: Date; to: Date }) {
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

  const days = useMemo(() => {
    const list: { key: string; date: Date; count: number }[] = [];
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
    return list;
  }, [from, to, state]);

  return (
    <section className="card chart" aria-labelledby="deploys-per-day">
      <h2 id="deploys-per-day">Deploys per day</h2>
      {!state && <Loading what="Counting deploys" />}
      {state && 'error' in state && <ErrorAlert>{state.error}</ErrorAlert>}
      {state && 'times' in state && <BarChart days={days} />}
      {state && 'times' in state && state.truncated && <p className="help">Only the latest {CHART_MAX_PAGES * 100} deploys are counted.</p>}
    </section>
  );
}

const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

function BarChart({ days }: { days: { key: string; date: Date; count: number }[] }) {
  const max = Math.max(1, ...days.map((day) => day.count));
  const total = days.reduce((sum, day) => sum + day.count, 0);
  const width = 640;
  const height = 160;
  const top = 14;
  const bottom = 22;
  const slot = width / days.length;
  const barWidth = Math.max(2, slot * 0.7);
  const busiest = days.reduce((best, day) => (day.count > best.count ? day : best), days[0]!);
  const summary =
    total === 0
      ? `No deploys in the last ${days.length} days.`
      : `${total} deploys in ${days.length} days; the busiest day was ${dayLabel.format(busiest.date)} with ${busiest.count}.`;
  const labelEvery = Math.ceil(days.length / 7);
  return (
    <figure className="bar-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
        <line x1={0} x2={width} y1={height - bottom} y2={height - bottom} className="axis" />
        {days.map((day, index) => {
          const barHeight = ((height - top - bottom) * day.count) / max;
          const x = index * slot + (slot - barWidth) / 2;
          return (
            <g key={day.key}>
              <rect x={x} y={height - bottom - barHeight} width={barWidth} height={barHeight} className="bar">
                <title>{`${dayLabel.format(day.date)}: ${day.count} deploy${day.count === 1 ? '' : 's'}`}</title>
              </rect>
              {day.count > 0 && days.length <= 31 && (
                <text x={x + barWidth / 2} y={height - bottom - barHeight - 3} className="bar-value" textAnchor="middle">
                  {day.count}
                </text>
              )}
              {(index % labelEvery === 0 || index === days.length - 1) && (
                <text x={x + barWidth / 2} y={height - 6} className="tick" textAnchor="middle">
                  {dayLabel.format(day.date)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>{summary}</figcaption>
    </figure>
  );
}
