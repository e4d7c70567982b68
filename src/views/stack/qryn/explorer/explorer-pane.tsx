// One pane of the explorer: its language switch (Metrics = PromQL, Logs = LogQL, Traces = TraceQL), Run (Shift+Enter
// in the editor), the query editor with its history and the label browser, and the results panel of the language:
// metric results (PromQL, and LogQL queries whose root is a metric expression) as a chart or table, log queries in
// the logs panel, TraceQL in the traces panel. Its state is in the address under its side (explorer-url.ts); whenever
// the address names another query, language or range than the pane last ran (a run, Back, Forward, a link, the other
// pane opening something here), the pane runs it, so a shared link or a step through the history shows its results.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { css } from 'styled-system/css';
import { Button } from '../../../../components/ui/button';
import { Field, NativeSelect } from '../../../../components/ui/field';
import { LANGUAGES, REFRESH_OPTIONS, readExplorerUrl, resolveRange, writeExplorerUrl, type ExplorerLanguage, type ExplorerUrlState, type PaneSide } from '../../../../machines/qryn-explorer/explorer-url';
import { QUERY_REQUIRED_MESSAGE } from '../../../../machines/qryn-explorer/qryn-metric-query.machine';
import type { ExplorerTarget, RangeMs } from '../../../../services/qryn-explorer';
import type { TraceSpan } from '../../../../services/qryn-traces';
import { LabelBrowser } from '../editor/label-browser';
import type { LabelSource } from '../editor/label-source';
import { QueryEditor } from '../editor/query-editor';
import { loadHistory, rememberQuery } from '../editor/query-history';
import type { ExplorerPanels, ExplorerRun } from './explorer-shell';
import { MetricsPanel } from './metrics-panel';
import { QueryErrorReport } from './query-error';
import { SpanLogs, spanLogsQuery } from './span-logs';

const PLACEHOLDERS: Record<ExplorerLanguage, string> = {
  promql: 'rate(http_requests_total{job="api"}[5m])',
  logql: '{job="my-app"} |= "error"',
  traceql: '{ resource.service.name = "checkout" && duration > 100ms }',
};

export interface ExplorerPaneProps {
  side: PaneSide;
  /** Two panes side by side: the label browser goes under the editor. */
  split: boolean;
  target: ExplorerTarget;
  onCredentialRefused: (message: string) => void;
  panels: ExplorerPanels;
  sources: Record<ExplorerLanguage, LabelSource>;
  now: () => number;
  /** Shows something in the other pane (opening it when the view is not split): a log line's trace, a span's logs. */
  onOpenInOther: (state: Pick<ExplorerUrlState, 'language' | 'query' | 'traceId'>) => void;
  /** A range dragged on a chart: the panes' shared range. */
  onZoom: (range: RangeMs) => void;
}

const runKey = (state: ExplorerUrlState) => `${state.language}\n${state.query.trim()}\n${JSON.stringify(state.range)}`;

