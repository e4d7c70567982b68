// Binary operators with Prometheus 2.42's matching. Series signatures (the labels that match them) are computed
// once per series; each step then pairs the series present at it, with Prometheus' errors for ambiguous matches.

import type { BinaryOp, VectorMatching } from '../parser/ast';
import type { Labels } from '../storage/querier';
import { executionError } from './errors';
import { keyOf, SeriesBuilder, type StepScalar, type StepSeries, type StepVector } from './step-values';
import { dropName, labelsKey, labelsString } from './value';
import { ownLabel } from '../../labels/own-label';

const ARITHMETIC = new Set<BinaryOp>(['+', '-', '*', '/', '%', '^']);

/** Go's math.Pow where it differs from `**` (1^y and (-1)^±Inf are 1). */
function goPow(x: number, y: number): number {
  if (y === 0) return 1;
  if (x === 1) return 1;
  if (x === -1 && (y === Infinity || y === -Infinity)) return 1;
  return x ** y;
}

/** The operator on two numbers: for comparisons, whether it holds (1/0). */
export function scalarBinop(op: BinaryOp, a: number, b: number): number {
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    case '%': return a % b;
    case '^': return goPow(a, b);
    case 'atan2': return Math.atan2(a, b);
    case '==': return a === b ? 1 : 0;
    case '!=': return a !== b ? 1 : 0;
    case '>': return a > b ? 1 : 0;
    case '<': return a < b ? 1 : 0;
    case '>=': return a >= b ? 1 : 0;
    case '<=': return a <= b ? 1 : 0;
    default:
      throw executionError(`operator "${op}" not allowed for Scalar operations`);
  }
}

function isComparison(op: BinaryOp): boolean {
  return op === '==' || op === '!=' || op === '>' || op === '<' || op === '>=' || op === '<=';
}

/** scalar op scalar, step by step. */
export function scalarScalar(op: BinaryOp, a: StepScalar, b: StepScalar, n: number): StepScalar {
  const vals = new Float64Array(n);
  for (let i = 0; i < n; i++) vals[i] = scalarBinop(op, a.vals[i], b.vals[i]);
  return { kind: 'scalar', vals };
}

/** vector op scalar (or scalar op vector when `swap`): comparisons filter unless `bool`. */
export function vectorScalar(op: BinaryOp, vec: StepVector, scalar: StepScalar, swap: boolean, returnBool: boolean, n: number): StepVector {
  const comparison = isComparison(op);
  const drop = ARITHMETIC.has(op) || returnBool;
  const out: StepSeries[] = [];
  for (const s of vec.series) {
    const vals = new Float64Array(n);
    const has = new Uint8Array(n);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (!s.has[i]) continue;
      const l = swap ? scalar.vals[i] : s.vals[i];
      const r = swap ? s.vals[i] : scalar.vals[i];
      let value: number;
      if (comparison) {
        const holds = scalarBinop(op, l, r) === 1;
        if (returnBool) value = holds ? 1 : 0;
        else if (!holds) continue;
        // The vector's own value is kept, whichever side it is on.
        else value = s.vals[i];
      } else value = scalarBinop(op, l, r);
      vals[i] = value;
      has[i] = 1;
      any = true;
    }
    if (any) out.push({ labels: drop ? dropName(s.labels) : s.labels, vals, has });
  }
  return { kind: 'vector', series: out };
}

/** The labels a series is matched by: on(…) the listed ones, ignoring(…) all others but the name. */
export function signature(labels: Labels, matching: VectorMatching): string {
  let sig = '';
  if (matching.on) {
    const names = [...matching.labels].sort();
    for (const n of names) {
      const v = ownLabel(labels, n);
      if (v !== undefined && v !== '') sig += `${n}\xff${v}\xff`;
    }
    return sig;
  }
  const names = Object.keys(labels).sort();
  for (const n of names) {
    if (n === '__name__' || matching.labels.includes(n)) continue;
    sig += `${n}\xff${labels[n]}\xff`;
  }
  return sig;
}

function matchedLabels(labels: Labels, matching: VectorMatching): Labels {
  const out: Labels = {};
  for (const n of Object.keys(labels)) {
    const listed = matching.labels.includes(n);
    if (matching.on ? listed : !listed && n !== '__name__') out[n] = labels[n];
  }
  return out;
}

function resultLabels(l: Labels, r: Labels, op: BinaryOp, matching: VectorMatching, returnBool: boolean): Labels {
  const out: Labels = { ...l };
  if (ARITHMETIC.has(op) || returnBool) delete out.__name__;
  if (matching.card === 'one-to-one') {
    if (matching.on) {
      for (const n of Object.keys(out)) if (!matching.labels.includes(n)) delete out[n];
    } else for (const n of matching.labels) delete out[n];
  }
  for (const n of matching.include) {
    const v = r[n];
    if (v !== undefined && v !== '') out[n] = v;
    else delete out[n];
  }
  return out;
}

function groupBySignature(series: StepSeries[], matching: VectorMatching): { sigs: string[]; groups: Map<string, number[]> } {
  const sigs = series.map((s) => signature(s.labels, matching));
  const groups = new Map<string, number[]>();
  sigs.forEach((sig, i) => {
    const g = groups.get(sig);
    if (g) g.push(i);
    else groups.set(sig, [i]);
  });
  return { sigs, groups };
}

