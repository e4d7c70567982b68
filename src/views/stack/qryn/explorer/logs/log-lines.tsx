// Log lines, newest first, coloured by level. A row's toggle button (keyboard: Tab then Enter/Space) opens its
// labels and parsed fields with "filter for / filter out value", and "show context" (the lines around it in its
// stream, read on demand). Trace ids in a line are links that open the trace.
import { useEffect, useMemo, useState } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../../../../components/ui/button';
import { parseLineFields, readContext, splitTraceIds, traceIdsOf, type FilterEdit, type LogContext, type LogLine } from '../../../../../services/qryn-logs';
import { LEVEL_COLOURS, LEVEL_NAMES } from './log-levels';

export interface LogLinesProps {
  lines: LogLine[];
  /** The explorer's log query: which labels a parser added, and where filters go. */
  parsedQuery: boolean;
  onFilter: (edit: FilterEdit) => void;
  onOpenTrace: (traceId: string) => void;
  /** Reads the lines around one (show context); absent in the live tail. */
  context?: { instanceUrl: string; auth: string };
  label?: string;
}

const timeOf = (tsNs: string) => {
  const ns = BigInt(tsNs);
  const ms = Number(ns / 1_000_000n);
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
};

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
  if (lines.length === 0) return <p className={css({ textStyle: 'xs', color: 'fg.muted' })}>No lines {label.toLowerCase()} in this stream within two hours.</p>;
  return (
    <ol aria-label={label} className={css({ fontFamily: 'mono', textStyle: 'xs', color: 'fg.muted', listStyle: 'none', p: '0', m: '0' })}>
      {lines.map((l) => (
        <li key={l.key} className={css({ whiteSpace: 'pre-wrap', wordBreak: 'break-all' })}>
          <span className={css({ mr: '2' })}>{timeOf(l.tsNs)}</span>
          {l.line}
        </li>
      ))}
    </ol>
  );
}

function LineDetails({ line, parsedQuery, onFilter, onOpenTrace, context }: { line: LogLine } & Omit<LogLinesProps, 'lines' | 'label'>) {
  const parsed = useMemo(() => parseLineFields(line.line), [line.line]);
  const parsedNames = useMemo(() => (parsed ? Object.keys(parsed.fields) : []), [parsed]);
  // With a parser in the query the instance answers parsed fields as labels; they are listed as fields here.
  const streamLabels = Object.entries(line.labels)
    .filter(([k]) => k !== '__error__' && k !== '__error_details__' && !(parsedQuery && parsedNames.includes(k)))
    .sort(([a], [b]) => a.localeCompare(b));
  const fields = parsed ? Object.entries(parsed.fields) : [];
  const traces = traceIdsOf(line.line, { ...line.labels, ...(parsed?.fields ?? {}) });
  const [ctx, setCtx] = useState<{ status: 'idle' | 'loading' | 'shown' | 'failed'; data?: LogContext; error?: string }>({ status: 'idle' });
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
          <p className={css({ fontFamily: 'mono', textStyle: 'xs', fontWeight: 'semibold', whiteSpace: 'pre-wrap', wordBreak: 'break-all' })} aria-label="This line">
            <span className={css({ mr: '2' })}>{timeOf(line.tsNs)}</span>
            {line.line}
          </p>
          <ContextLines lines={ctx.data.after} label="Lines after" />
        </section>
      )}
    </div>
  );
}

export function LogLines({ lines, label = 'Log lines', ...rest }: LogLinesProps) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  return (
    <ol aria-label={label} className={css({ listStyle: 'none', p: '0', m: '0', fontFamily: 'mono', textStyle: 'xs' })}>
      {lines.map((l) => {
        const expanded = open.has(l.key);
        const detailsId = `log-details-${l.key}`;
        return (
          <li key={l.key} data-level={l.level} className={css({ borderBottomWidth: '1px', borderColor: 'border.subtle' })}>
            <div className={css({ display: 'flex', gap: '2', alignItems: 'baseline', py: '0.5' })}>
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
                {timeOf(l.tsNs)}
                <span className="sr-only"> ({LEVEL_NAMES[l.level]})</span>
              </button>
              <span className={css({ w: '16', flexShrink: 0, fontWeight: 'semibold' })}>
                {LEVEL_NAMES[l.level]}
              </span>
              <span className={css({ whiteSpace: 'pre-wrap', wordBreak: 'break-all', flex: '1' })}>
                <LineText line={l.line} onOpenTrace={rest.onOpenTrace} />
              </span>
            </div>
            {expanded && (
              <div id={detailsId}>
                <LineDetails line={l} {...rest} />
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
