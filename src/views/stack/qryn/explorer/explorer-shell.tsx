// The qryn explorer once connected: the time range and auto-refresh the panes share, Split (a second pane beside the
// first, Grafana's split view) and the panes (explorer-pane.tsx), each with its own language, query and results. A
// log line's trace opens in the other pane and a span's logs too, so what was being read stays in view. The whole
// state is in the address (explorer-url.ts), so a shared link, Back and Forward reopen both panes and run their queries.
import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { css } from 'styled-system/css';
import { Button } from '../../../../components/ui/button';
import { Card } from '../../../../components/ui/card';
import { Field, NativeSelect } from '../../../../components/ui/field';
import {
  REFRESH_OPTIONS,
  closeRightPane,
  hasRightPane,
  readExplorerUrl,
  resolveRange,
  writeExplorerUrl,
  type ExplorerLanguage,
  type ExplorerUrlState,
  type PaneSide,
} from '../../../../machines/qryn-explorer/explorer-url';
import { labelNames, labelValues, traceTagNames, traceTagValues, type ExplorerTarget, type RangeMs } from '../../../../services/qryn-explorer';
import { cachedLabelSource, type LabelSource } from '../editor/label-source';
import { ExplorerPane } from './explorer-pane';
import { resolveZone, TimeZone, zoneChoices } from './time-zone';
import { TimeRangePicker } from './time-range-picker';

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
  sources?: Record<ExplorerLanguage, LabelSource>;
  now?: () => number;
}

function instanceSources(target: ExplorerTarget, range: () => RangeMs): Record<ExplorerLanguage, LabelSource> {
  return {
    promql: cachedLabelSource({ names: (s) => labelNames(target, 'promql', range(), s), values: (n, s) => labelValues(target, 'promql', n, range(), s) }),
    logql: cachedLabelSource({ names: (s) => labelNames(target, 'logql', range(), s), values: (n, s) => labelValues(target, 'logql', n, range(), s) }),
    traceql: cachedLabelSource({ names: () => traceTagNames(target, range()), values: async (n) => (await traceTagValues(target, n, range())).map((v) => v.value) }),
  };
}

const OTHER: Record<PaneSide, PaneSide> = { left: 'right', right: 'left' };

/** Grafana's zoom out: twice as long about the same middle, but not past now (a later end reads nothing yet). */
export function zoomedOut(range: RangeMs, now: number): RangeMs {
  const span = range.to - range.from;
  const to = Math.min(now, Math.round(range.to + span / 2));
  return { from: Math.round(to - 2 * span), to };
}

export function ExplorerShell({ target, onDisconnect, onCredentialRefused, panels, sources, now = Date.now }: ExplorerShellProps) {
  const [params, setParams] = useSearchParams();
  const url = useMemo(() => readExplorerUrl(params), [params]);
  const split = hasRightPane(params);
  const latestUrl = useRef(url);
  latestUrl.current = url;

  const write = (next: Partial<ExplorerUrlState>, push: boolean) =>
    setParams((current) => writeExplorerUrl(current, { ...readExplorerUrl(current), ...next }), { replace: !push, preventScrollReset: true });

  const zones = useMemo(() => zoneChoices(), []);
  const zone = resolveZone(url.timeZone);
  const rangeForLabels = useRef(() => resolveRange(latestUrl.current.range, now()));
  const labelSources = useMemo(() => sources ?? instanceSources(target, () => rangeForLabels.current()), [sources, target]);

  /** Opens the right pane as a copy of the left, as Grafana's Split does. */
  const openSplit = () => setParams((current) => writeExplorerUrl(current, readExplorerUrl(current), 'right'), { preventScrollReset: true });
  const closeSplit = () => setParams((current) => closeRightPane(current), { preventScrollReset: true });
  const openIn = useCallback(
    (side: PaneSide, state: Pick<ExplorerUrlState, 'language' | 'query' | 'traceId'>) =>
      setParams((current) => writeExplorerUrl(current, { ...readExplorerUrl(current, side), ...state }, side), { preventScrollReset: true }),
    [setParams],
  );
  const openInRight = useCallback((state: Pick<ExplorerUrlState, 'language' | 'query' | 'traceId'>) => openIn(OTHER.left, state), [openIn]);
  const openInLeft = useCallback((state: Pick<ExplorerUrlState, 'language' | 'query' | 'traceId'>) => openIn(OTHER.right, state), [openIn]);

  const zoomTo = useCallback((range: RangeMs) => write({ range: { kind: 'absolute', from: range.from, to: range.to } }, true), [setParams]);
  const zoomOut = () => zoomTo(zoomedOut(resolveRange(latestUrl.current.range, now()), now()));

  const pane = (side: PaneSide) => (
    <ExplorerPane
      side={side}
      split={split}
      target={target}
      onCredentialRefused={onCredentialRefused}
      panels={panels}
      sources={labelSources}
      now={now}
      onOpenInOther={side === 'left' ? openInRight : openInLeft}
      onZoom={zoomTo}
    />
  );

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <Card
        title="Explore"
        headerAction={
          <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-end', justifyContent: 'flex-end' })}>
            <TimeRangePicker value={url.range} now={now} onChange={(range) => write({ range }, true)} />
            <Button variant="outline" size="sm" onClick={zoomOut} title="Twice the time range about its middle">
              Zoom out
            </Button>
            <Field label="Time zone" className={css({ minW: '36', maxW: '56' })}>
              <NativeSelect value={url.timeZone} onChange={(e) => write({ timeZone: e.target.value }, false)}>
                {(zones.some((z) => z.value === url.timeZone) ? zones : [...zones, { value: url.timeZone, label: url.timeZone }]).map((z) => (
                  <option key={z.value} value={z.value}>
                    {z.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Auto-refresh" className={css({ minW: '28' })}>
              <NativeSelect value={url.refresh} onChange={(e) => write({ refresh: e.target.value as ExplorerUrlState['refresh'] }, false)}>
                {REFRESH_OPTIONS.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            {split ? (
              <Button variant="outline" size="sm" onClick={closeSplit}>
                Close the split
              </Button>
            ) : (
              <Button variant="outline" size="sm" onClick={openSplit}>
                Split
              </Button>
            )}
            {onDisconnect && (
              <Button variant="outline" size="sm" onClick={onDisconnect}>
                Forget the credential
              </Button>
            )}
          </div>
        }
      >
        <TimeZone.Provider value={zone}>
        {/* The same elements split or not, so that opening the right pane leaves the left one (and its results) as it was. */}
        <div className={css({ display: 'grid', gap: '4' })} style={{ gridTemplateColumns: split ? 'repeat(2, minmax(0, 1fr))' : 'minmax(0, 1fr)' }}>
          <section aria-label={split ? 'Left pane' : undefined} className={css({ minW: '0' })}>
            {pane('left')}
          </section>
          {split && (
            <section aria-label="Right pane" className={css({ minW: '0', borderLeftWidth: '1px', borderColor: 'border.subtle', pl: '4' })}>
              {pane('right')}
            </section>
          )}
        </div>
        </TimeZone.Provider>
      </Card>
    </div>
  );
}
