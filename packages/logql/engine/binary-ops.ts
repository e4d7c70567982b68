import type { BinaryOp, MetricExpr } from '../syntax/ast';
import { LogQLQueryError } from './errors';
import { labelsKey, labelsString, type Labels } from './labels';
import type { StepSample, StepValue } from './metric-value';
import { ownLabel } from '../../labels/own-label';

// Binary operators between the two sides' values at one step (Prometheus' semantics, which Loki follows):
// scalar–scalar, vector–scalar, set operators (and, or, unless), and one-to-one or many-to-one matching with
// on/ignoring and group_left/right.

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

/** A binary operation between the two sides' values at one step. */
export function binary(e: Extract<MetricExpr, { kind: 'binary' }>, l: StepValue, r: StepValue): StepValue {
  const cmp = COMPARISON.has(e.op);
  if (l.kind === 'scalar' && r.kind === 'scalar') {
    if (cmp && !e.bool) throw new LogQLQueryError('comparisons between scalars must use BOOL modifier');
    return { kind: 'scalar', value: arith(e.op, l.value, r.value) };
  }
  if (l.kind === 'scalar' || r.kind === 'scalar') {
    const vec = (l.kind === 'vector' ? l : r) as Extract<StepValue, { kind: 'vector' }>;
    const sc = (l.kind === 'scalar' ? l : r) as Extract<StepValue, { kind: 'scalar' }>;
    const vecLeft = l.kind === 'vector';
    const samples: StepSample[] = [];
    for (const s of vec.samples) {
      const a = vecLeft ? s.value : sc.value;
      const b = vecLeft ? sc.value : s.value;
      const res = arith(e.op, a, b);
      if (cmp && !e.bool) {
        if (res === 1) samples.push(s);
      } else samples.push({ labels: s.labels, value: res });
    }
    return { kind: 'vector', samples };
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
    const lsig = l.samples.map((s) => signature(s.labels));
    const rsig = r.samples.map((s) => signature(s.labels));
    const rightHas = new Set(rsig);
    const leftHas = new Set(lsig);
    const samples = l.samples.filter((_, j) => e.op === 'or' || (e.op === 'and' ? rightHas.has(lsig[j]) : !rightHas.has(lsig[j])));
    if (e.op === 'or') r.samples.forEach((s, j) => !leftHas.has(rsig[j]) && samples.push(s));
    return { kind: 'vector', samples };
  }
  // Arithmetic and comparisons: one-to-one, or many-to-one with group_left / group_right.
  const card = m?.group;
  const [many, one] = card === 'right' ? [r.samples, l.samples] : [l.samples, r.samples];
  const manyIsLeft = card !== 'right';
  const oneBySig = new Map<string, StepSample>();
  for (const s of one) {
    const sig = signature(s.labels);
    if (oneBySig.has(sig)) {
      throw new LogQLQueryError(
        card ? `found duplicate series for the match group ${labelsString(s.labels)} on the ${card === 'left' ? 'right' : 'left'} hand-side of the operation; many-to-many matching not allowed: matching labels must be unique on one side` : 'found duplicate series for the match group on the right hand-side of the operation; many-to-many matching not allowed: matching labels must be unique on one side',
      );
    }
    oneBySig.set(sig, s);
  }
  const seenMany = new Set<string>();
  const results = new Map<string, StepSample>();
  for (const s of many) {
    const sig = signature(s.labels);
    const o = oneBySig.get(sig);
    if (o === undefined) continue;
    if (!card) {
      if (seenMany.has(sig)) throw new LogQLQueryError('multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)');
      seenMany.add(sig);
    }
    const [a, b] = manyIsLeft ? [s.value, o.value] : [o.value, s.value];
    const res = arith(e.op, a, b);
    let value: number | undefined = res;
    if (cmp && !e.bool) value = res === 1 ? a : undefined;
    if (value === undefined) continue;
    const labels = resultLabels(s.labels, o.labels, m, card);
    const key = labelsKey(labels);
    if (results.has(key)) throw new LogQLQueryError('multiple matches for labels: grouping labels must ensure unique matches');
    results.set(key, { labels, value });
  }
  return { kind: 'vector', samples: [...results.values()] };
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
