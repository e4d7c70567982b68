// The explorer's traces: TraceQL search results as a sortable table, re-run whenever the shell's runId changes; when
// the shell names a trace (traceId) its waterfall shows instead, with a way back to the results. A metrics query
// (`{…} | rate()`) is drawn as a chart with a table of its series (points, their sum, the last) instead of searched. The flows are the
// qryn-trace-search, qryn-trace-metrics and qryn-trace-view machines; the reads are src/services/qryn-traces.ts and
// src/services/qryn-trace-metrics.ts.
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import { css } from 'styled-system/css';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { Alert } from '../../../../../components/ui/alert';
import { QueryErrorAlert, useReportQueryError } from '../query-error';
import { Button } from '../../../../../components/ui/button';
import { Spinner } from '../../../../../components/ui/spinner';
import { qrynTraceMetricsMachine, type QrynTraceMetricsMachine } from '../../../../../machines/qryn-traces/qryn-trace-metrics.machine';
import { qrynTraceSearchMachine, type QrynTraceSearchMachine } from '../../../../../machines/qryn-traces/qryn-trace-search.machine';
import { qrynTraceViewMachine, type QrynTraceViewMachine } from '../../../../../machines/qryn-traces/qryn-trace-view.machine';
import { isTraceMetricsQuery, traceMetricsRange } from '../../../../../services/qryn-trace-metrics';
import { formatDuration, readTrace, searchTraces, sortHits, tracesFoundText, type TraceHit, type TraceSortKey } from '../../../../../services/qryn-traces';
import type { ExplorerRange } from '../logs/logs-panel';
import { TimeSeriesChart } from '../time-series-chart';
import { TraceWaterfall } from './trace-waterfall';

export interface TracesPanelProps {
  instanceUrl: string;
  auth: string;
  query: string;
  range: ExplorerRange;
  runId: number;
  traceId: string | null;
  onOpenTrace: (traceId: string | null) => void;
  onCredentialRefused: () => void;
}

const COLUMNS: { key: TraceSortKey; label: string }[] = [
  { key: 'service', label: 'Service' },
  { key: 'name', label: 'Name' },
  { key: 'duration', label: 'Duration' },
  { key: 'start', label: 'Start' },
];

