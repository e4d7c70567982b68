// The explorer's metric results: a PromQL query, or a LogQL metric query (the shell decides), run by the
// qryn-metric-query machine. A range query is drawn as a uPlot chart or shown as a table (the view is in the address),
// an instant query as a table; a step control (auto or chosen; both in the address); a drag on the chart zooms in; the table as <query>__<instance>__<time>.csv / .json.
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { css } from 'styled-system/css';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { Button } from '../../../../components/ui/button';
import { Field, NativeSelect } from '../../../../components/ui/field';
import { Spinner } from '../../../../components/ui/spinner';
import { STEPS, type ExplorerView, type MetricKind, type StepValue } from '../../../../machines/qryn-explorer/explorer-url';
import { qrynMetricQueryMachine, type QrynMetricQueryMachine } from '../../../../machines/qryn-explorer/qryn-metric-query.machine';
import { autoStepSeconds, chartData, resultTable, runMetricQuery, type ExplorerTarget, type MetricRequest, type MetricSource, type RangeMs, type ResultTable } from '../../../../services/qryn-explorer';
import { endAlignedRange } from './evaluation-range';
import { QueryErrorAlert } from './query-error';
import { displayValue, exportName } from './result-format';
import { TableExports } from './table-exports';
import { TimeSeriesChart } from './time-series-chart';
import { formatInZone, useTimeZone } from './time-zone';


