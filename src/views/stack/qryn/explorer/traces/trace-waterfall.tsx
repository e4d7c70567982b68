// One trace as a waterfall: spans nested by parent (nested lists, so assistive technology hears the nesting), each
// with a bar on the trace's shared time axis coloured by service; a span's button (Tab, Enter/Space) opens its
// attributes, resource and events (each event's time after the span's start, name and attributes; a tick on the bar).
import { useMemo, useState } from 'react';
import { css } from 'styled-system/css';
import { formatDuration, layoutWaterfall, type TraceSpan, type Waterfall, type WaterfallRow } from '../../../../../services/qryn-traces';
import { SpanLogsButton } from '../span-logs';

// Service colours: Radix step 9 of distinct hues, with fixed fallbacks.
const SERVICE_COLOURS = [
  'var(--colors-blue-9, #0090ff)',
  'var(--colors-green-9, #30a46c)',
  'var(--colors-orange-9, #f76b15)',
  'var(--colors-purple-9, #8e4ec6)',
  'var(--colors-cyan-9, #00a2c7)',
  'var(--colors-pink-9, #d6409f)',
  'var(--colors-amber-9, #ffc53d)',
  'var(--colors-teal-9, #12a594)',
];
export const serviceColour = (index: number) => SERVICE_COLOURS[index % SERVICE_COLOURS.length];

