import type { BinaryOp, MetricExpr } from '../syntax/ast';
import { LogQLQueryError } from './errors';
import { labelsKey, labelsString, type Labels } from './labels';
import type { Ctx, Series, Value } from './metric-value';
import { ownLabel } from '../../labels/own-label';

// Binary operators between metric values (Prometheus' semantics, which Loki follows): scalar–scalar, vector–scalar,
// set operators (and, or, unless), and one-to-one or many-to-one matching with on/ignoring and group_left/right.

const COMPARISON = new Set<BinaryOp>(['==', '!=', '>', '>=', '<', '<=']);

function arith(op: BinaryOp, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    case '^':
      return a ** b;
    case '==':
      return a === b ? 1 : 0;
    case '!=':
      return a !== b ? 1 : 0;
    case '>':
      return a > b ? 1 : 0;
    case '>=':
      return a >= b ? 1 : 0;
    case '<':
      return a < b ? 1 : 0;
    case '<=':
      return a <= b ? 1 : 0;
    default:
      return NaN;
  }
}

export function binary(ctx: Ctx, e: Extract<MetricExpr, { kind: 'binary' }>, l: Value, r: Value): Value {
  const n = ctx.steps.length;
  const cmp = COMPARISON.has(e.op);
  if (l.kind === 'scalar' && r.kind === 'scalar') {
    if (cmp && !e.bool) throw new LogQLQueryError('comparisons between scalars must use BOOL modifier');
    return { kind: 'scalar', values: l.values.map((a, i) => arith(e.op, a, r.values[i])) };
  }
  if (l.kind === 'scalar' || r.kind === 'scalar') {
    const vec = (l.kind === 'vector' ? l : r) as Extract<Value, { kind: 'vector' }>;
    const sc = (l.kind === 'scalar' ? l : r) as Extract<Value, { kind: 'scalar' }>;
    const vecLeft = l.kind === 'vector';
    return {
      kind: 'vector',
      series: vec.series.map((s) => ({
        labels: s.labels,
        values: s.values.map((v, i) => {
          if (v === undefined) return undefined;
          const a = vecLeft ? v : sc.values[i];
          const b = vecLeft ? sc.values[i] : v;
          const res = arith(e.op, a, b);
          if (cmp && !e.bool) return res === 1 ? v : undefined;
          return res;
        }),
      })),
    };
  }
  const m = e.matching;
  const signature = (labels: Labels): string => {
    if (m?.on) {
      const out: Labels = {};
      for (const name of m.labels) if (ownLabel(labels, name) !== undefined) out[name] = labels[name];
      return labelsKey(out);
    }
    const ignore = new Set(m?.labels ?? []);
    const out: Labels = {};
    for (const [k, v] of Object.entries(labels)) if (!ignore.has(k)) out[k] = v;
    return labelsKey(out);
  };
  if (e.op === 'and' || e.op === 'or' || e.op === 'unless') {
    const out: Series[] = l.series.map((s) => ({ labels: s.labels, values: new Array<number | undefined>(n).fill(undefined) }));
    const rightOut: Series[] = r.series.map((s) => ({ labels: s.labels, values: new Array<number | undefined>(n).fill(undefined) }));
    const lsig = l.series.map((s) => signature(s.labels));
    const rsig = r.series.map((s) => signature(s.labels));
    for (let i = 0; i < n; i++) {
      const rightHas = new Set(r.series.flatMap((s, j) => (s.values[i] !== undefined ? [rsig[j]] : [])));
      const leftHas = new Set(l.series.flatMap((s, j) => (s.values[i] !== undefined ? [lsig[j]] : [])));
      l.series.forEach((s, j) => {
        const v = s.values[i];
        if (v === undefined) return;
        if (e.op === 'or' || (e.op === 'and' ? rightHas.has(lsig[j]) : !rightHas.has(lsig[j]))) out[j].values[i] = v;
      });
      if (e.op === 'or') {
        r.series.forEach((s, j) => {
          if (s.values[i] !== undefined && !leftHas.has(rsig[j])) rightOut[j].values[i] = s.values[i];
        });
      }
    }
    return { kind: 'vector', series: e.op === 'or' ? [...out, ...rightOut] : out };
  }
  // Arithmetic and comparisons: one-to-one, or many-to-one with group_left / group_right.
  const card = m?.group;
  const [many, one] = card === 'right' ? [r.series, l.series] : [l.series, r.series];
  const manyIsLeft = card !== 'right';
  const oneSig = one.map((s) => signature(s.labels));
  const manySig = many.map((s) => signature(s.labels));
  const results = new Map<string, Series>();
  for (let i = 0; i < n; i++) {
    const oneBySig = new Map<string, number>();
    one.forEach((s, j) => {
      if (s.values[i] === undefined) return;
      if (oneBySig.has(oneSig[j])) {
        throw new LogQLQueryError(
          card ? `found duplicate series for the match group ${labelsString(one[j].labels)} on the ${card === 'left' ? 'right' : 'left'} hand-side of the operation; many-to-many matching not allowed: matching labels must be unique on one side` : 'found duplicate series for the match group on the right hand-side of the operation; many-to-many matching not allowed: matching labels must be unique on one side',
        );
      }
      oneBySig.set(oneSig[j], j);
    });
    const seenMany = new Set<string>();
    many.forEach((s, j) => {
      const v = s.values[i];
      if (v === undefined) return;
      const oj = oneBySig.get(manySig[j]);
      if (oj === undefined) return;
      if (!card) {
        if (seenMany.has(manySig[j])) throw new LogQLQueryError('multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)');
        seenMany.add(manySig[j]);
      }
      const ov = one[oj].values[i]!;
      const [a, b] = manyIsLeft ? [v, ov] : [ov, v];
      const res = arith(e.op, a, b);
      let value: number | undefined = res;
      if (cmp && !e.bool) value = res === 1 ? a : undefined;
      if (value === undefined) return;
      const labels = resultLabels(s.labels, one[oj].labels, m, card);
      const key = labelsKey(labels);
      let series = results.get(key);
      if (!series) {
        series = { labels, values: new Array<number | undefined>(n).fill(undefined) };
        results.set(key, series);
      }
      if (series.values[i] !== undefined) throw new LogQLQueryError('multiple matches for labels: grouping labels must ensure unique matches');
      series.values[i] = value;
    });
  }
  return { kind: 'vector', series: [...results.values()] };
}

function resultLabels(manyLabels: Labels, oneLabels: Labels, m: Extract<MetricExpr, { kind: 'binary' }>['matching'], card: 'left' | 'right' | undefined): Labels {
  const out: Labels = { ...manyLabels };
  if (!card) {
    if (m?.on) {
      const keep = new Set(m.labels);
      for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
    } else if (m) for (const k of m.labels) delete out[k];
    return out;
  }
  for (const name of m?.include ?? []) {
    const v = ownLabel(oneLabels, name);
    if (v !== undefined && v !== '') out[name] = v;
    else delete out[name];
  }
  return out;
}
