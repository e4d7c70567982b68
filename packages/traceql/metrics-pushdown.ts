import { refText, type MetricsExpr } from './ast';
import { spansetRowSql, type SpanTable } from './clickhouse';
import type { Value } from './field-eval';
import { applySecond, stepCount, type MetricsWindow, type Series } from './metrics';

// The part of TraceQL metrics ClickHouse answers whole: rate() and count_over_time() of one spanset expression whose
// spans one condition on a span row selects exactly (clickhouse.ts's spansetRowSql: filters, `&&`, `||` and the
// parent/child relations), optionally by the span's name, status, kind or resource.service.name. Every span is counted
// once in its step interval, so one GROUP BY over (interval, group) is the answer; the evaluator gives the same
// numbers from the spans (tests/qryn/traceql-metrics.test.ts runs both).

export interface CountPushdown {
  /** The condition on span rows. */
  where: string;
  /** The SQL of the group value (a constant without by()). */
  group: string;
  /** The series from the (interval, group, count) rows. */
  series(rows: { step: number; group: string; count: number }[]): Series[];
}

const STATUS = ['unset', 'ok', 'error'] as const;

export function countPushdown(expr: Extract<MetricsExpr, { kind: 'metrics' }>, table: SpanTable, w: MetricsWindow): CountPushdown | null {
  if (expr.fn.fn !== 'rate' && expr.fn.fn !== 'count_over_time') return null;
  const fn = expr.fn.fn;
  if (expr.pipeline.stages.length !== 1) return null;
  const stage = expr.pipeline.stages[0];
  if (stage.kind !== 'spanset') return null;
  const where = spansetRowSql(stage.expr, table);
  if (where === null) return null;
  if (expr.by.length > 1) return null;
  const by = expr.by[0];
  let group = "''";
  let label: (g: string) => Value = () => ({ t: 'string', v: fn });
  let key = '__name__';
  if (by) {
    if (by.kind !== 'attribute') return null;
    const ref = by.ref;
    key = refText(ref);
    if (ref.scope === 'intrinsic' && ref.name === 'name') {
      group = 'name';
      label = (g) => ({ t: 'string', v: g });
    } else if (ref.scope === 'intrinsic' && ref.name === 'status') {
      group = 'toString(status_code)';
      label = (g) => ({ t: 'status', v: STATUS[Number(g)] ?? 'unset' });
    } else if (ref.scope === 'intrinsic' && ref.name === 'kind') {
      group = 'kind';
      label = (g) => ({ t: 'kind', v: (g || 'UNSPECIFIED').toLowerCase() as 'server' });
    } else if (ref.scope === 'resource' && ref.name === 'service.name' && !ref.parent) {
      group = 'service_name';
      label = (g) => (g === '' ? undefined : { t: 'string', v: g });
    } else return null;
  }
  const n = stepCount(w);
  const stepSeconds = Number(w.stepNs) / 1e9;
  return {
    where,
    group,
    series(rows) {
      const byGroup = new Map<string, number[]>();
      for (const row of rows) {
        if (row.step < 0 || row.step >= n) continue;
        const values = byGroup.get(row.group) ?? Array<number>(n).fill(0);
        values[row.step] += row.count;
        byGroup.set(row.group, values);
      }
      const series = [...byGroup.entries()].map(([g, counts]): Series => ({
        labels: [[key, label(g)]],
        values: fn === 'rate' ? counts.map((c) => c / stepSeconds) : counts,
      }));
      return applySecond(series, expr.second);
    },
  };
}