/** Arithmetic and comparisons between two instant vectors (one-to-one, many-to-one, one-to-many). */
export function vectorVector(
  op: BinaryOp, lhsIn: StepVector, rhsIn: StepVector, matching: VectorMatching, returnBool: boolean, n: number,
): StepVector {
  const swapped = matching.card === 'one-to-many';
  // The "one" side is always `rhs` below.
  const lhs = swapped ? rhsIn.series : lhsIn.series;
  const rhs = swapped ? lhsIn.series : rhsIn.series;
  const left = groupBySignature(lhs, matching);
  const right = groupBySignature(rhs, matching);
  const comparison = isComparison(op);
  const oneToOne = matching.card === 'one-to-one';
  const duplicates = [...right.groups.values()].filter((g) => g.length > 1);
  const rightOf = left.sigs.map((sig) => right.groups.get(sig));
  const labelCache = new Map<string, { labels: Labels; key: string }>();
  const builder = new SeriesBuilder(n);
  const matchedAt = new Map<string, Set<string> | null>();

  for (let i = 0; i < n; i++) {
    // Two series of the "one" side with the same signature at this step is many-to-many.
    for (const g of duplicates) {
      let first = -1;
      for (const ri of g) {
        if (!rhs[ri].has[i]) continue;
        if (first < 0) {
          first = ri;
          continue;
        }
        throw executionError(
          `found duplicate series for the match group ${labelsString(matchedLabels(rhs[ri].labels, matching))} on the ${swapped ? 'left' : 'right'} hand-side of the operation: [${labelsString(rhs[ri].labels)}, ${labelsString(rhs[first].labels)}];many-to-many matching not allowed: matching labels must be unique on one side`,
        );
      }
    }
    matchedAt.clear();
    for (let li = 0; li < lhs.length; li++) {
      const ls = lhs[li];
      if (!ls.has[i]) continue;
      const candidates = rightOf[li];
      if (!candidates) continue;
      let ri = -1;
      for (const c of candidates) {
        if (rhs[c].has[i]) {
          ri = c;
          break;
        }
      }
      if (ri < 0) continue;
      const rs = rhs[ri];
      const vl = swapped ? rs.vals[i] : ls.vals[i];
      const vr = swapped ? ls.vals[i] : rs.vals[i];
      let value: number;
      if (comparison) {
        const holds = scalarBinop(op, vl, vr) === 1;
        if (returnBool) value = holds ? 1 : 0;
        else if (!holds) continue;
        else value = vl;
      } else value = scalarBinop(op, vl, vr);
      const cacheKey = `${li}:${ri}`;
      let result = labelCache.get(cacheKey);
      if (!result) {
        const labels = resultLabels(ls.labels, rs.labels, op, matching, returnBool);
        result = { labels, key: labelsKey(labels) };
        labelCache.set(cacheKey, result);
      }
      const sig = left.sigs[li];
      if (oneToOne) {
        if (matchedAt.has(sig)) {
          throw executionError('multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)');
        }
        matchedAt.set(sig, null);
      } else {
        let inserted = matchedAt.get(sig);
        if (!inserted) {
          inserted = new Set();
          matchedAt.set(sig, inserted);
        } else if (inserted.has(result.key)) {
          throw executionError('multiple matches for labels: grouping labels must ensure unique matches');
        }
        inserted.add(result.key);
      }
      builder.set(result.labels, result.key, i, value);
    }
  }
  return { kind: 'vector', series: builder.series };
}

/** and, or, unless (many-to-many, by signature). */
export function setOperation(op: 'and' | 'or' | 'unless', lhsIn: StepVector, rhsIn: StepVector, matching: VectorMatching, n: number): StepVector {
  const lhs = lhsIn.series;
  const rhs = rhsIn.series;
  const left = groupBySignature(lhs, matching);
  const right = groupBySignature(rhs, matching);
  const presentIn = (indices: number[] | undefined, series: StepSeries[], i: number) => {
    if (!indices) return false;
    for (const j of indices) if (series[j].has[i]) return true;
    return false;
  };
  const builder = new SeriesBuilder(n);
  const emit = (s: StepSeries, i: number) => builder.set(s.labels, keyOf(s), i, s.vals[i]);
  if (op === 'or') {
    // Per step: every lhs sample, then the rhs samples whose signature no lhs sample has.
    for (let i = 0; i < n; i++) {
      for (const s of lhs) if (s.has[i]) emit(s, i);
      for (let j = 0; j < rhs.length; j++) {
        if (!rhs[j].has[i]) continue;
        if (!presentIn(left.groups.get(right.sigs[j]), lhs, i)) emit(rhs[j], i);
      }
    }
    return { kind: 'vector', series: builder.series };
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < lhs.length; j++) {
      if (!lhs[j].has[i]) continue;
      const matched = presentIn(right.groups.get(left.sigs[j]), rhs, i);
      if (matched === (op === 'and')) emit(lhs[j], i);
    }
  }
  return { kind: 'vector', series: builder.series };
}
