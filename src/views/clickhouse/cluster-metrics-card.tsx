// The cluster's metrics (spec 001 §3 Cluster metrics): totals and the time series bytesPerSecond,
// writtenRowsPerSecond, readRowsPerSecond, averageQueryTime and averageQueryMemory read from the servers' system
// tables (GET clusters/{name}/metrics), over a chosen range, filtered by node and database, drawn with uPlot.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { Alert } from '../../components/ui/alert';
import { Card } from '../../components/ui/card';
import { Field, NativeSelect } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { getClusterMetadata, getClusterMetrics, type Cluster } from '../../services/clickhouse';

/** How often the metrics and the available space are read again while the page is open. */
export const METRICS_REFRESH_MS = 10_000;

const RANGES = [
  { label: 'Last 15 minutes', seconds: 900 },
  { label: 'Last hour', seconds: 3600 },
  { label: 'Last 6 hours', seconds: 21_600 },
  { label: 'Last 24 hours', seconds: 86_400 },
] as const;

const SERIES = [
  { key: 'bytesPerSecond', title: 'Bytes per second' },
  { key: 'writtenRowsPerSecond', title: 'Written rows per second' },
  { key: 'readRowsPerSecond', title: 'Read rows per second' },
  { key: 'averageQueryTime', title: 'Average query time (ms)' },
  { key: 'averageQueryMemory', title: 'Average query memory (bytes)' },
] as const;

type Point = { time: number } & Record<(typeof SERIES)[number]['key'], number>;

function Chart({ title, points, field, from, to }: { title: string; points: readonly Point[]; field: (typeof SERIES)[number]['key']; from: number; to: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const width = Math.max(280, ref.current.clientWidth || 480);
    const plot = new uPlot(
      { title, width, height: 180, scales: { x: { time: true, range: [from, to] } }, series: [{}, { label: title, stroke: '#3b82f6', width: 2, points: { show: true } }], axes: [{}, { size: 70 }] },
      [points.map((p) => p.time), points.map((p) => p[field])],
      ref.current,
    );
    return () => plot.destroy();
  }, [title, points, field, from, to]);
  return <div ref={ref} role="img" aria-label={`${title} chart`} />;
}

/**
 * The metrics of a cluster over the last `range` seconds. The available-space card reads the same query with the
 * defaults (last hour, every node and database), so the page sends one request per refresh, not one per card.
 */
export function clusterMetricsQuery(projectId: number, clusterName: string, range = 3600, node = '', database = '') {
  return {
    queryKey: ['clickhouse', 'metrics', projectId, clusterName, range, node, database],
    queryFn: async () => {
      const end = Math.floor(Date.now() / 1000);
      const data = await getClusterMetrics(projectId, clusterName, { start: end - range, end, nodes: node ? [node] : [], databases: database ? [database] : [] });
      return { ...data, from: end - range, to: end };
    },
    staleTime: 10_000,
    // Live: the range slides and new queries show up without a reload.
    refetchInterval: METRICS_REFRESH_MS,
    retry: false,
  };
}

export function ClusterMetricsCard({ projectId, cluster }: { projectId: number; cluster: Cluster }) {
  const [range, setRange] = useState<number>(3600);
  const [node, setNode] = useState('');
  const [database, setDatabase] = useState('');
  const metadata = useQuery({ queryKey: ['clickhouse', 'metadata', projectId, cluster.name], queryFn: () => getClusterMetadata(projectId, cluster.name), staleTime: 10_000, retry: false });
  const metrics = useQuery(clusterMetricsQuery(projectId, cluster.name, range, node, database));
  const hosts = [...new Set((metadata.data?.nodes ?? []).map((n) => n.host))];
  return (
    <Card title="Metrics">
      <Field label="Time range">
        <NativeSelect value={range} onChange={(e) => setRange(Number(e.target.value))}>
          {RANGES.map((r) => (
            <option key={r.seconds} value={r.seconds}>
              {r.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Node">
        <NativeSelect value={node} onChange={(e) => setNode(e.target.value)}>
          <option value="">All nodes</option>
          {hosts.map((h) => (
            <option key={h} value={h}>
              {h}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Database">
        <NativeSelect value={database} onChange={(e) => setDatabase(e.target.value)}>
          <option value="">All databases</option>
          {(metadata.data?.databases ?? []).map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {metrics.isLoading && <Spinner label="Loading the metrics" />}
      {metrics.isError && <Alert status="error" title="We encountered an error while fetching some data.">Please reload the page, and contact support if the problem persists.</Alert>}
      {metrics.data && (
        <>
          <p>
            Total tables: {metrics.data.totalTables} · Total rows: {metrics.data.totalRows}
          </p>
          {metrics.data.timeSeriesMetrics.length === 0 ? (
            <p>No queries in this time range.</p>
          ) : (
            SERIES.map((s) => <Chart key={s.key} title={s.title} field={s.key} points={metrics.data.timeSeriesMetrics} from={metrics.data.from} to={metrics.data.to} />)
          )}
        </>
      )}
    </Card>
  );
}
