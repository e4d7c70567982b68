// Trace → logs: a span's "Logs for this span" and the LogQL query it opens (in the explorer's other pane), as
// Grafana's trace-to-logs builds it. The query names the stream by the trace id label when the instance's logs carry
// one (trace_id, traceID, traceId), else by the span's service: the first label among the service's usual names and
// its resource attributes written as labels (service.name → service_name) whose values hold the span's value, then
// keeps the lines that contain the trace id. The waterfall (traces/) is another chunk: it reaches the pane through a
// context, so that it needs no prop at every level.
import { createContext, useContext } from 'react';
import { Button } from '../../../../components/ui/button';
import type { TraceSpan } from '../../../../services/qryn-traces';
import type { LabelSource } from '../editor/label-source';

export type SpanForLogs = Pick<TraceSpan, 'service' | 'resource'> & { traceId: string };

const TRACE_ID_LABELS = ['trace_id', 'traceID', 'traceId'];
const SERVICE_LABELS = ['service_name', 'service', 'app', 'application', 'job', 'component'];

const quoted = (value: string) => JSON.stringify(value);
const asLabel = (attribute: string) => attribute.replace(/[^A-Za-z0-9_]/g, '_');

/** The LogQL query of a span's logs; without labels to go by (the reads failed), `{service_name="<service>"}`. */
export async function spanLogsQuery(span: SpanForLogs, labels: LabelSource): Promise<string> {
  const names = await labels.names().catch(() => [] as string[]);
  const traceLabel = TRACE_ID_LABELS.find((n) => names.includes(n));
  if (traceLabel) return `{${traceLabel}=${quoted(span.traceId)}}`;
  const candidates: [string, string][] = [
    ...SERVICE_LABELS.map((n): [string, string] => [n, span.service]),
    ...span.resource.map(([k, v]): [string, string] => [asLabel(k), v]),
  ].filter(([n, v]) => v !== '' && names.includes(n));
  for (const [name, value] of candidates) {
    const values = await labels.values(name).catch(() => [] as string[]);
    if (values.includes(value)) return `{${name}=${quoted(value)}} |= ${quoted(span.traceId)}`;
  }
  return `{service_name=${quoted(span.service)}} |= ${quoted(span.traceId)}`;
}

/** What opens a span's logs; absent outside the explorer's pane (then the button is not shown). */
export const SpanLogs = createContext<((span: TraceSpan) => void) | null>(null);

export function SpanLogsButton({ span }: { span: TraceSpan }) {
  const open = useContext(SpanLogs);
  if (!open) return null;
  return (
    <Button size="xs" variant="outline" aria-label={`Logs for this span (${span.service}: ${span.name})`} onClick={() => open(span)}>
      Logs for this span
    </Button>
  );
}