export function ExplorerPane({ side, split, target, onCredentialRefused, panels, sources, now, onOpenInOther, onZoom }: ExplorerPaneProps) {
  const [params, setParams] = useSearchParams();
  // One object per address, so that what depends on the range does not change at every render.
  const url = useMemo(() => readExplorerUrl(params, side), [params, side]);
  const latestUrl = useRef(url);
  latestUrl.current = url;
  const [draft, setDraft] = useState(url.query);
  const [run, setRun] = useState<ExplorerRun | null>(null);
  const [history, setHistory] = useState(() => loadHistory(url.language));
  // The last run's error from whichever panel ran it (metrics by its onError, logs and traces through the context),
  // for the editor to underline.
  const [metricError, setMetricError] = useState<string | null>(null);
  const [panelError, setPanelError] = useState<string | null>(null);
  const helpId = useId();

  // The address changed under the page (back, forward, a link): the editor follows it.
  useEffect(() => setDraft(url.query), [url.query, url.language]);
  useEffect(() => setHistory(loadHistory(url.language)), [url.language]);

  const write = (next: Partial<ExplorerUrlState>, push: boolean) =>
    setParams((current) => writeExplorerUrl(current, { ...readExplorerUrl(current, side), ...next }, side), { replace: !push, preventScrollReset: true });

  const [queryMessage, setQueryMessage] = useState<string | null>(null);
  const lastRun = useRef<string | null>(null);
  const start = (state: ExplorerUrlState) => {
    lastRun.current = runKey(state);
    setQueryMessage(state.query.trim() ? null : QUERY_REQUIRED_MESSAGE);
    if (!state.query.trim()) return;
    setRun((previous) => ({ id: (previous?.id ?? 0) + 1, language: state.language, query: state.query.trim(), range: resolveRange(state.range, now()) }));
  };

  /** Run: the query goes into the address (a new history entry when it changed) and into the history list. */
  const runQuery = (query = draft) => {
    const state = { ...latestUrl.current, query: query.trim() };
    write({ query: state.query }, state.query !== latestUrl.current.query);
    if (state.query) setHistory(rememberQuery(state.language, state.query));
    start(state);
  };
  const runRef = useRef(runQuery);
  runRef.current = runQuery;

  // The address names another query, language or range than the last run: arrival, Back/Forward, the shared range,
  // the other pane. A pane whose address holds no query waits for one.
  const key = runKey(url);
  useEffect(() => {
    if (key === lastRun.current) return;
    lastRun.current = key;
    if (latestUrl.current.query.trim()) start(latestUrl.current);
    else setRun(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // Auto-refresh re-runs the query in force (relative ranges move on with the clock).
  const refreshMs = REFRESH_OPTIONS.find((r) => r.value === url.refresh)?.ms ?? 0;
  useEffect(() => {
    if (!refreshMs) return;
    const timer = setInterval(() => {
      if (latestUrl.current.query.trim()) start(latestUrl.current);
    }, refreshMs);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refreshMs]);

  const lookbackMs = useMemo(() => {
    const r = resolveRange(url.range, 0);
    return r.to - r.from;
  }, [url.range]);

  const switchLanguage = (language: ExplorerLanguage) => {
    if (language === url.language) return;
    const query = loadHistory(language)[0] ?? '';
    // Switching shows the language's last query without running it.
    lastRun.current = runKey({ ...url, language, query });
    write({ language, query, traceId: null }, true);
    setDraft(query);
    setRun(null);
    setMetricError(null);
    setPanelError(null);
  };

  // A run of another language than the pane's (the address just changed language) is not shown.
  const current = run?.language === url.language ? run : null;
  const meta = LANGUAGES.find((l) => l.value === url.language)!;
  const editorLabel = `Query (${meta.language})`;
  // Where a LogQL run goes is decided by its grammar, which is loaded with the LogQL editor (its own chunk).
  const [logqlKind, setLogqlKind] = useState<{ id: number; metric: boolean } | null>(null);
  useEffect(() => {
    if (current?.language !== 'logql') return;
    let gone = false;
    void import('../editor/logql-language').then(({ isLogqlMetricQuery }) => {
      if (!gone) setLogqlKind({ id: current.id, metric: isLogqlMetricQuery(current.query) });
    });
    return () => {
      gone = true;
    };
  }, [current]);
  const logqlDecided = current?.language === 'logql' && logqlKind?.id === current.id;
  const metricRun = current && (current.language === 'promql' || (logqlDecided && logqlKind.metric));
  const openSpanLogs = useMemo(
    () => (span: TraceSpan) =>
      void spanLogsQuery({ traceId: latestUrl.current.traceId ?? '', service: span.service, resource: span.resource }, sources.logql).then((query) => onOpenInOther({ language: 'logql', query, traceId: null })),
    [sources, onOpenInOther],
  );

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', minW: '0' })}>
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center' })}>
        <div role="group" aria-label="Language" className={css({ display: 'flex', gap: '1', flexWrap: 'wrap' })}>
          {LANGUAGES.map((l) => (
            <Button key={l.value} size="sm" variant={l.value === url.language ? 'solid' : 'outline'} aria-pressed={l.value === url.language} onClick={() => switchLanguage(l.value)}>
              {l.label} ({l.language})
            </Button>
          ))}
        </div>
        <Button size="sm" onClick={() => runQuery()}>
          Run query
        </Button>
      </div>
      <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: split || url.language === 'traceql' ? '1fr' : { base: '1fr', lg: 'minmax(0, 1fr) 20rem' } })}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', minW: '0' })}>
          <span className={css({ textStyle: 'sm', fontWeight: 'medium' })}>{editorLabel}</span>
          <QueryEditor
            key={url.language}
            language={url.language}
            value={draft}
            onChange={setDraft}
            onRun={() => runRef.current()}
            label={editorLabel}
            placeholder={PLACEHOLDERS[url.language]}
            labels={sources[url.language]}
            error={metricRun ? metricError : panelError}
            describedBy={helpId}
          />
          {queryMessage && (
            <p role="alert" className={css({ textStyle: 'sm', color: 'fg.error' })}>
              {queryMessage}
            </p>
          )}
          <p id={helpId} className={css({ textStyle: 'xs', color: 'fg.muted' })}>
            Shift+Enter runs the query; Ctrl+Space lists suggestions; Escape closes them.
          </p>
          <Field label="History" className={css({ maxW: 'full' })}>
            <NativeSelect value="" onChange={(e) => e.target.value && setDraft(e.target.value)} disabled={history.length === 0}>
              <option value="">{history.length === 0 ? 'No queries run yet' : `The last ${history.length} ${history.length === 1 ? 'query' : 'queries'}`}</option>
              {history.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
        {url.language !== 'traceql' && (
          <LabelBrowser key={url.language} language={url.language} labels={sources[url.language]} cacheKey={`${target.url}|${target.auth}|${lookbackMs}`} onUseQuery={setDraft} />
        )}
      </div>
      {current && metricRun && (
        <MetricsPanel
          key={current.language}
          target={target}
          source={current.language === 'promql' ? 'prometheus' : 'loki'}
          query={current.query}
          range={current.range}
          runId={current.id}
          view={url.view}
          onViewChange={(view) => write({ view }, false)}
          kind={url.kind}
          step={url.step}
          onKindChange={(kind) => write({ kind }, false)}
          onStepChange={(step) => write({ step }, false)}
          onZoom={onZoom}
          onCredentialRefused={onCredentialRefused}
          onError={setMetricError}
        />
      )}
      <QueryErrorReport.Provider value={setPanelError}>
        {current && logqlDecided && !logqlKind.metric &&
          panels.logs({
            run: current,
            onQueryChange: (query) => {
              setDraft(query);
              runRef.current(query);
            },
            // The trace opens beside the logs, which stay.
            onOpenTrace: (traceId) => onOpenInOther({ language: 'traceql', query: loadHistory('traceql')[0] ?? '', traceId }),
          })}
        {url.language === 'traceql' && (current || url.traceId) && (
          <SpanLogs.Provider value={openSpanLogs}>
            {panels.traces({
              run: current ?? { id: 0, language: 'traceql', query: url.query, range: resolveRange(url.range, now()) },
              traceId: url.traceId,
              onOpenTrace: (traceId) => write({ traceId }, traceId !== null),
            })}
          </SpanLogs.Provider>
        )}
      </QueryErrorReport.Provider>
    </div>
  );
}
