// Aggregation operators over all steps at once. A series' group depends only on its labels, so groups are
// computed once per series; each step then folds the members present at it (in input order, as Prometheus).

import type { AggregateOp } from '../parser/ast';
import type { Labels } from '../storage/querier';
import { executionError } from './errors';
import { formatValue } from './format';
import { quantileOf } from './functions';
import { SeriesBuilder, type StepSeries, type StepVector } from './step-values';
import { labelsKey } from './value';

/** The group's labels of a series: `by` keeps the listed labels, `without` drops them and the name. */
export function groupLabels(labels: Labels, grouping: string[], without: boolean): Labels {
  const out: Labels = {};
  if (without) {
    for (const n in labels) if (n !== '__name__' && !grouping.includes(n)) out[n] = labels[n];
  } else {
    for (const n of grouping) if (labels[n] !== undefined && labels[n] !== '') out[n] = labels[n];
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

/** topk/bottomk: the k best members of each group at each step, NaN counting as the worst (Prometheus' heaps). */
function topk(args: AggregateArgs): StepVector {
  const { op, input, grouping, without, n } = args;
  const groups = buildGroups(input.series, grouping, without);
  const param = args.param!;
  // Output: each chosen input series keeps its labels; in an instant query, in Prometheus' order.
  const chosenAt: Map<StepSeries, StepSeries> = new Map();
  const ordered: StepSeries[] = [];
  const bottom = op === 'bottomk';
  // a better than b.
  const better = (a: number, b: number) =>
    Number.isNaN(b) ? !Number.isNaN(a) : bottom ? a < b : a > b;
  if (n === 1) orderByFirstPresent(groups);
  const best: StepSeries[] = [];
  for (let i = 0; i < n; i++) {
    const f = param[i];
    if (!(f >= -9.223372036854776e18 && f <= 9.223372036854776e18)) {
      throw executionError(`Scalar value ${Number.isNaN(f) ? 'NaN' : formatValue(f)} overflows int64`);
    }
    const k = Math.trunc(f);
    if (k < 1) continue;
    for (const g of groups) {
      best.length = 0;
      for (const s of g.members) {
        if (!s.has[i]) continue;
        const x = s.vals[i];
        if (best.length < k) {
          // Insert keeping best-first order; equal values keep input order.
          let j = best.length;
          while (j > 0 && better(x, best[j - 1].vals[i])) j--;
          best.splice(j, 0, s);
        } else if (better(x, best[best.length - 1].vals[i])) {
          best.pop();
          let j = best.length;
          while (j > 0 && better(x, best[j - 1].vals[i])) j--;
          best.splice(j, 0, s);
        }
      }
      for (const s of best) {
        let o = chosenAt.get(s);
        if (!o) {
          o = { labels: s.labels, key: s.key, vals: new Float64Array(n), has: new Uint8Array(n) };
          chosenAt.set(s, o);
          ordered.push(o);
        }
        o.has[i] = 1;
        o.vals[i] = s.vals[i];
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

