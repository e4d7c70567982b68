// Aggregation operators over all steps at once. A series' group depends only on its labels, so groups are
// computed once per series; each step then folds the members present at it (in input order, as Prometheus).

import type { AggregateOp } from '../parser/ast';
import type { Labels } from '../storage/querier';
import { executionError } from './errors';
import { formatNumber } from '../parser/print';
import { formatValue } from './format';
import { quantileOf } from './functions';
import { SeriesBuilder, type StepSeries, type StepVector } from './step-values';
import { labelsKey } from './value';
import { ownLabel } from '../../labels/own-label';

/** The group's labels of a series: `by` keeps the listed labels, `without` drops them and the name. */
export function groupLabels(labels: Labels, grouping: string[], without: boolean): Labels {
  const out: Labels = {};
  if (without) {
    for (const n in labels) if (n !== '__name__' && !grouping.includes(n)) out[n] = labels[n];
  } else {
    for (const n of grouping) if (ownLabel(labels, n) !== undefined && labels[n] !== '') out[n] = labels[n];
  }
  return out;
}

interface Group {
  labels: Labels;
  key: string;
  members: StepSeries[];
  /** Input position of each member (Prometheus keeps input order). */
  indices: number[];
}

function buildGroups(input: StepSeries[], grouping: string[], without: boolean): Group[] {
  const byKey = new Map<string, Group>();
  const groups: Group[] = [];
  input.forEach((s, index) => {
    const labels = groupLabels(s.labels, grouping, without);
    const key = labelsKey(labels);
    let g = byKey.get(key);
    if (!g) {
      g = { labels, key, members: [], indices: [] };
      byKey.set(key, g);
      groups.push(g);
    }
    g.members.push(s);
    g.indices.push(index);
  });
  return groups;
}

export interface AggregateArgs {
  op: AggregateOp;
  input: StepVector;
  grouping: string[];
  without: boolean;
  n: number;
  /** The scalar parameter per step (topk, bottomk, quantile). */
  param?: Float64Array;
  /** count_values' label name. */
  label?: string;
}

export function aggregate(args: AggregateArgs): StepVector {
  const { op, input, grouping, without, n } = args;
  switch (op) {
    case 'topk':
    case 'bottomk':
      return topk(args);
    case 'count_values':
      return countValues(args);
    default:
      break;
  }
  const groups = buildGroups(input.series, grouping, without);
  if (n === 1) orderByFirstPresent(groups);
  const out: StepSeries[] = [];
  for (const g of groups) {
    const vals = new Float64Array(n);
    const has = new Uint8Array(n);
    const count = new Float64Array(n);
    switch (op) {
      case 'sum':
        for (const s of g.members) {
          const sv = s.vals;
          const sh = s.has;
          for (let i = 0; i < n; i++) {
            if (!sh[i]) continue;
            if (has[i]) vals[i] += sv[i];
            else {
              vals[i] = sv[i];
              has[i] = 1;
            }
          }
        }
        break;
      case 'count':
      case 'group':
        for (const s of g.members) for (let i = 0; i < n; i++) if (s.has[i]) count[i]++;
        for (let i = 0; i < n; i++) {
          if (count[i] > 0) {
            has[i] = 1;
            vals[i] = op === 'count' ? count[i] : 1;
          }
        }
        break;
      case 'avg':
        for (const s of g.members) {
          for (let i = 0; i < n; i++) {
            if (!s.has[i]) continue;
            const x = s.vals[i];
            if (!has[i]) {
              has[i] = 1;
              vals[i] = x;
              count[i] = 1;
              continue;
            }
            const c = ++count[i];
            const mean = vals[i];
            if (mean === Infinity || mean === -Infinity) {
              if ((x === Infinity || x === -Infinity) && mean > 0 === x > 0) continue;
              if (Number.isFinite(x)) continue;
            }
            vals[i] = mean + (x / c - mean / c);
          }
        }
        break;
      case 'min':
      case 'max':
        for (const s of g.members) {
          for (let i = 0; i < n; i++) {
            if (!s.has[i]) continue;
            const x = s.vals[i];
            if (!has[i]) {
              has[i] = 1;
              vals[i] = x;
            } else if (op === 'max' ? vals[i] < x || Number.isNaN(vals[i]) : vals[i] > x || Number.isNaN(vals[i])) {
              vals[i] = x;
            }
          }
        }
        break;
      case 'stddev':
      case 'stdvar': {
        const mean = new Float64Array(n);
        for (const s of g.members) {
          for (let i = 0; i < n; i++) {
            if (!s.has[i]) continue;
            const x = s.vals[i];
            if (!has[i]) {
              has[i] = 1;
              mean[i] = x;
              count[i] = 1;
              vals[i] = 0;
              continue;
            }
            const c = ++count[i];
            const delta = x - mean[i];
            mean[i] += delta / c;
            vals[i] += delta * (x - mean[i]);
          }
        }
        for (let i = 0; i < n; i++) {
          if (!has[i]) continue;
          vals[i] = op === 'stdvar' ? vals[i] / count[i] : Math.sqrt(vals[i] / count[i]);
        }
        break;
      }
      case 'quantile': {
        const scratch: number[] = [];
        for (let i = 0; i < n; i++) {
          scratch.length = 0;
          for (const s of g.members) if (s.has[i]) scratch.push(s.vals[i]);
          if (scratch.length === 0) continue;
          has[i] = 1;
          vals[i] = quantileOf(args.param![i], scratch);
        }
        break;
      }
      default:
        throw executionError(`unknown aggregation ${op}`);
    }
    out.push({ labels: g.labels, key: g.key, vals, has });
  }
  return { kind: 'vector', series: out.filter((s) => s.has.some((h) => h === 1)) };
}