function Attributes({ title, entries }: { title: string; entries: [string, string][] }) {
  return (
    <table aria-label={title} className={css({ textStyle: 'xs', '& th, & td': { pr: '3', py: '0.5', textAlign: 'left', verticalAlign: 'top' }, '& td': { fontFamily: 'mono', wordBreak: 'break-all' } })}>
      <caption className={css({ textAlign: 'left', fontWeight: 'semibold', py: '1' })}>{title}</caption>
      <tbody>
        {entries.length === 0 ? (
          <tr>
            <td>none</td>
          </tr>
        ) : (
          entries.map(([k, v], i) => (
            <tr key={`${k}-${i}`}>
              <th scope="row" className={css({ fontFamily: 'mono', fontWeight: 'normal' })}>
                {k}
              </th>
              <td>{v}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

function SpanDetails({ span }: { span: TraceSpan }) {
  return (
    <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '6', py: '2', pl: '4' })}>
      <Attributes
        title="Span"
        entries={[
          ['span id', span.spanId],
          ['parent span id', span.parentSpanId ?? ''],
          ['kind', span.kind],
          ['status', span.status],
          ['start', new Date(span.startMs).toISOString()],
          ['duration', formatDuration(span.durationMs)],
        ]}
      />
      <Attributes title="Span attributes" entries={span.attributes} />
      <Attributes title="Resource attributes" entries={span.resource} />
      <SpanEvents span={span} />
      <SpanLogsButton span={span} />
    </div>
  );
}

/** A span's events in time order: when (after the span's start), what, and the event's own attributes. */
function SpanEvents({ span }: { span: TraceSpan }) {
  if (span.events.length === 0) return <p className={css({ textStyle: 'xs', color: 'fg.muted' })}>No events on this span.</p>;
  const events = [...span.events].sort((a, b) => a.offsetMs - b.offsetMs);
  return (
    <section aria-label="Events" className={css({ textStyle: 'xs', minW: '16rem' })}>
      <p className={css({ fontWeight: 'semibold', py: '1' })}>Events ({events.length})</p>
      <ol className={css({ listStyle: 'none', p: '0', m: '0', display: 'flex', flexDirection: 'column', gap: '1' })}>
        {events.map((e, i) => {
          const when = `+${formatDuration(e.offsetMs)}`;
          return (
            <li key={`${e.offsetMs}-${e.name}-${i}`}>
              <span className={css({ fontFamily: 'mono', color: 'fg.muted', pr: '2' })}>{when}</span>
              <span className={css({ fontFamily: 'mono' })}>{e.name || '(unnamed)'}</span>
              {e.attributes.length > 0 && (
                <table aria-label={`Attributes of ${e.name || 'the event'} at ${when}`} className={css({ ml: '4', '& th, & td': { pr: '3', textAlign: 'left', verticalAlign: 'top', fontFamily: 'mono', fontWeight: 'normal' }, '& td': { wordBreak: 'break-all' } })}>
                  <tbody>
                    {e.attributes.map(([k, v], j) => (
                      <tr key={`${k}-${j}`}>
                        <th scope="row">{k}</th>
                        <td>{v}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function SpanItem({ row, rowsById, open, toggle, waterfall }: { row: WaterfallRow; rowsById: Map<string, WaterfallRow>; open: Set<string>; toggle: (id: string) => void; waterfall: Waterfall }) {
  const { span } = row;
  const expanded = open.has(span.spanId);
  const colour = serviceColour(row.serviceIndex);
  const offsetMs = span.startMs - waterfall.startMs;
  const eventCount = span.events.length;
  return (
    <li>
      <div className={css({ display: 'grid', gridTemplateColumns: 'minmax(14rem, 2fr) 3fr', gap: '2', alignItems: 'center', py: '0.5', _hover: { bg: 'gray.a2' } })}>
        <button
          type="button"
          aria-expanded={expanded}
          // The name starts with the visible "service: name error" (axe's label-content-name-mismatch) and adds what the
          // bar shows; a label, not hidden text, because browsers put spaces around hidden blocks in names.
          aria-label={`${span.service}: ${span.name}${span.status === 'error' ? ', error' : ''}, ${formatDuration(span.durationMs)}, starts at +${formatDuration(offsetMs)}${row.children.length ? `, ${row.children.length} child ${row.children.length === 1 ? 'span' : 'spans'}` : ''}${eventCount ? `, ${eventCount} ${eventCount === 1 ? 'event' : 'events'}` : ''}`}
          onClick={() => toggle(span.spanId)}
          style={{ paddingLeft: `${row.depth * 1}rem` }}
          className={css({ textAlign: 'left', cursor: 'pointer', textStyle: 'xs', display: 'flex', gap: '1', alignItems: 'baseline', overflow: 'hidden', whiteSpace: 'nowrap' })}
        >
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
          <span aria-hidden="true" style={{ background: colour }} className={css({ display: 'inline-block', w: '2', h: '2', borderRadius: 'full', flexShrink: 0 })} />
          <span className={css({ overflow: 'hidden', textOverflow: 'ellipsis' })}>
            <strong>{span.service}:</strong> {span.name}
            {span.status === 'error' && <span className={css({ color: 'fg.error' })}>{' error'}</span>}
          </span>
        </button>
        <div aria-hidden="true" className={css({ position: 'relative', h: '4' })}>
          <div
            style={{ left: `${row.offset * 100}%`, width: `max(2px, ${row.width * 100}%)`, background: colour }}
            className={css({ position: 'absolute', top: '0.5', bottom: '0.5', borderRadius: 'l1' })}
          />
          {/* A tick per event on the bar, where it happened on the trace's axis (the list in the details names them). */}
          {span.events.map((e, i) => (
            <span
              key={i}
              data-event-marker=""
              style={{ left: `${Math.min(1, Math.max(0, waterfall.durationMs > 0 ? row.offset + e.offsetMs / waterfall.durationMs : row.offset)) * 100}%` }}
              className={css({ position: 'absolute', top: '0', bottom: '0', w: '2px', ml: '-1px', bg: 'fg.default', borderRadius: 'full' })}
            />
          ))}
          <span style={{ left: `min(${(row.offset + row.width) * 100}%, calc(100% - 4rem))` }} className={css({ position: 'absolute', top: '0', pl: '1', textStyle: 'xs', color: 'fg.muted', whiteSpace: 'nowrap' })}>
            {formatDuration(span.durationMs)}
          </span>
        </div>
      </div>
      {expanded && <SpanDetails span={span} />}
      {row.children.length > 0 && (
        <ul className={css({ listStyle: 'none', p: '0', m: '0' })}>
          {row.children.map((id) => {
            const child = rowsById.get(id);
            return child ? <SpanItem key={id} row={child} rowsById={rowsById} open={open} toggle={toggle} waterfall={waterfall} /> : null;
          })}
        </ul>
      )}
    </li>
  );
}

export function TraceWaterfall({ traceId, spans }: { traceId: string; spans: TraceSpan[] }) {
  const waterfall = useMemo(() => layoutWaterfall(spans), [spans]);
  const rowsById = useMemo(() => new Map(waterfall.rows.map((r) => [r.span.spanId, r])), [waterfall]);
  const roots = waterfall.rows.filter((r) => r.depth === 0);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <section aria-label={`Trace ${traceId}`} className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <p className={css({ textStyle: 'sm' })}>
        Trace <code>{traceId}</code>: {spans.length} {spans.length === 1 ? 'span' : 'spans'} in {waterfall.services.length} {waterfall.services.length === 1 ? 'service' : 'services'}, {formatDuration(waterfall.durationMs)}, started {new Date(waterfall.startMs).toISOString()}.
      </p>
      <ul aria-label="Services" className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', listStyle: 'none', p: '0', m: '0', textStyle: 'xs' })}>
        {waterfall.services.map((s, i) => (
          <li key={s} className={css({ display: 'inline-flex', gap: '1', alignItems: 'center' })}>
            <span aria-hidden="true" style={{ background: serviceColour(i) }} className={css({ display: 'inline-block', w: '2.5', h: '2.5', borderRadius: 'full' })} />
            {s}
          </li>
        ))}
      </ul>
      <div aria-hidden="true" className={css({ display: 'grid', gridTemplateColumns: 'minmax(14rem, 2fr) 3fr', gap: '2', textStyle: 'xs', color: 'fg.muted' })}>
        <span>Service and span</span>
        <div className={css({ position: 'relative', h: '4' })}>
          {ticks.map((t) => (
            <span key={t} style={{ left: `${t * 100}%`, transform: t === 1 ? 'translateX(-100%)' : t > 0 ? 'translateX(-50%)' : undefined }} className={css({ position: 'absolute', whiteSpace: 'nowrap' })}>
              {formatDuration(waterfall.durationMs * t)}
            </span>
          ))}
        </div>
      </div>
      <ul aria-label="Spans" className={css({ listStyle: 'none', p: '0', m: '0' })}>
        {roots.map((row) => (
          <SpanItem key={row.span.spanId} row={row} rowsById={rowsById} open={open} toggle={toggle} waterfall={waterfall} />
        ))}
      </ul>
    </section>
  );
}
