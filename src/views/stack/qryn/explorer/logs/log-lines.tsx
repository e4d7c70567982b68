// Log lines, newest first, coloured by level, in a scrolled list that draws only the rows in view (log-window.ts):
// one line per row, cut at the edge, so 5,000 lines cost the page what 40 do. A row's toggle button (keyboard: Tab
// then Enter/Space) opens the whole line, its labels and parsed fields with "filter for / filter out value", and
// "show context" (the lines around it in its stream, read on demand). Trace ids in a line are links that open the trace.
// Wrapped or prettified lines take the height they need: each drawn row is measured, as opened rows are.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../../../../components/ui/button';
import { parseLineFields, readContext, splitTraceIds, traceIdsOf, type FilterEdit, type LogContext, type LogLine } from '../../../../../services/qryn-logs';
import { formatInZone, useTimeZone } from '../time-zone';
import { prettyJson } from './log-display';
import { LEVEL_COLOURS, LEVEL_NAMES } from './log-levels';
import { rowWindow } from './log-window';

/** A collapsed row's height in pixels (one line of the list's text and its rule). */
export const ROW_HEIGHT = 22;
/** The list's height before it is measured (and in a document without layout). */
const DEFAULT_VIEWPORT = 600;
const OVERSCAN = 10;

export interface LogLinesProps {
  lines: LogLine[];
  /** The explorer's log query: which labels a parser added, and where filters go. */
  parsedQuery: boolean;
  onFilter: (edit: FilterEdit) => void;
  onOpenTrace: (traceId: string) => void;
  /** Reads the lines around one (show context); absent in the live tail. */
  context?: { instanceUrl: string; auth: string };
  label?: string;
  /** Wrap long lines; indent JSON lines (log-display.ts). */
  wrap?: boolean;
  prettify?: boolean;
  /** How many duplicates each kept line stands for (deduplication). */
  duplicates?: ReadonlyMap<string, number>;
}

/** A line's time to the millisecond in the explorer's zone. */
const timeOf = (tsNs: string, zone: string) => formatInZone(Number(BigInt(tsNs) / 1_000_000n), zone, 'ms');