/** For an instant query Prometheus lists groups in the order their first present member comes. */
function orderByFirstPresent(groups: Group[]): void {
  const first = new Map<Group, number>();
  for (const g of groups) {
    const i = g.members.findIndex((s) => s.has[0] === 1);
    first.set(g, i < 0 ? Infinity : g.indices[i]);
  }
  groups.sort((a, b) => first.get(a)! - first.get(b)!);
}

/**
 * topk/bottomk as Prometheus 2.42 computes them, so that the same series win among equal values: per group and step a
 * binary heap (Go's container/heap) with the worst kept sample on top — NaN counts as the worst — that the members
 * enter in input order (pushed while fewer than k; else, when better than the top, the top is popped and the sample
 * pushed); then the heap sorted best
 * first with Go's sort.Sort (an insertion sort up to 12 elements; beyond, our order among equal values may differ
 * from its pdqsort's, which only an instant query's order shows). Members are read one at a time across all steps
 * (each series' array once), every step keeping its own heap.
 */
function topk(args: AggregateArgs): StepVector {
  const { op, input, grouping, without, n } = args;
  const groups = buildGroups(input.series, grouping, without);
  const param = args.param!;
  const ks = new Int32Array(n);
  let kMax = 0;
  for (let i = 0; i < n; i++) {
    const f = param[i];
    if (!(f >= -9.223372036854776e18 && f <= 9.223372036854776e18)) {
      throw executionError(`Scalar value ${formatNumber(f)} overflows int64`);
    }
    const k = Math.trunc(f);
    ks[i] = k < 1 ? 0 : Math.min(k, input.series.length);
    if (ks[i] > kMax) kMax = ks[i];
  }
  const bottom = op === 'bottomk';
  if (n === 1) orderByFirstPresent(groups);
  const chosen = new Map<StepSeries, StepSeries>();
  const ordered: StepSeries[] = [];
  if (kMax === 0) return { kind: 'vector', series: [] };
  const hv = new Float64Array(n * kMax);
  const hm = new Int32Array(n * kMax);
  const size = new Int32Array(n);
  // The heap's Less (the top is the least): NaN is less than anything; else smaller (topk) or larger (bottomk).
  const less = (a: number, b: number) => a !== a || (bottom ? a > b : a < b);
  const swap = (x: number, y: number) => {
    const v = hv[x];
    hv[x] = hv[y];
    hv[y] = v;
    const m = hm[x];
    hm[x] = hm[y];
    hm[y] = m;
  };
  for (const g of groups) {
    size.fill(0);
    g.members.forEach((s, m) => {
      const sv = s.vals;
      const sh = s.has;
      for (let i = 0; i < n; i++) {
        const k = ks[i];
        if (!sh[i] || k === 0) continue;
        const x = sv[i];
        const base = i * kMax;
        const c = size[i];
        if (c < k) {
          // heap.Push: append, then up.
          hv[base + c] = x;
          hm[base + c] = m;
          size[i] = c + 1;
          let j = c;
          for (;;) {
            const parent = (j - 1) >> 1;
            if (j === 0 || !less(hv[base + j], hv[base + parent])) break;
            swap(base + parent, base + j);
            j = parent;
          }
          continue;
        }
        const top = hv[base];
        const better = (bottom ? top > x : top < x) || (top !== top && x === x);
        if (!better) continue;
        // The worst is popped (heap.Pop: the last moved to the top and sifted down) and the sample pushed, as
        // 2.42's answers show (measured against it: ties go to the later series where this order says so).
        const last = c - 1;
        swap(base, base + last);
        let j = 0;
        for (;;) {
          const j1 = 2 * j + 1;
          if (j1 >= last) break;
          let child = j1;
          if (j1 + 1 < last && less(hv[base + j1 + 1], hv[base + j1])) child = j1 + 1;
          if (!less(hv[base + child], hv[base + j])) break;
          swap(base + j, base + child);
          j = child;
        }
        hv[base + last] = x;
        hm[base + last] = m;
        j = last;
        for (;;) {
          const parent = (j - 1) >> 1;
          if (j === 0 || !less(hv[base + j], hv[base + parent])) break;
          swap(base + parent, base + j);
          j = parent;
        }
      }
    });
    for (let i = 0; i < n; i++) {
      const base = i * kMax;
      const c = size[i];
      // sort.Sort(sort.Reverse(heap)): Less(a, b) is the heap's Less(b, a); insertion sort as Go's for ≤ 12.
      if (c > 12) {
        const idx = Array.from({ length: c }, (_, j) => j);
        const v = hv.slice(base, base + c);
        const mm = hm.slice(base, base + c);
        idx.sort((a, b) => (less(v[b], v[a]) ? -1 : less(v[a], v[b]) ? 1 : a - b));
        idx.forEach((from, to) => {
          hv[base + to] = v[from];
          hm[base + to] = mm[from];
        });
      } else {
        for (let a = 1; a < c; a++) {
          for (let j = a; j > 0 && less(hv[base + j - 1], hv[base + j]); j--) swap(base + j, base + j - 1);
        }
      }
      for (let j = 0; j < c; j++) {
        const s = g.members[hm[base + j]];
        let o = chosen.get(s);
        if (!o) {
          o = { labels: s.labels, key: s.key, vals: new Float64Array(n), has: new Uint8Array(n) };
          chosen.set(s, o);
          ordered.push(o);
        }
        o.has[i] = 1;
        o.vals[i] = hv[base + j];
      }
    }
  }
  return { kind: 'vector', series: ordered };
}

function countValues(args: AggregateArgs): StepVector {
  const { input, grouping, without, n } = args;
  const label = args.label!;
  if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(label)) throw executionError(`invalid label name "${label}"`);
  const builder = new SeriesBuilder(n);
  const groupOf = input.series.map((s) => groupLabels(s.labels, without ? grouping : grouping.filter((g) => g !== label), without));
  for (let i = 0; i < n; i++) {
    input.series.forEach((s, si) => {
      if (!s.has[i]) return;
      const labels: Labels = { ...groupOf[si] };
      if (without && grouping.includes(label)) {
        // Prometheus adds the value label before dropping the `without` labels, so it is dropped too.
      } else labels[label] = formatValue(s.vals[i]);
      const key = labelsKey(labels);
      const out = builder.get(labels, key);
      if (out.has[i]) out.vals[i]++;
      else {
        out.has[i] = 1;
        out.vals[i] = 1;
      }
    });
  }
  return { kind: 'vector', series: builder.series };
}

