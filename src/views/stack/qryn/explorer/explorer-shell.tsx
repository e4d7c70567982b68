// The qryn explorer once connected: the language switch (Metrics = PromQL, Logs = LogQL, Traces = TraceQL), the time
// range, auto-refresh and Run (Shift+Enter in the editor), the query editor with its history and the label browser,
// and the results panel of the language: metric results (PromQL, and LogQL queries whose root is a metric
// expression) as a chart or table, log queries in the logs panel, TraceQL in the traces panel. The whole state is in
// the address (explorer-url.ts), so a shared link reopens the same view and runs its query.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { css } from 'styled-system/css';
import { Button } from '../../../../components/ui/button';
import { Card } from '../../../../components/ui/card';
import { Field, NativeSelect } from '../../../../components/ui/field';
import {
  LANGUAGES,
  REFRESH_OPTIONS,
  readExplorerUrl,
  resolveRange,
  writeExplorerUrl,
  type ExplorerLanguage,
  type ExplorerUrlState,
} from '../../../../machines/qryn-explorer/explorer-url';
import { QUERY_REQUIRED_MESSAGE } from '../../../../machines/qryn-explorer/qryn-metric-query.machine';
import { labelNames, labelValues, traceTagNames, traceTagValues, type ExplorerTarget, type RangeMs } from '../../../../services/qryn-explorer';
import { LabelBrowser } from '../editor/label-browser';
import { cachedLabelSource, type LabelSource } from '../editor/label-source';
import { QueryEditor } from '../editor/query-editor';
import { loadHistory, rememberQuery } from '../editor/query-history';
import { MetricsPanel } from './metrics-panel';
import { QueryErrorReport } from './query-error';
import { TimeRangePicker } from './time-range-picker';

const PLACEHOLDERS: Record<ExplorerLanguage, string> = {
  promql: 'rate(http_requests_total{job="api"}[5m])',
  logql: '{job="my-app"} |= "error"',
  traceql: '{ resource.service.name = "checkout" && duration > 100ms }',
};

/** One run: what the panels run, set together so that a panel never sees a query from one run with another's id. */
export interface ExplorerRun {
  id: number;
  language: ExplorerLanguage;
  query: string;
  range: RangeMs;
}

/** What the shell renders for the logs and traces languages (the panels of src/views/stack/qryn/explorer/logs and traces). */
export interface ExplorerPanels {
  logs: (props: { run: ExplorerRun; onQueryChange: (query: string) => void; onOpenTrace: (traceId: string) => void }) => ReactNode;
  traces: (props: { run: ExplorerRun; traceId: string | null; onOpenTrace: (traceId: string | null) => void }) => ReactNode;
}

export interface ExplorerShellProps {
  target: ExplorerTarget;
  /** Forgets the View's credential; absent while the explorer reads with the member's sign-in (nothing to forget). */
  onDisconnect?: () => void;
  onCredentialRefused: (message: string) => void;
  panels: ExplorerPanels;
  /** Label reads; the instance's by default (tests pass doubles). */
  sources?: { promql: LabelSource; logql: LabelSource; traceql: LabelSource };
  now?: () => number;
}

function instanceSources(target: ExplorerTarget, range: () => RangeMs) {
  return {
    promql: cachedLabelSource({ names: (s) => labelNames(target, 'promql', range(), s), values: (n, s) => labelValues(target, 'promql', n, range(), s) }),
    logql: cachedLabelSource({ names: (s) => labelNames(target, 'logql', range(), s), values: (n, s) => labelValues(target, 'logql', n, range(), s) }),
    traceql: cachedLabelSource({ names: () => traceTagNames(target, range()), values: async (n) => (await traceTagValues(target, n, range())).map((v) => v.value) }),
  };
}