function LineText({ line, onOpenTrace }: { line: string; onOpenTrace: (traceId: string) => void }) {
  const segments = useMemo(() => splitTraceIds(line), [line]);
  return (
    <>
      {segments.map((s, i) =>
        s.traceId ? (
          <a
            key={i}
            href={`#trace-${s.traceId}`}
            aria-label={`Open trace ${s.traceId}`}
            className={css({ color: 'accent.text', textDecoration: 'underline' })}
            onClick={(e) => {
              e.preventDefault();
              e.stopPropagation();
              onOpenTrace(s.traceId!);
            }}
          >
            {s.text}
          </a>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

function FieldTable({ title, entries, source, parser, onFilter }: { title: string; entries: [string, string][]; source: FilterEdit['source']; parser?: FilterEdit['parser']; onFilter: (edit: FilterEdit) => void }) {
  if (entries.length === 0) return null;
  return (
    <table aria-label={title} className={css({ textStyle: 'xs', '& th, & td': { pr: '3', py: '0.5', textAlign: 'left', verticalAlign: 'top' }, '& td': { fontFamily: 'mono', wordBreak: 'break-all' } })}>
      <caption className={css({ textAlign: 'left', fontWeight: 'semibold', py: '1' })}>{title}</caption>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row" className={css({ fontFamily: 'mono', fontWeight: 'normal' })}>
              {name}
            </th>
            <td>{value}</td>
            <td className={css({ whiteSpace: 'nowrap' })}>
              <Button size="xs" variant="ghost" aria-label={`Filter for value ${name}="${value}"`} onClick={() => onFilter({ name, value, op: '=', source, parser })}>
                Filter for value
              </Button>
              <Button size="xs" variant="ghost" aria-label={`Filter out value ${name}="${value}"`} onClick={() => onFilter({ name, value, op: '!=', source, parser })}>
                Filter out value
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ContextLines({ lines, label }: { lines: LogLine[]; label: string }) {
  const zone = useTimeZone();
  if (lines.length === 0) return <p className={css({ textStyle: 'xs', color: 'fg.muted' })}>No lines {label.toLowerCase()} in this stream within two hours.</p>;
  return (
    <ol aria-label={label} className={css({ fontFamily: 'mono', textStyle: 'xs', color: 'fg.muted', listStyle: 'none', p: '0', m: '0' })}>
      {lines.map((l) => (
        <li key={l.key} className={css({ whiteSpace: 'pre-wrap', wordBreak: 'break-all' })}>
          <span className={css({ mr: '2' })}>{timeOf(l.tsNs, zone)}</span>
          {l.line}
        </li>
      ))}
    </ol>
  );
}

function LineDetails({ line, parsedQuery, onFilter, onOpenTrace, context }: { line: LogLine } & Omit<LogLinesProps, 'lines' | 'label'>) {
  const zone = useTimeZone();
  const parsed = useMemo(() => parseLineFields(line.line), [line.line]);
  const parsedNames = useMemo(() => (parsed ? Object.keys(parsed.fields) : []), [parsed]);
  // With a parser in the query the instance answers parsed fields as labels; they are listed as fields here.
  const streamLabels = Object.entries(line.labels)
    .filter(([k]) => k !== '__error__' && k !== '__error_details__' && !(parsedQuery && parsedNames.includes(k)))
    .sort(([a], [b]) => a.localeCompare(b));
  const fields = parsed ? Object.entries(parsed.fields) : [];
  const traces = traceIdsOf(line.line, { ...line.labels, ...(parsed?.fields ?? {}) });
  const [ctx, setCtx] = useState<{ status: 'idle' | 'loading' | 'shown' | 'failed'; data?: LogContext; error?: string }>({ status: 'idle' });
  // The line is the context's anchor: marked, and brought into view once its neighbours are shown.
  const anchor = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (ctx.status === 'shown') anchor.current?.scrollIntoView?.({ block: 'center' });
  }, [ctx.status]);
  useEffect(() => {
    if (ctx.status !== 'loading' || !context) return;
    const controller = new AbortController();
    readContext(context.instanceUrl, context.auth, line, parsedQuery ? parsedNames : [], controller.signal).then(
      (data) => setCtx({ status: 'shown', data }),
      (error: unknown) => {
        if ((error as { name?: string })?.name !== 'AbortError') setCtx({ status: 'failed', error: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [ctx.status, context, line, parsedNames, parsedQuery]);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', py: '2', pl: '6' })}>
      {/* The row cuts the line at the list's edge; here it is whole (its trace ids are the buttons below). */}
      <p aria-label="The whole line" className={css({ whiteSpace: 'pre-wrap', wordBreak: 'break-all' })}>
        {line.line}
      </p>
      <FieldTable title="Labels" entries={streamLabels} source="stream" onFilter={onFilter} />
      <FieldTable title={parsed ? `Fields (${parsed.parser})` : 'Fields'} entries={fields} source="parsed" parser={parsed?.parser} onFilter={onFilter} />
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        {traces.map((id) => (
          <Button key={id} size="xs" variant="outline" onClick={() => onOpenTrace(id)}>
            Open trace {id}
          </Button>
        ))}
        {context && (
          <Button size="xs" variant="outline" loading={ctx.status === 'loading'} aria-expanded={ctx.status === 'shown'} onClick={() => setCtx(ctx.status === 'shown' ? { status: 'idle' } : { status: 'loading' })}>
            {ctx.status === 'shown' ? 'Hide context' : 'Show context'}
          </Button>
        )}
      </div>
      {ctx.status === 'failed' && <p className={css({ color: 'fg.error', textStyle: 'xs' })}>The context could not be read: {ctx.error}</p>}
      {ctx.status === 'shown' && ctx.data && (
        <section aria-label="Context" className={css({ borderLeftWidth: '2px', borderColor: 'border.default', pl: '2' })}>
          <ContextLines lines={ctx.data.before} label="Lines before" />
          <p
            ref={anchor}
            aria-current="true"
            aria-label="This line"
            className={css({ fontFamily: 'mono', textStyle: 'xs', fontWeight: 'semibold', whiteSpace: 'pre-wrap', wordBreak: 'break-all', bg: 'accent.a3', borderLeftWidth: '3px', borderColor: 'accent.default', pl: '1', my: '0.5' })}
          >
            <span className={css({ mr: '2' })}>{timeOf(line.tsNs, zone)}</span>
            {line.line}
          </p>
          <ContextLines lines={ctx.data.after} label="Lines after" />
        </section>
      )}
    </div>
  );
}

/** Reports the height of what it wraps (an opened row's details) as it changes. */
function Measured({ onHeight, children }: { onHeight: (height: number) => void; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const report = useRef(onHeight);
  report.current = onHeight;
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => report.current(element.offsetHeight);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return <div ref={box}>{children}</div>;
}

const ROW_CLASS = css({ display: 'flex', gap: '2', boxSizing: 'border-box', borderBottomWidth: '1px', borderColor: 'border.subtle', overflow: 'hidden' });

/** One row's line: one line high, or (wrapped, prettified) as high as it needs, measured. */
function Row({ tall, onHeight, children }: { tall: boolean; onHeight: (height: number) => void; children: ReactNode }) {
  if (!tall) {
    return (
      <div style={{ height: ROW_HEIGHT, alignItems: 'center' }} className={ROW_CLASS}>
        {children}
      </div>
    );
  }
  return (
    <Measured onHeight={onHeight}>
      <div style={{ minHeight: ROW_HEIGHT, alignItems: 'flex-start' }} className={ROW_CLASS}>
        {children}
      </div>
    </Measured>
  );
}

export function LogLines({ lines, label = 'Log lines', wrap = false, prettify = false, duplicates, ...rest }: LogLinesProps) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [heights, setHeights] = useState<Map<string, number>>(new Map());
  // What a wrapped or prettified row needs beyond one line, by line key.
  const [rowExtra, setRowExtra] = useState<Map<string, number>>(new Map());
  const tall = wrap || prettify;
  const zone = useTimeZone();
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(DEFAULT_VIEWPORT);
  const frame = useRef(0);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => setViewport(element.clientHeight || DEFAULT_VIEWPORT);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  // One state change per frame however fast the wheel turns.
  const onScroll = () => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      setScrollTop(scroller.current?.scrollTop ?? 0);
    });
  };
  const extra = useMemo(() => {
    const byIndex = new Map<number, number>();
    if (open.size > 0 || (tall && rowExtra.size > 0)) {
      lines.forEach((l, i) => {
        const add = (open.has(l.key) ? (heights.get(l.key) ?? 0) : 0) + (tall ? (rowExtra.get(l.key) ?? 0) : 0);
        if (add > 0) byIndex.set(i, add);
      });
    }
    return byIndex;
  }, [lines, open, heights, tall, rowExtra]);
  const setRowHeight = (key: string, height: number) =>
    setRowExtra((prev) => {
      const add = Math.max(0, height - ROW_HEIGHT);
      if ((prev.get(key) ?? 0) === add) return prev;
      const next = new Map(prev);
      if (add === 0) next.delete(key);
      else next.set(key, add);
      return next;
    });
  const shown = rowWindow({ count: lines.length, rowHeight: ROW_HEIGHT, extra, scrollTop, viewport, overscan: OVERSCAN });
  const toggle = (key: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const setHeight = (key: string, height: number) =>
    setHeights((prev) => {
      if (prev.get(key) === height) return prev;
      const next = new Map(prev);
      next.set(key, height);
      return next;
    });
  return (
    <div ref={scroller} onScroll={onScroll} data-lines={lines.length} className={css({ maxH: '70vh', overflowY: 'auto', overscrollBehavior: 'contain' })}>
      <ol
        aria-label={label}
        style={{ height: shown.total, paddingTop: shown.top }}
        className={css({ listStyle: 'none', p: '0', m: '0', fontFamily: 'mono', textStyle: 'xs', boxSizing: 'border-box' })}
      >
        {lines.slice(shown.start, shown.end).map((l, i) => {
          const expanded = open.has(l.key);
          const detailsId = `log-details-${l.key}`;
          return (
            <li key={l.key} data-level={l.level} aria-setsize={lines.length} aria-posinset={shown.start + i + 1}>
              <Row tall={tall} onHeight={(height) => setRowHeight(l.key, height)}>
                <span aria-hidden="true" style={{ background: LEVEL_COLOURS[l.level] }} className={css({ alignSelf: 'stretch', w: '1', flexShrink: 0, borderRadius: 'full' })} />
                <button
                  type="button"
                  aria-expanded={expanded}
                  aria-controls={expanded ? detailsId : undefined}
                  onClick={() => toggle(l.key)}
                  className={css({ whiteSpace: 'nowrap', color: 'fg.muted', cursor: 'pointer', _hover: { textDecoration: 'underline' } })}
                >
                  {/* The name holds the visible time (axe: the label must contain the visible text). */}
                  <span aria-hidden="true">{expanded ? '▾ ' : '▸ '}</span>
                  <span className="sr-only">{expanded ? 'Close' : 'Open'} the line of </span>
                  {timeOf(l.tsNs, zone)}
                  <span className="sr-only"> ({LEVEL_NAMES[l.level]})</span>
                </button>
                <span className={css({ w: '16', flexShrink: 0, fontWeight: 'semibold' })}>{LEVEL_NAMES[l.level]}</span>
                {(duplicates?.get(l.key) ?? 0) > 0 && (
                  <span className={css({ flexShrink: 0, px: '1', borderRadius: 'l1', bg: 'gray.a3', fontWeight: 'semibold' })} title={`${duplicates!.get(l.key)} duplicates folded into this line`}>
                    {duplicates!.get(l.key)! + 1}×<span className="sr-only"> ({duplicates!.get(l.key)} duplicates)</span>
                  </span>
                )}
                <span data-line-text="" className={css({ whiteSpace: wrap ? 'pre-wrap' : 'pre', wordBreak: wrap ? 'break-all' : 'normal', overflow: 'hidden', textOverflow: tall ? 'clip' : 'ellipsis', flex: '1', minW: '0' })}>
                  <LineText line={prettify ? prettyJson(l.line) : l.line} onOpenTrace={rest.onOpenTrace} />
                </span>
              </Row>
              {expanded && (
                <Measured onHeight={(height) => setHeight(l.key, height)}>
                  <div id={detailsId}>
                    <LineDetails line={l} {...rest} />
                  </div>
                </Measured>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
