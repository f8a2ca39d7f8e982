// An endpoint's deliveries over time: success rate, attempts and latency (p50, p95), by hour
// over the last 24 hours or by day over the last 14, drawn as small SVG charts with the numbers
// in a table beside them.
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { ErrorAlert, Loading, TableWrap } from '../components';
import { formatPercent } from '../format';
import { graphql } from '../gql';
import type { ChartInterval, EndpointChartQuery } from '../gql/graphql';

const ENDPOINT_CHART = graphql(`
  query EndpointChart($id: ID!, $interval: ChartInterval!, $from: DateTime!, $to: DateTime!) {
    webhookEndpoint(id: $id) {
      id
      chart(interval: $interval, from: $from, to: $to) { start deliveries succeeded failed successRate attempts latencyP50Ms latencyP95Ms }
    }
  }
`);

type Bucket = NonNullable<EndpointChartQuery['webhookEndpoint']>['chart'][number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const SPANS: Record<ChartInterval, { label: string; buckets: number; width: number }> = {
  HOUR: { label: 'Last 24 hours, by hour', buckets: 24, width: HOUR_MS },
  DAY: { label: 'Last 14 days, by day', buckets: 14, width: DAY_MS },
};

interface Series {
  name: string;
  className: string;
  values: (number | null)[];
}

/** A small chart of one or more series over the buckets: bars for the first when `bars`, lines otherwise. */
function MiniChart({
  title,
  series,
  max,
  bars,
  format,
}: {
  title: string;
  series: Series[];
  max: number;
  bars?: boolean;
  format(value: number): string;
}) {
  const width = 300;
  const height = 90;
  const count = series[0]!.values.length;
  const step = (width - 8) / count;
  const x = (index: number) => 4 + step * (index + 0.5);
  const y = (value: number) => height - 14 - (value / (max || 1)) * (height - 24);
  const last = series.map((line) => line.values.filter((value): value is number => value !== null).at(-1));
  return (
    <figure className="card mini-chart">
      <figcaption>
        <strong>{title}</strong>{' '}
        {series.map((line, index) => (
          <span key={line.name} className={`legend ${line.className}`}>
            {line.name}: {last[index] === undefined ? '—' : format(last[index]!)}
          </span>
        ))}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${title}: ${series.map((line) => `${line.name} ${line.values.map((value) => (value === null ? '—' : format(value))).join(', ')}`).join('; ')}`}
      >
        <line className="axis" x1={4} x2={width - 4} y1={height - 14} y2={height - 14} />
        <text className="tick" x={4} y={10}>
          {format(max)}
        </text>
        {series.map((line, lineIndex) =>
          bars && lineIndex === 0 ? (
            line.values.map((value, index) =>
              value ? (
                <rect
                  key={index}
                  className={line.className}
                  x={x(index) - step * 0.35}
                  width={step * 0.7}
                  y={y(value)}
                  height={height - 14 - y(value)}
                />
              ) : null,
            )
          ) : (
            <g key={line.name} className={line.className}>
              <polyline
                points={line.values
                  .map((value, index) => (value === null ? '' : `${x(index).toFixed(1)},${y(value).toFixed(1)}`))
                  .filter(Boolean)
                  .join(' ')}
              />
              {line.values.map((value, index) => (value === null ? null : <circle key={index} cx={x(index)} cy={y(value)} r={1.8} />))}
            </g>
          ),
        )}
      </svg>
    </figure>
  );
}

export function EndpointCharts({ endpointId }: { endpointId: string }) {
  const [interval, setChartInterval] = useState<ChartInterval>('HOUR');
  const span = SPANS[interval];
  // The window: whole buckets up to the current one, fixed while the choice stays the same.
  const window = useMemo(() => {
    const to = new Date();
    const from = new Date(Math.floor(to.getTime() / span.width) * span.width - (span.buckets - 1) * span.width);
    return { from: from.toISOString(), to: to.toISOString() };
  }, [span]);
  const [{ data, error }] = useQuery({ query: ENDPOINT_CHART, variables: { id: endpointId, interval, ...window } });
  const buckets: Bucket[] | undefined = data?.webhookEndpoint?.chart;
  const label = new Intl.DateTimeFormat(
    undefined,
    interval === 'HOUR' ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric' },
  );
  const milliseconds = (value: number) => `${Math.round(value)} ms`;
  return (
    <section aria-labelledby="endpoint-charts" className="endpoint-charts" data-from={window.from} data-to={window.to}>
      <div className="section-header">
        <h2 id="endpoint-charts">Over time</h2>
        <div className="button-row tight" role="group" aria-label="Chart period">
          {(Object.keys(SPANS) as ChartInterval[]).map((value) => (
            <button key={value} type="button" className="small" aria-pressed={interval === value} onClick={() => setChartInterval(value)}>
              {SPANS[value].label}
            </button>
          ))}
        </div>
      </div>
      {error && <ErrorAlert error={error} />}
      {!buckets && !error && <Loading what="Loading the charts" />}
      {buckets && (
        <>
          <div className="mini-charts">
            <MiniChart
              title="Success rate"
              series={[{ name: 'finished deliveries', className: 'series-ok', values: buckets.map((bucket) => bucket.successRate) }]}
              max={1}
              format={(value) => formatPercent(value)}
            />
            <MiniChart
              title="Attempts"
              bars
              series={[{ name: 'attempts', className: 'series-bar', values: buckets.map((bucket) => bucket.attempts) }]}
              max={Math.max(1, ...buckets.map((bucket) => bucket.attempts))}
              format={(value) => String(Math.round(value))}
            />
            <MiniChart
              title="Latency"
              series={[
                { name: 'p50', className: 'series-p50', values: buckets.map((bucket) => bucket.latencyP50Ms) },
                { name: 'p95', className: 'series-p95', values: buckets.map((bucket) => bucket.latencyP95Ms) },
              ]}
              max={Math.max(1, ...buckets.map((bucket) => bucket.latencyP95Ms ?? 0))}
              format={milliseconds}
            />
          </div>
          <details className="chart-numbers">
            <summary>
              The numbers ({span.label.toLowerCase()}, UTC {interval === 'HOUR' ? 'hours' : 'days'})
            </summary>
            <TableWrap label="Deliveries over time">
              <thead>
                <tr>
                  <th scope="col">{interval === 'HOUR' ? 'Hour' : 'Day'}</th>
                  <th scope="col">Deliveries</th>
                  <th scope="col">Success rate</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">p50</th>
                  <th scope="col">p95</th>
                </tr>
              </thead>
              <tbody>
                {buckets.map((bucket) => (
                  <tr key={bucket.start} data-start={bucket.start}>
                    <th scope="row">{label.format(new Date(bucket.start))}</th>
                    <td>{bucket.deliveries}</td>
                    <td>{formatPercent(bucket.successRate)}</td>
                    <td>{bucket.attempts}</td>
                    <td>{bucket.latencyP50Ms === null ? '—' : milliseconds(bucket.latencyP50Ms)}</td>
                    <td>{bucket.latencyP95Ms === null ? '—' : milliseconds(bucket.latencyP95Ms)}</td>
                  </tr>
                ))}
              </tbody>
            </TableWrap>
          </details>
        </>
      )}
    </section>
  );
}