function HitsTable({ hits, onOpenTrace }: { hits: TraceHit[]; onOpenTrace: (id: string) => void }) {
  const [sort, setSort] = useState<{ key: TraceSortKey; descending: boolean }>({ key: 'start', descending: true });
  const sorted = useMemo(() => sortHits(hits, sort.key, sort.descending), [hits, sort]);
  return (
    <table aria-label="Trace results" className={css({ w: 'full', textAlign: 'left', textStyle: 'sm', '& th, & td': { py: '1', pr: '4', verticalAlign: 'top' } })}>
      <thead>
        <tr>
          <th scope="col">Trace</th>
          {COLUMNS.map((c) => (
            <th key={c.key} scope="col" aria-sort={sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
              <button type="button" className={css({ cursor: 'pointer', fontWeight: 'semibold' })} onClick={() => setSort((s) => ({ key: c.key, descending: s.key === c.key ? !s.descending : c.key === 'duration' || c.key === 'start' }))}>
                {c.label}
                {sort.key === c.key ? (sort.descending ? ' ↓' : ' ↑') : ''}
              </button>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {sorted.map((h) => (
          <tr key={h.traceId} onClick={() => onOpenTrace(h.traceId)} className={css({ cursor: 'pointer', _hover: { bg: 'gray.a2' } })}>
            <td>
              <button
                type="button"
                className={css({ fontFamily: 'mono', color: 'accent.text', textDecoration: 'underline', cursor: 'pointer' })}
                aria-label={`Open trace ${h.traceId}`}
                onClick={(e) => {
                  e.stopPropagation();
                  onOpenTrace(h.traceId);
                }}
              >
                {h.traceId.slice(0, 16)}
              </button>
            </td>
            <td>{h.service || '—'}</td>
            <td>{h.name || '—'}</td>
            <td>{formatDuration(h.durationMs)}</td>
            <td>{new Date(h.startMs).toISOString().replace('T', ' ').replace('Z', '')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TraceSearchResults({ actor, onOpenTrace }: { actor: ActorRefFrom<QrynTraceSearchMachine>; onOpenTrace: (id: string) => void }) {
  const state = useSelector(actor, (s) => s);
  if (state.matches('idle')) return <p className={css({ color: 'fg.muted' })}>Run a TraceQL query to find traces.</p>;
  if (state.matches('running')) return <Spinner size="lg" label="Searching traces" />;
  if (state.matches('error')) {
    return (
      <QueryErrorAlert title="The trace search failed" error={state.context.error ?? ''} query={state.context.request?.query ?? ''} />
    );
  }
  const { hits } = state.context;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <p role="status" className={css({ textStyle: 'sm', color: 'fg.muted' })}>
        {tracesFoundText(hits.length)}
      </p>
      {hits.length > 0 && <HitsTable hits={hits} onOpenTrace={onOpenTrace} />}
    </div>
  );
}

export function TraceMetricsResults({ actor }: { actor: ActorRefFrom<QrynTraceMetricsMachine> }) {
  const state = useSelector(actor, (s) => s);
  if (state.matches('idle')) return <p className={css({ color: 'fg.muted' })}>Run a TraceQL metrics query to draw its series.</p>;
  if (state.matches('running')) return <Spinner size="lg" label="Reading TraceQL metrics" />;
  if (state.matches('error')) {
    return <QueryErrorAlert title="The TraceQL metrics query failed" error={state.context.error ?? ''} query={state.context.request?.query ?? ''} />;
  }
  const chart = state.context.chart ?? { names: [], xs: [], ys: [] };
  if (chart.names.length === 0) return <p role="status" className={css({ color: 'fg.muted' })}>No spans matched in this time range.</p>;
  const values = (ys: (number | null)[]) => ys.filter((y): y is number => y !== null);
  // Twelve significant digits: sums of rates read as their value, not as a float's last bits.
  const show = (n: number | undefined) => (n === undefined ? '—' : String(Number(n.toPrecision(12))));
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <p role="status" className={css({ textStyle: 'sm', color: 'fg.muted' })}>
        {chart.names.length} series.
      </p>
      <TimeSeriesChart data={chart} />
      <table aria-label="Metric series" className={css({ textAlign: 'left', textStyle: 'sm', '& th, & td': { py: '1', pr: '4' } })}>
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">Points</th>
            <th scope="col">Sum</th>
            <th scope="col">Last value</th>
          </tr>
        </thead>
        <tbody>
          {chart.names.map((name, i) => (
            <tr key={name}>
              <td className={css({ fontFamily: 'mono', wordBreak: 'break-all' })}>{name}</td>
              <td>{values(chart.ys[i]).length}</td>
              <td>{show(values(chart.ys[i]).reduce((a, b) => a + b, 0))}</td>
              <td>{show(values(chart.ys[i]).at(-1))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TraceView({ actor, onClose }: { actor: ActorRefFrom<QrynTraceViewMachine>; onClose: () => void }) {
  const state = useSelector(actor, (s) => s);
  const traceId = state.context.request?.traceId.trim().toLowerCase() ?? '';
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <div>
        <Button size="sm" variant="outline" onClick={onClose}>
          Back to the trace results
        </Button>
      </div>
      {state.matches('loading') && <Spinner size="lg" label={`Reading trace ${traceId}`} />}
      {state.matches('error') && (
        <Alert status="error" title={`Trace ${traceId}`}>
          {state.context.error}
        </Alert>
      )}
      {state.matches('showing') && <TraceWaterfall traceId={traceId} spans={state.context.spans} />}
    </div>
  );
}

export function TracesPanel(props: TracesPanelProps): JSX.Element {
  const { instanceUrl, auth, query, range, runId, traceId, onOpenTrace } = props;
  const refusedRef = useRef(props.onCredentialRefused);
  refusedRef.current = props.onCredentialRefused;
  const search = useActorRef(
    qrynTraceSearchMachine.provide({
      actors: { searchTraces: fromPromise(({ input, signal }) => searchTraces(input, signal)) },
      actions: { credentialRefused: () => refusedRef.current() },
    }),
  );
  const metrics = useActorRef(
    qrynTraceMetricsMachine.provide({
      actors: { readMetrics: fromPromise(({ input, signal }) => traceMetricsRange(input, signal)) },
      actions: { credentialRefused: () => refusedRef.current() },
    }),
  );
  const [drawing, setDrawing] = useState(false);
  const view = useActorRef(
    qrynTraceViewMachine.provide({
      actors: { readTrace: fromPromise(({ input, signal }) => readTrace(input, signal)) },
      actions: { credentialRefused: () => refusedRef.current() },
    }),
  );
  const latest = useRef({ instanceUrl, auth, query, range });
  latest.current = { instanceUrl, auth, query, range };
  useEffect(() => {
    const { instanceUrl: url, auth: credential, query: q, range: r } = latest.current;
    const request = { instanceUrl: url, auth: credential, query: q, range: r };
    const isMetrics = isTraceMetricsQuery(q);
    setDrawing(isMetrics);
    if (isMetrics) metrics.send({ type: 'metrics.run', request });
    else search.send({ type: 'traces.run', request });
  }, [runId, search, metrics]);
  const searchError = useSelector(search, (s) => (s.matches('error') ? s.context.error : null));
  const metricsError = useSelector(metrics, (s) => (s.matches('error') ? s.context.error : null));
  useReportQueryError(drawing ? metricsError : searchError);
  useEffect(() => {
    if (traceId) view.send({ type: 'trace.open', request: { instanceUrl: latest.current.instanceUrl, auth: latest.current.auth, traceId } });
    else view.send({ type: 'trace.close' });
  }, [traceId, view]);
  return (
    <section aria-label="Traces" className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      {traceId ? <TraceView actor={view} onClose={() => onOpenTrace(null)} /> : drawing ? <TraceMetricsResults actor={metrics} /> : <TraceSearchResults actor={search} onOpenTrace={onOpenTrace} />}
    </section>
  );
}
