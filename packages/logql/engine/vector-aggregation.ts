import { compileRe2 } from '../../re2-pattern/re2-pattern';
import { goExpandMatch } from '../log/go-regexp';
import type { Grouping, MetricExpr } from '../syntax/ast';
import { LogQLQueryError } from './errors';
import { compareLabels, labelsKey, type Labels } from './labels';
import type { Ctx, Series, Value } from './metric-value';
import { populationVariance } from './range-aggregation';
import { ownLabel } from '../../labels/own-label';
// Vector aggregations (sum, avg, min, max, count, stddev, stdvar, topk, bottomk, sort, sort_desc) by or without
// labels, and label_replace, step by step over their input (Prometheus' semantics, which Loki follows).

function groupKey(labels: Labels, g: Grouping | undefined): { key: string; labels: Labels } {
  const out: Labels = {};
  if (!g) return { key: '', labels: out };
  if (g.without) {
    const drop = new Set(g.labels);
    for (const [n, v] of Object.entries(labels)) if (!drop.has(n)) out[n] = v;
  } else for (const n of g.labels) if (ownLabel(labels, n) !== undefined && labels[n] !== '') out[n] = labels[n];
  return { key: labelsKey(out), labels: out };
}

export function vectorAggregation(ctx: Ctx, e: Extract<MetricExpr, { kind: 'vector_agg' }>, input: Series[]): Value {
  const n = ctx.steps.length;
  if (e.op === 'sort' || e.op === 'sort_desc') {
    // Only an instant answer has an order; a matrix is ordered by labels anyway.
    if (n === 1) {
      const sign = e.op === 'sort' ? 1 : -1;
      const present = input.filter((s) => s.values[0] !== undefined);
      present.sort((a, b) => {
        const x = a.values[0]!;
        const y = b.values[0]!;
        if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
        return (x - y) * sign || compareLabels(a.labels, b.labels);
      });
      return { kind: 'vector', series: present, ordered: true };
    }
    return { kind: 'vector', series: input };
  }
  if (e.op === 'topk' || e.op === 'bottomk') {
    const k = e.param!;
    const out = input.map((s) => ({ labels: s.labels, values: new Array<number | undefined>(n).fill(undefined) }));
    for (let i = 0; i < n; i++) {
      const groups = new Map<string, number[]>();
      input.forEach((s, idx) => {
        if (s.values[i] === undefined) return;
        const { key } = groupKey(s.labels, e.grouping ?? { without: false, labels: [] });
        const list = groups.get(key) ?? [];
        list.push(idx);
        groups.set(key, list);
      });
      for (const list of groups.values()) {
        list.sort((a, b) => {
          const x = input[a].values[i]!;
          const y = input[b].values[i]!;
          if (x !== y && !(Number.isNaN(x) && Number.isNaN(y))) {
            if (Number.isNaN(x)) return 1;
            if (Number.isNaN(y)) return -1;
            return e.op === 'topk' ? y - x : x - y;
          }
          return compareLabels(input[a].labels, input[b].labels);
        });
        for (const idx of list.slice(0, k)) out[idx].values[i] = input[idx].values[i];
      }
    }
    if (n === 1) {
      // An instant topk answers in rank order.
      const ranked = out.filter((s) => s.values[0] !== undefined);
      ranked.sort((a, b) => {
        const x = a.values[0]!;
        const y = b.values[0]!;
        return x !== y ? (e.op === 'topk' ? y - x : x - y) : compareLabels(a.labels, b.labels);
      });
      return { kind: 'vector', series: ranked };
    }
    return { kind: 'vector', series: out };
  }
  const groups = new Map<string, { labels: Labels; acc: number[][] }>();
  // In label order, so that sums of fractions come out the same whatever order the store answered in.
  for (const s of [...input].sort((a, b) => compareLabels(a.labels, b.labels))) {
    const { key, labels } = groupKey(s.labels, e.grouping);
    let g = groups.get(key);
    if (!g) {
      g = { labels, acc: Array.from({ length: n }, () => [] as number[]) };
      groups.set(key, g);
    }
    for (let i = 0; i < n; i++) {
      const v = s.values[i];
      if (v === undefined) continue;
      g.acc[i].push(v);
    }
  }
  const series: Series[] = [];
  for (const g of groups.values()) {
    series.push({
      labels: g.labels,
      values: g.acc.map((vs) => {
        if (vs.length === 0) return undefined;
        const sum = vs.reduce((a, v) => a + v, 0);
        switch (e.op) {
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
      }),
    });
  }
  return { kind: 'vector', series };
}

export function labelReplace(input: Series[], e: Extract<MetricExpr, { kind: 'label_replace' }>): Series[] {
  const re = compileRe2(`^(?:${e.regex})$`);
  const byKey = new Map<string, Series>();
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
    const prev = byKey.get(key);
    if (prev) {
      for (let i = 0; i < s.values.length; i++) {
        if (s.values[i] !== undefined && prev.values[i] !== undefined) throw new LogQLQueryError('vector cannot contain metrics with the same labelset');
        if (s.values[i] !== undefined) prev.values[i] = s.values[i];
      }
    } else byKey.set(key, { labels, values: [...s.values] });
  }
  return [...byKey.values()];
}