export function ExplorerShell({ target, onDisconnect, onCredentialRefused, panels, sources, now = Date.now }: ExplorerShellProps) {
  const [params, setParams] = useSearchParams();
  // One object per address, so that what depends on the range does not change at every render.
  const url = useMemo(() => readExplorerUrl(params), [params]);
  const latestUrl = useRef(url);
  latestUrl.current = url;
  const [draft, setDraft] = useState(url.query);
  const [run, setRun] = useState<ExplorerRun | null>(null);
  const [history, setHistory] = useState(() => loadHistory(url.language));
  // The last run's error from whichever panel ran it (metrics by its onError, logs and traces through the context),
  // for the editor to underline.
  const [metricError, setMetricError] = useState<string | null>(null);
  const [panelError, setPanelError] = useState<string | null>(null);

  // The address changed under the page (back, forward, a link): the editor follows it.
  useEffect(() => setDraft(url.query), [url.query, url.language]);
  useEffect(() => setHistory(loadHistory(url.language)), [url.language]);

  const write = (next: Partial<ExplorerUrlState>, push: boolean) =>
    setParams((current) => writeExplorerUrl(current, { ...readExplorerUrl(current), ...next }), { replace: !push, preventScrollReset: true });

  const [queryMessage, setQueryMessage] = useState<string | null>(null);
  const start = (state: ExplorerUrlState) => {
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

  // A shared link (or a reload) runs its query once on arrival.
  useEffect(() => {
    if (latestUrl.current.query.trim()) start(latestUrl.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

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

  const rangeForLabels = useRef(() => resolveRange(latestUrl.current.range, now()));
  const labelSources = useMemo(() => sources ?? instanceSources(target, () => rangeForLabels.current()), [sources, target]);
  const lookbackMs = useMemo(() => {
    const r = resolveRange(url.range, 0);
    return r.to - r.from;
  }, [url.range]);

  const switchLanguage = (language: ExplorerLanguage) => {
    if (language === url.language) return;
    const query = loadHistory(language)[0] ?? '';
    write({ language, query, traceId: null }, true);
    setDraft(query);
    setRun(null);
    setMetricError(null);
    setPanelError(null);
  };

  const meta = LANGUAGES.find((l) => l.value === url.language)!;
  const editorLabel = `Query (${meta.language})`;
  // Where a LogQL run goes is decided by its grammar, which is loaded with the LogQL editor (its own chunk).
  const [logqlKind, setLogqlKind] = useState<{ id: number; metric: boolean } | null>(null);
  useEffect(() => {
    if (run?.language !== 'logql') return;
    let gone = false;
    void import('../editor/logql-language').then(({ isLogqlMetricQuery }) => {
      if (!gone) setLogqlKind({ id: run.id, metric: isLogqlMetricQuery(run.query) });
    });
    return () => {
      gone = true;
    };
  }, [run]);
  const logqlDecided = run?.language === 'logql' && logqlKind?.id === run.id;
  const metricRun = run && (run.language === 'promql' || (logqlDecided && logqlKind.metric));

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <Card
        title="Explore"
        headerAction={
          onDisconnect && (
            <Button variant="outline" size="sm" onClick={onDisconnect}>
              Forget the credential
            </Button>
          )
        }
      >
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <div className={css({ display: 'flex', gap: '4', flexWrap: 'wrap', alignItems: 'flex-start' })}>
            <div role="group" aria-label="Language" className={css({ display: 'flex', gap: '1', mt: '6' })}>
              {LANGUAGES.map((l) => (
                <Button key={l.value} size="sm" variant={l.value === url.language ? 'solid' : 'outline'} aria-pressed={l.value === url.language} onClick={() => switchLanguage(l.value)}>
                  {l.label} ({l.language})
                </Button>
              ))}
            </div>
            <TimeRangePicker
              value={url.range}
              now={now}
              onChange={(range) => {
                write({ range }, true);
                if (latestUrl.current.query.trim()) start({ ...latestUrl.current, range });
              }}
            />
            <Field label="Auto-refresh" className={css({ minW: '28' })}>
              <NativeSelect value={url.refresh} onChange={(e) => write({ refresh: e.target.value as ExplorerUrlState['refresh'] }, false)}>
                {REFRESH_OPTIONS.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Button className={css({ mt: '6' })} onClick={() => runQuery()}>
              Run query
            </Button>
          </div>
          <div className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', lg: url.language === 'traceql' ? '1fr' : 'minmax(0, 1fr) 20rem' } })}>
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
                labels={labelSources[url.language]}
                error={metricRun ? metricError : panelError}
                describedBy="query-editor-help"
              />
              {queryMessage && (
                <p role="alert" className={css({ textStyle: 'sm', color: 'fg.error' })}>
                  {queryMessage}
                </p>
              )}
              <p id="query-editor-help" className={css({ textStyle: 'xs', color: 'fg.muted' })}>
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
              <LabelBrowser key={url.language} language={url.language} labels={labelSources[url.language]} cacheKey={`${target.url}|${target.auth}|${lookbackMs}`} onUseQuery={setDraft} />
            )}
          </div>
        </div>
      </Card>
      {run && metricRun && (
        <MetricsPanel
          key={run.language}
          target={target}
          source={run.language === 'promql' ? 'prometheus' : 'loki'}
          query={run.query}
          range={run.range}
          runId={run.id}
          view={url.view}
          onViewChange={(view) => write({ view }, false)}
          onCredentialRefused={onCredentialRefused}
          onError={setMetricError}
        />
      )}
      <QueryErrorReport.Provider value={setPanelError}>
      {run && logqlDecided && !logqlKind.metric &&
        panels.logs({
          run,
          onQueryChange: (query) => {
            setDraft(query);
            runRef.current(query);
          },
          onOpenTrace: (traceId) => {
            write({ language: 'traceql', query: loadHistory('traceql')[0] ?? '', traceId }, true);
            setRun(null);
          },
        })}
      {url.language === 'traceql' && (run || url.traceId) &&
        panels.traces({
          run: run ?? { id: 0, language: 'traceql', query: url.query, range: resolveRange(url.range, now()) },
          traceId: url.traceId,
          onOpenTrace: (traceId) => write({ traceId }, traceId !== null),
        })}
      </QueryErrorReport.Provider>
    </div>
  );
}
