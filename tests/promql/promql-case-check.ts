// Runs one PromQL case as Prometheus' test driver does: the query itself, then (for an instant case) the same query
// in range mode (a minute either side, one-minute step, its middle point compared), then the `@` re-runs of
// atVariants, each also in range mode. Throws a message naming what differed; used by promql-cases.test.ts and
// scripts/conformance.ts.

import { createEngine } from '../../packages/promql/engine/engine';
import { PromQLError } from '../../packages/promql/engine/errors';
import { labelsKey, type Value } from '../../packages/promql/engine/value';
import { MemoryQuerier } from '../../packages/promql/storage/memory-querier';
import { almostEqual, atVariants, type EvalCase } from './promql-test-runner';

const engine = createEngine();
const MINUTE = 60_000;

/** `epsilon`: the relative difference two values may have (Prometheus' own test driver allows 1e-6). */
export async function checkCase(c: EvalCase, epsilon = 1e-9): Promise<void> {
  const querier = new MemoryQuerier(c.data);
  if (c.kind === 'range') {
    const { value } = await engine.rangeQuery(querier, c.query, c.timeMs, c.endMs, c.stepMs);
    return compare(c, value, 'range', c.query, epsilon);
  }
  const runs = [{ query: c.query, timeMs: c.timeMs }, ...atVariants(c.query, c.timeMs)];
  for (const run of runs) {
    const where = run.query === c.query && run.timeMs === c.timeMs ? run.query : `${run.query} at ${run.timeMs / 1000}s`;
    if (c.fail) {
      const error = await engine.instantQuery(querier, run.query, run.timeMs).then(() => undefined, (e: unknown) => e);
      if (!(error instanceof PromQLError)) throw new Error(`${where}: the query should fail${error ? `, threw ${String(error)}` : ''}`);
      if (c.error && !error.message.includes(c.error)) throw new Error(`${where}: error "${error.message}" lacks "${c.error}"`);
      continue;
    }
    const { value } = await engine.instantQuery(querier, run.query, run.timeMs);
    compare(c, value, 'instant', where, epsilon);
    // Range mode has no order, and no range vectors (the project's cases also expect those from instant queries).
    if (c.ordered || value.type === 'matrix') continue;
    const ranged = await engine.rangeQuery(querier, run.query, run.timeMs - MINUTE, run.timeMs + MINUTE, MINUTE);
    compare(c, middle(ranged.value, run.timeMs, value.type === 'scalar'), 'instant', `${where} (range mode)`, epsilon);
  }
}

/** A range query's points at `timeMs`, as the instant answer they must equal. */
function middle(value: Value, timeMs: number, scalar: boolean): Value {
  if (value.type !== 'matrix') throw new Error(`range mode answered ${value.type}`);
  const samples = value.series.flatMap((s) => {
    const j = s.timestampsMs.indexOf(timeMs);
    return j < 0 ? [] : [{ labels: s.labels, v: s.values[j], t: timeMs }];
  });
  if (scalar) return { type: 'scalar', v: samples[0]?.v ?? NaN, t: timeMs };
  return { type: 'vector', samples };
}

function compare(c: EvalCase, value: Value, mode: 'instant' | 'range', where: string, epsilon: number): void {
  const fail = (message: string): never => {
    throw new Error(`${where}: ${message}`);
  };
  if (c.fail) fail('the query should fail');
  if (c.scalar !== undefined) {
    if (value.type !== 'scalar') fail(`expected a scalar, got ${value.type}`);
    if (value.type === 'scalar' && !almostEqual(value.v, c.scalar, epsilon)) fail(`${value.v} vs ${c.scalar}`);
    return;
  }
  const actual = new Map<string, (number | null)[]>();
  const order: string[] = [];
  if (value.type === 'vector') {
    for (const s of value.samples) {
      const k = labelsKey(s.labels);
      if (actual.has(k)) fail(`duplicate series ${show(k)}`);
      actual.set(k, [s.v]);
      order.push(k);
    }
  } else if (value.type === 'matrix') {
    const steps = mode === 'range' ? Math.floor((c.endMs - c.timeMs) / c.stepMs) + 1 : 0;
    for (const s of value.series) {
      const k = labelsKey(s.labels);
      const vals: (number | null)[] = mode === 'range' ? new Array(steps).fill(null) : [];
      s.timestampsMs.forEach((t, j) => {
        if (mode === 'range') vals[Math.round((t - c.timeMs) / c.stepMs)] = s.values[j];
        else vals.push(s.values[j]);
      });
      actual.set(k, vals);
      order.push(k);
    }
  } else fail(`unexpected ${value.type} result`);
  const listing = () => [...actual.entries()].map(([k, v]) => `${show(k)} ${v.join(' ')}`).join('\n');
  if (actual.size !== c.expected.length) fail(`${actual.size} series, expected ${c.expected.length}; actual:\n${listing()}`);
  c.expected.forEach((e, idx) => {
    const k = labelsKey(e.labels);
    const got = actual.get(k) ?? fail(`missing ${show(k)}; actual:\n${listing()}`);
    if (got.length !== e.values.length) fail(`${got.length} points of ${show(k)}, expected ${e.values.length}`);
    e.values.forEach((v, j) => {
      const g = got[j];
      const same = v === null || g === null ? g === v : almostEqual(g, v, epsilon);
      if (!same) fail(`point ${j} of ${show(k)}: ${g} vs ${v}`);
    });
    if (c.ordered && order[idx] !== k) fail(`series ${idx} is ${show(order[idx])}, expected ${show(k)}`);
  });
}

const show = (key: string) => key.replace(/\xff/g, '|');
