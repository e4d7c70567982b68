import { compileRe2 } from '../../re2-pattern/re2-pattern';
import { goExpandMatch } from '../../re2-pattern/go-expand';
import type { Grouping, MetricExpr } from '../syntax/ast';
import { LogQLQueryError } from './errors';
import { compareLabels } from '../../labels/compare-labels';
import { labelsKey, type Labels } from './labels';
import type { StepSample, StepValue } from './metric-value';
import { populationVariance } from './range-aggregation';
import { ownLabel } from '../../labels/own-label';
// Vector aggregations (sum, avg, min, max, count, stddev, stdvar, topk, bottomk, sort, sort_desc) by or without
// labels, and label_replace, over one step's samples at a time (Prometheus' semantics, which Loki follows).

function groupKey(labels: Labels, g: Grouping | undefined): { key: string; labels: Labels } {
  const out: Labels = {};
  if (!g) return { key: '', labels: out };
  if (g.without) {
    const drop = new Set(g.labels);
    for (const [n, v] of Object.entries(labels)) if (!drop.has(n)) out[n] = v;
  } else for (const n of g.labels) if (ownLabel(labels, n) !== undefined && labels[n] !== '') out[n] = labels[n];
  return { key: labelsKey(out), labels: out };
}

/** A vector aggregation of one step's samples; `instant`: the query has one step, whose answer may be ordered. */
export function vectorAggregation(e: Extract<MetricExpr, { kind: 'vector_agg' }>, input: StepSample[], instant: boolean): StepValue {
  if (e.op === 'sort' || e.op === 'sort_desc') {
    // Only an instant answer has an order; a matrix is ordered by labels anyway.
    if (!instant) return { kind: 'vector', samples: input };
    const sign = e.op === 'sort' ? 1 : -1;
    const present = [...input].sort((a, b) => {
      const x = a.value;
      const y = b.value;
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
      return (x - y) * sign || compareLabels(a.labels, b.labels);
    });
    return { kind: 'vector', samples: present, ordered: true };
  }
  if (e.op === 'topk' || e.op === 'bottomk') return { kind: 'vector', samples: topk(e, input, instant) };
  const groups = new Map<string, { labels: Labels; values: number[] }>();
  // In label order, so that sums of fractions come out the same whatever order the store answered in.
  for (const s of [...input].sort((a, b) => compareLabels(a.labels, b.labels))) {
    const { key, labels } = groupKey(s.labels, e.grouping);
    let g = groups.get(key);
    if (!g) {
      g = { labels, values: [] };
      groups.set(key, g);
    }
    g.values.push(s.value);
  }
  const samples: StepSample[] = [];
  for (const { labels, values: vs } of groups.values()) {
    const value = aggregate(e.op, vs);
    if (value !== undefined) samples.push({ labels, value });
  }
  return { kind: 'vector', samples };
}

function aggregate(op: Extract<MetricExpr, { kind: 'vector_agg' }>['op'], vs: number[]): number | undefined {
  const sum = vs.reduce((a, v) => a + v, 0);
  switch (op) {
    case 'sum':
      return sum;
    case 'avg':
      return sum / vs.length;
    case 'min':
      return vs.reduce((a, v) => (v < a || Number.isNaN(a) ? v : a));
    case 'max':
      return vs.reduce((a, v) => (v > a || Number.isNaN(a) ? v : a));
    case 'count':
      return vs.length;
    case 'stdvar':
      return populationVariance(vs);
    case 'stddev':
      return Math.sqrt(populationVariance(vs));
    default:
      return undefined;
  }
}

/** topk / bottomk of one step: the k best of each group, in input order (an instant query's in rank order). */
function topk(e: Extract<MetricExpr, { kind: 'vector_agg' }>, input: StepSample[], instant: boolean): StepSample[] {
  const k = e.param!;
  const groups = new Map<string, number[]>();
  input.forEach((s, idx) => {
    const { key } = groupKey(s.labels, e.grouping ?? { without: false, labels: [] });
    const list = groups.get(key) ?? [];
    list.push(idx);
    groups.set(key, list);
  });
  const kept = new Array<boolean>(input.length).fill(false);
  for (const list of groups.values()) {
    list.sort((a, b) => {
      const x = input[a].value;
      const y = input[b].value;
      if (x !== y && !(Number.isNaN(x) && Number.isNaN(y))) {
        if (Number.isNaN(x)) return 1;
        if (Number.isNaN(y)) return -1;
        return e.op === 'topk' ? y - x : x - y;
      }
      return compareLabels(input[a].labels, input[b].labels);
    });
    for (const idx of list.slice(0, k)) kept[idx] = true;
  }
  const out = input.filter((_, idx) => kept[idx]);
  if (instant) {
    // An instant topk answers in rank order.
    out.sort((a, b) => (a.value !== b.value ? (e.op === 'topk' ? b.value - a.value : a.value - b.value) : compareLabels(a.labels, b.labels)));
  }
  return out;
}

/** label_replace over one step's samples: two samples that end up with one label set fail the query. */
export function labelReplace(input: StepSample[], e: Extract<MetricExpr, { kind: 'label_replace' }>, re: ReturnType<typeof compileRe2>): StepSample[] {
  const byKey = new Map<string, StepSample>();
  for (const s of input) {
    const src = ownLabel(s.labels, e.src) ?? '';
    const replaced = goExpandMatch(re, src, e.replacement);
    let labels = s.labels;
    if (replaced !== undefined) {
      labels = { ...s.labels };
      if (replaced === '') delete labels[e.dst];
      else labels[e.dst] = replaced;
    }
    const key = labelsKey(labels);
    if (byKey.has(key)) throw new LogQLQueryError('vector cannot contain metrics with the same labelset');
    byKey.set(key, { labels, value: s.value });
  }
  return [...byKey.values()];
}