export function ResultsTable({ table }: { table: ResultTable }) {
  const zone = useTimeZone();
  if (table.rows.length === 0) return <p>Nothing matched in this time range.</p>;
  return (
    <div className={css({ overflowX: 'auto', maxH: '96', overflowY: 'auto' })} tabIndex={0} role="region" aria-label="Results table">
      <table aria-label="Results" className={css({ w: 'full', textAlign: 'left', textStyle: 'sm', '& th, & td': { py: '1', pr: '4', verticalAlign: 'top' }, '& td': { fontFamily: 'mono', wordBreak: 'break-word' } })}>
        <thead>
          <tr>
            {table.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) => (
                // The value as read to at most VALUE_DIGITS significant digits; the title and the downloads keep all.
                <td key={j} title={table.columns[j] === 'Value' && displayValue(cell) !== cell ? cell : undefined}>
                  {table.columns[j] === 'Value' ? displayValue(cell) : table.columns[j] === 'Time' ? formatInZone(Date.parse(cell), zone) : cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An answer with no series: what was asked, over which range, and where to look, instead of an empty chart. */
export function NoSeries({ query, range }: { query: string; range: RangeMs }) {
  const zone = useTimeZone();
  return (
    <div role="status" className={css({ display: 'flex', flexDirection: 'column', gap: '1', p: '4', borderWidth: '1px', borderStyle: 'dashed', borderColor: 'border.default', borderRadius: 'l2' })}>
      <p>
        No series matched <code className={css({ fontFamily: 'mono', wordBreak: 'break-word' })}>{query}</code> from {formatInZone(range.from, zone)} to {formatInZone(range.to, zone)} {zone}.
      </p>
      <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>
        Widen the time range, or check the label values in the label browser: a matcher on a value with no data in this range matches nothing.
      </p>
    </div>
  );
}

export interface MetricsResultsProps {
  actor: ActorRefFrom<QrynMetricQueryMachine>;
  view: ExplorerView;
  onViewChange: (view: ExplorerView) => void;
  kind: MetricKind;
  onKindChange: (kind: MetricKind) => void;
  step: StepValue;
  onStepChange: (step: StepValue) => void;
  /** The instance read, for the downloads' names. */
  instanceUrl?: string;
  /** A range dragged on the chart. */
  onZoom?: (range: RangeMs) => void;
}

/** The controls and what the machine holds: spinner, the instance's reason, or the chart / table. */
export function MetricsResults({ actor, view, onViewChange, kind, onKindChange, step, onStepChange, instanceUrl, onZoom }: MetricsResultsProps) {
  const state = useSelector(actor, (s) => s);
  const result = state.context.result;
  const table = useMemo(() => (result ? resultTable(result) : null), [result]);
  const chart = useMemo(() => (result ? chartData(result) : null), [result]);
  const seriesCount = result ? (result.resultType === 'matrix' || result.resultType === 'vector' ? result.result.length : 1) : 0;
  const drawn = result?.resultType === 'matrix' && view === 'chart';
  return (
    <section aria-label="Metric results" className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-end' })}>
        <Field label="Query type" className={css({ minW: '36' })}>
          <NativeSelect value={kind} onChange={(e) => onKindChange(e.target.value as MetricKind)}>
            <option value="range">Range</option>
            <option value="instant">Instant</option>
          </NativeSelect>
        </Field>
        <Field label="Step" className={css({ minW: '28' })} disabled={kind === 'instant'}>
          <NativeSelect value={step} onChange={(e) => onStepChange(e.target.value as StepValue)}>
            {STEPS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <div role="group" aria-label="Show as" className={css({ display: 'flex', gap: '1' })}>
          {(['chart', 'table'] as const).map((v) => (
            <Button key={v} size="sm" variant={view === v ? 'solid' : 'outline'} aria-pressed={view === v} onClick={() => onViewChange(v)}>
              {v === 'chart' ? 'Chart' : 'Table'}
            </Button>
          ))}
        </div>
        {state.matches('results') && table && state.context.request && (
          <TableExports table={table} name={exportName(state.context.request.query, instanceUrl ?? '', state.context.request.range.to)} />
        )}
      </div>
      {state.matches('running') && <Spinner size="lg" label="Running the query" />}
      {state.matches('error') && (
        <QueryErrorAlert title="The query failed" error={state.context.error ?? ''} query={state.context.request?.query ?? ''} />
      )}
      {state.matches('results') && result && (
        <>
          <p aria-live="polite">
            {seriesCount} {seriesCount === 1 ? 'series' : 'series'}
            {result.resultType !== 'matrix' && ` (${result.resultType})`}
          </p>
          {seriesCount === 0 && state.context.request ? (
            <NoSeries query={state.context.request.query} range={state.context.request.range} />
          ) : drawn && chart ? (
            <TimeSeriesChart data={chart} onZoom={onZoom} />
          ) : (
            table && <ResultsTable table={table} />
          )}
        </>
      )}
    </section>
  );
}

export interface MetricsPanelProps {
  target: ExplorerTarget;
  source: MetricSource;
  query: string;
  range: RangeMs;
  runId: number;
  view: ExplorerView;
  onViewChange: (view: ExplorerView) => void;
  onCredentialRefused: (message: string) => void;
  /** The last run's error (or null), for the editor to underline. */
  onError: (message: string | null) => void;
  /** How to run, from the address (range and auto when absent). */
  kind?: MetricKind;
  step?: StepValue;
  onKindChange?: (kind: MetricKind) => void;
  onStepChange?: (step: StepValue) => void;
  onZoom?: (range: RangeMs) => void;
}

export function MetricsPanel(props: MetricsPanelProps) {
  const latest = useRef(props);
  latest.current = props;
  const actor = useActorRef(
    qrynMetricQueryMachine.provide({
      actors: { runMetricQuery: fromPromise(({ input, signal }) => runMetricQuery(latest.current.target, input, signal)) },
      actions: { credentialRefused: (_, params) => latest.current.onCredentialRefused(params.message) },
    }),
  );
  const { runId, query, source, range, kind = 'range', step = 'auto' } = props;
  useEffect(() => {
    if (runId === 0) return;
    const stepSeconds = step === 'auto' ? autoStepSeconds(range) : Number(step);
    const request: MetricRequest = { source, query, kind, range: kind === 'range' ? endAlignedRange(range, stepSeconds) : range, stepSeconds };
    actor.send({ type: 'metric.run', request });
    // Only a run (or a change of how to run) sends: the query text changes with every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId, kind, step, actor]);
  const error = useSelector(actor, (s) => (s.matches('error') ? s.context.error : null));
  useEffect(() => latest.current.onError(error), [error]);
  const ignore = () => undefined;
  return (
    <MetricsResults
      actor={actor}
      view={props.view}
      onViewChange={props.onViewChange}
      kind={kind}
      onKindChange={props.onKindChange ?? ignore}
      step={step}
      onStepChange={props.onStepChange ?? ignore}
      instanceUrl={props.target.url}
      onZoom={props.onZoom}
    />
  );
}
