import type { MetricsExpr } from './ast';
import { attributeValue, spanMatches, type EvalSpan, type EvalTrace, type Value } from './field-eval';
import { evaluatePipeline } from './evaluate';
import { MetricsUnsupported, stepCount, type Label, type MetricsWindow, type Series } from './metrics';

// TraceQL's `compare({filter}, topN, start, end)` as Tempo answers it (pkg/traceql/engine_metrics_compare.go, read
// for its semantics): every span the query's pipeline matches in the window is either in the *selection* (the filter
// holds for it and, when start and end are given, it starts in [start, end) — unix nanoseconds) or in the *baseline*
// (all the others). For each attribute the span carries, the count of spans per value and step goes into that group.
// The answer, per group and attribute, is the topN values by their count over the whole window
// (`__meta_type` = `baseline` / `selection` with the attribute's label and value), the per-attribute totals
// (`baseline_total` / `selection_total`, the attribute's label with value nil), and, for an attribute with more than
// topN values in either group, a series `__meta_error` = `__too_many_values__` without samples, which Grafana's
// comparison view reads as "values left out".
//
// Which attributes a span carries: its span attributes (`span.x`), its resource attributes (`resource.x`, with the
// service name from its column when the resource has none, as Zipkin spans do), and the intrinsics `name`, `status`,
// `statusMessage` and `kind`, with the trace's `rootName` and `rootServiceName` (when its root span is in the range).
// As in Tempo, durations are left out (their cardinality is useless), as are the start time and trace id.

const META_TYPE = '__meta_type';
const META_ERROR = '__meta_error';
const TOO_MANY = '__too_many_values__';

interface Counts {
  value: Value;
  counts: number[];
}

/** attribute label → value key → counts, and attribute label → totals. */
interface Group {
  values: Map<string, Map<string, Counts>>;
  totals: Map<string, number[]>;
}

const valueKey = (v: Value) => JSON.stringify(v ? [v.t, v.v] : null);

/** The attributes Tempo's compare() groups a span by, as (label, value). */
export function compareAttributes(span: EvalSpan, trace: EvalTrace): [string, Value][] {
  const out: [string, Value][] = [];
  for (const name of span.attributes.keys()) out.push([`span.${name}`, attributeValue({ scope: 'span', name }, span, trace, {})]);
  for (const name of span.resource.keys()) out.push([`resource.${name}`, attributeValue({ scope: 'resource', name }, span, trace, {})]);
  if (!span.resource.has('service.name') && span.service) out.push(['resource.service.name', { t: 'string', v: span.service }]);
  out.push(['name', { t: 'string', v: span.name }], ['status', { t: 'status', v: span.status }], ['statusMessage', { t: 'string', v: span.statusMessage }], ['kind', { t: 'kind', v: span.kind }]);
  if (trace.root) out.push(['rootName', { t: 'string', v: trace.root.name }], ['rootServiceName', { t: 'string', v: trace.root.service }]);
  return out;
}

function observe(group: Group, attrs: [string, Value][], i: number, n: number): void {
  for (const [label, value] of attrs) {
    let values = group.values.get(label);
    if (!values) group.values.set(label, (values = new Map()));
    const key = valueKey(value);
    let entry = values.get(key);
    if (!entry) values.set(key, (entry = { value, counts: Array(n).fill(0) }));
    entry.counts[i]++;
    let totals = group.totals.get(label);
    if (!totals) group.totals.set(label, (totals = Array(n).fill(0)));
    totals[i]++;
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The series of `{…} | compare(…)` over the spans of the given traces. */
export function compareSeries(expr: Extract<MetricsExpr, { kind: 'metrics' }>, traces: EvalTrace[], w: MetricsWindow): Series[] {
  const { fn } = expr;
  if (fn.fn !== 'compare') throw new Error('compareSeries needs compare()');
  if (fn.filter.kind !== 'filter') throw new MetricsUnsupported('compare() takes a spanset filter');
  const filter = fn.filter.expr;
  // Tempo windows the selection only when both bounds are given (validation refuses one without the other).
  const { start = 0n, end = 0n } = fn;
  const windowed = start > 0n && end > 0n;
  const n = stepCount(w);
  const baseline: Group = { values: new Map(), totals: new Map() };
  const selection: Group = { values: new Map(), totals: new Map() };
  for (const trace of traces) {
    const matched = new Set<EvalSpan>(evaluatePipeline(expr.pipeline, trace).flatMap((s) => s.spans));
    for (const span of matched) {
      if (span.startNs < w.startNs || span.startNs >= w.endNs) continue;
      const i = Number((span.startNs - w.startNs) / w.stepNs);
      const inWindow = !windowed || (span.startNs >= start && span.startNs < end);
      const selected = inWindow && spanMatches(filter, span, trace);
      observe(selected ? selection : baseline, compareAttributes(span, trace), i, n);
    }
  }
  const out: Series[] = [];
  const tooMany = new Set<string>();
  const meta = (type: string): Label => [META_TYPE, { t: 'string', v: type }];
  for (const [type, group] of [['baseline', baseline], ['selection', selection]] as const) {
    for (const [label, values] of group.values) {
      // The topN values by their count over the window, as Tempo ranks them (the order among equal counts is not
      // defined there either).
      const ranked = [...values.values()].map((c) => ({ c, total: sum(c.counts) })).sort((a, b) => b.total - a.total);
      for (const { c } of ranked.slice(0, fn.topN)) out.push({ labels: [meta(type), [label, c.value]], values: c.counts });
      if (values.size > fn.topN) tooMany.add(label);
    }
  }
  for (const label of tooMany) out.push({ labels: [[META_ERROR, { t: 'string', v: TOO_MANY }], [label, undefined]], values: Array(n).fill(NaN) });
  for (const [type, group] of [['baseline_total', baseline], ['selection_total', selection]] as const) {
    for (const [label, totals] of group.totals) out.push({ labels: [meta(type), [label, undefined]], values: totals });
  }
  return out;
}
